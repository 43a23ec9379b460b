-- A total of 2.5: refused as a non-integer, naming the seat (the documented message).
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: total for seat 1
function game.score(ctx, state) return {{total = 2.5, breakdown = {}}, {total = 1, breakdown = {}}} end
