-- validate's random game exhausts the budget: exit 1 naming the hook and the seed.
-- class: 5
-- command: validate {game}
-- expect-exit: 2
-- expect: instruction budget
-- expect: moves.bump
-- limit: 10
function game.moves.bump(ctx, state, seat, move) while true do end end
