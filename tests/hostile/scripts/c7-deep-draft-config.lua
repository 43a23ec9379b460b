-- game.draft returns a table with a field nested 100,000 deep: refused naming game.draft.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua
-- expect: draft
local deep = {}
for i = 1, 100000 do deep = {deep} end
game.to_move, game.legal_moves, game.moves = nil, nil, nil
function game.draft(ctx) return {rounds = {{deal = 5, keep = 5}, {deal = 5, keep = 5}}, grid = {rows = 2, cols = 5}, deck = {token = 30, blank = 30}, note = deep} end
