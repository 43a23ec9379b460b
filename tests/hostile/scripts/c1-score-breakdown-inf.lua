-- A breakdown value of +inf: refused naming the category and the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: breakdown 'bumps'
function game.score(ctx, state) return {{breakdown = {bumps = math.huge}}, {breakdown = {bumps = 1}}} end
