-- Every game's first move exhausts the instruction budget: simulate -n 200 stops at the first
-- failure instead of spending the budget 200 times.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- expect: seed 1
-- limit: 10
function game.moves.bump(ctx, state, seat, move) while true do end end
