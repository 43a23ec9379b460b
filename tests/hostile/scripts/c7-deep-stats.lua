-- The stats hook returns a table nested 100,000 deep in a field: refused naming stats.
-- class: 7
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
local deep = {}
for i = 1, 100000 do deep = {deep} end
function game.stats(ctx, state) return {counts = deep} end
