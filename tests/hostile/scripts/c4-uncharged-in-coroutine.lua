-- The long find loop inside a coroutine resumed again and again.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(254) .. "b"
function game.moves.bump(ctx, state, seat, move)
  local co = coroutine.wrap(function() while true do S:find(P) coroutine.yield() end end)
  for i = 1, 5000 do co() end
end
