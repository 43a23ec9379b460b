-- Every game fails the same way: simulate -n 200 stops at the first failure and names the seed
-- that reproduces it.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:10:
-- expect: seed 1
-- reject: seed 100
-- limit: 10
function game.moves.bump(ctx, state, seat, move) error("always") end
