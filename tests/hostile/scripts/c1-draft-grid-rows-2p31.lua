-- A draft frame of 2^31 rows: the area overflows int; refused naming game.draft and the grid,
-- never a negative cell count or an abort.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: game.draft
-- expect: rows
-- reject: -2147483648
game.to_move, game.legal_moves, game.moves = nil, nil, nil
function game.draft(ctx) return {rounds = {{deal = 5, keep = 5}, {deal = 5, keep = 5}}, grid = {rows = 2 ^ 31, cols = 1}, deck = {token = 30, blank = 30}} end
