-- A score line at index 2^32 + 1, which an int truncation reads as seat 1: refused.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:6:
function game.score(ctx, state) return {[2 ^ 32 + 1] = {breakdown = {bumps = 99}}, [2] = {breakdown = {bumps = 1}}} end
