-- A total of 1e300: integral but beyond int64, so out of range; not "non-integer" (class 7).
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: total for seat 1
-- reject: non-integer
function game.score(ctx, state) return {{total = 1e300, breakdown = {}}, {total = 1, breakdown = {}}} end
