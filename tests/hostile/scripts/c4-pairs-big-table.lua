-- pairs() over a table of 300,000 keys, again and again (each call sorts every key in one C
-- call before the first one is visited): charged by its cost.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local T
function game.moves.bump(ctx, state, seat, move)
  if not T then T = {} for i = 1, 300000 do T["k" .. i] = i end end
  for r = 1, 100000 do for k in pairs(T) do break end end
end
