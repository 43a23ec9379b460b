-- Every game's first move fills the memory cap: stopped at the first game.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 1
-- expect: memory cap
-- expect: seed 1
-- limit: 10
function game.moves.bump(ctx, state, seat, move) local t = {} for i = 1, 1e9 do t[i] = {} end end
