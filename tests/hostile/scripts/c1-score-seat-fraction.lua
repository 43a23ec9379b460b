-- A score line at index 1.5: refused naming the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:6:
function game.score(ctx, state) return {[1] = {breakdown = {bumps = 1}}, [1.5] = {breakdown = {bumps = 2}}, [2] = {breakdown = {bumps = 1}}} end
