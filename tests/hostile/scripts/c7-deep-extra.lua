-- score's extra nested 100,000 deep: refused naming the hook, not a host stack overflow.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
local deep = {}
for i = 1, 100000 do deep = {deep} end
function game.score(ctx, state) return {{breakdown = {bumps = 1}}, {breakdown = {bumps = 1}}}, {deep = deep} end
