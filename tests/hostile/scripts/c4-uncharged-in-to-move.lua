-- to_move compares 16 MiB strings in a loop: charged, a budget failure within seconds.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- expect: to_move
-- limit: 8
local A = ("x"):rep(1 << 24)
local B = A:sub(1, -2) .. "y"
function game.to_move(ctx, state)
  for i = 1, 10000000 do local _ = A < B end
  return {}
end
