-- "<" between two 16 MiB strings equal but for the last byte (strcoll over 16 MiB each time),
-- in a loop: charged by its cost.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local A = ("x"):rep(1 << 24)
local B = A:sub(1, -2) .. "y"
function game.moves.bump(ctx, state, seat, move)
  local n = 0
  for i = 1, 10000000 do if A < B then n = n + 1 end end
end
