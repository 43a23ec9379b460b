-- A breakdown value of -inf for seat 2: refused naming the category, the seat and the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: breakdown 'bumps' for seat 2
function game.score(ctx, state) return {{breakdown = {bumps = 1}}, {breakdown = {bumps = -math.huge}}} end
