-- A total of NaN (no breakdown): refused naming the total and the seat.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: total for seat 1
function game.score(ctx, state) return {{total = 0 / 0, breakdown = {}}, {total = 1, breakdown = {}}} end
