-- A plain find of a 250-byte needle in a 16 MiB haystack of near matches, in a loop: O(n*m)
-- work in one C call that the budget counts as one instruction; charged by its cost, it ends as
-- a budget failure within seconds.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- expect: moves.bump
-- limit: 8
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(249) .. "b"
function game.moves.bump(ctx, state, seat, move)
  for i = 1, 100000 do S:find(P, 1, true) end
end
