-- next(t, k) on a table of 300,000 keys (each call scans the table), in a loop.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local T
function game.moves.bump(ctx, state, seat, move)
  if not T then T = {} for i = 1, 300000 do T["k" .. i] = i end end
  for r = 1, 1000000 do next(T, "k150000") end
end
