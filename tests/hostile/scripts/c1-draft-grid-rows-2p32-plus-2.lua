-- A frame of (2^32 + 2) x 5 rows, which an int truncation reads as 2 x 5 = the rounds' 10
-- cards: refused by the frame's range, not accepted.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: game.draft
-- expect: rows
game.to_move, game.legal_moves, game.moves = nil, nil, nil
function game.draft(ctx) return {rounds = {{deal = 5, keep = 5}, {deal = 5, keep = 5}}, grid = {rows = 2 ^ 32 + 2, cols = 5}, deck = {token = 30, blank = 30}} end
