-- gmatch over 16 MiB with a long literal pattern that never matches: one resume of the
-- iterator scans everything; charged by its cost.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(200) .. "c"
function game.moves.bump(ctx, state, seat, move)
  for i = 1, 100000 do for _ in S:gmatch(P) do end end
end
