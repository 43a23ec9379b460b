-- The long find loop inside pcall, retried after each error: the budget kill is sticky and
-- comes within seconds.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(254) .. "b"
function game.moves.bump(ctx, state, seat, move)
  for i = 1, 100000 do pcall(function() S:find(P) error("again") end) end
end
