-- A given total of 1 beside a breakdown of math.maxinteger and 1 (whose sum overflows): refused.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:7:
-- reject: -9223372036854775808
function game.score(ctx, state) return {{total = 1, breakdown = {a = math.maxinteger, b = 1}}, {total = 1, breakdown = {}}} end
