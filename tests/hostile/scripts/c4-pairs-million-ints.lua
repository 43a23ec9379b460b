-- pairs() over a table of a million integer keys, taken again and again.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local T
function game.moves.bump(ctx, state, seat, move)
  if not T then T = {} for i = 1, 1000000 do T[i * 3] = i end end
  for r = 1, 100000 do for k in pairs(T) do break end end
end
