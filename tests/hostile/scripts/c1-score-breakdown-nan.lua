-- A breakdown value of NaN: refused naming the hook, the category and the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: breakdown 'bumps'
function game.score(ctx, state) return {{breakdown = {bumps = 0 / 0}}, {breakdown = {bumps = 1}}} end
