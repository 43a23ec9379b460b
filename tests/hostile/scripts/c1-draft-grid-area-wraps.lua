-- A frame of 65536 x 65537 whose area (2^32 + 65536) wraps to the rounds' 65536 cards in 32
-- bits: refused by the frame's limits, not dealt.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: game.draft
-- expect: grid
game.to_move, game.legal_moves, game.moves = nil, nil, nil
function game.draft(ctx) return {rounds = {{deal = 65536, keep = 65536}}, grid = {rows = 65536, cols = 65537}, deck = {token = 200000}} end
