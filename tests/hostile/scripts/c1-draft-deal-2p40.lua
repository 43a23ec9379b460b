-- deal = 2^40: beyond any deck; refused by its range, not an overflow or a huge allocation.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: game.draft
-- expect: deal
game.to_move, game.legal_moves, game.moves = nil, nil, nil
function game.draft(ctx) return {rounds = {{deal = 2 ^ 40, keep = 5}, {deal = 5, keep = 5}}, grid = {rows = 2, cols = 5}, deck = {token = 30, blank = 30}} end
