-- string.format("%s%s%s%s") of four 4 MiB strings, again and again.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local S = ("f"):rep(1 << 22)
function game.moves.bump(ctx, state, seat, move)
  for r = 1, 1000000 do local s = ("%s%s%s%s"):format(S, S, S, S) end
end
