-- A legal move with a field nested 100,000 deep: refused naming legal_moves.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
local deep = {}
for i = 1, 100000 do deep = {deep} end
function game.legal_moves(ctx, state, seat) return {{type = "bump", by = 1, deep = deep}} end
