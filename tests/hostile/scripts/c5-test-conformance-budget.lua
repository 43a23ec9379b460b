-- Every conformance game exhausts the budget: stopped at the first, not 200 budgets later.
-- class: 5
-- command: test {game} --conformance-only --games 200
-- expect-exit: 1
-- expect: instruction budget
-- expect: seed
-- limit: 10
function game.moves.bump(ctx, state, seat, move) while true do end end
