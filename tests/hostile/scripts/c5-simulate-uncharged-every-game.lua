-- Every game's first move loops over an uncharged find: stopped at the first game, quickly.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- expect: seed 1
-- limit: 15
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(254) .. "b"
function game.moves.bump(ctx, state, seat, move) for i = 1, 1000000 do S:find(P) end end
