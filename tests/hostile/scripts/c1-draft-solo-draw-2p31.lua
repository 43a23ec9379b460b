-- A solo draw of 2^31 per turn (an overflow of the running hand count): refused naming solo.
-- class: 1
-- command: play {game} --players 1 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: game.draft
-- expect: solo
game.to_move, game.legal_moves, game.moves = nil, nil, nil
function game.draft(ctx) return {rounds = {{deal = 5, keep = 5}, {deal = 5, keep = 5}}, grid = {rows = 2, cols = 5}, deck = {token = 60, blank = 60}, solo = {hand = 10, draw = 2 ^ 31, draw_on_row = 2 ^ 31}} end
