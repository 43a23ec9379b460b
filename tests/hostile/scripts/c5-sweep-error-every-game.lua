-- sweep over 10 values with a rule failing in every game: stops at the first failure.
-- class: 5
-- command: sweep {game} --set limit=1..10 -n 100 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- limit: 10
function game.moves.bump(ctx, state, seat, move) error("always") end
