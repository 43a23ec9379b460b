-- A deck count of math.maxinteger: refused by the deck limit, never summed into an overflow.
-- class: 2
-- command: simulate {game} -n 3 --players 2 --bots random --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: game.draft
game.to_move, game.legal_moves, game.moves = nil, nil, nil
function game.draft(ctx) return {rounds = {{deal = 5, keep = 5}, {deal = 5, keep = 5}}, grid = {rows = 2, cols = 5}, deck = {token = math.maxinteger, blank = math.maxinteger}} end
