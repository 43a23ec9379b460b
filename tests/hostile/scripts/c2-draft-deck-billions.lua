-- A deck of 4 billion cards: the host refuses it by its deck limit, before any allocation.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: game.draft
-- expect: token
game.to_move, game.legal_moves, game.moves = nil, nil, nil
function game.draft(ctx) return {rounds = {{deal = 5, keep = 5}, {deal = 5, keep = 5}}, grid = {rows = 2, cols = 5}, deck = {token = 4e9, blank = 30}} end
