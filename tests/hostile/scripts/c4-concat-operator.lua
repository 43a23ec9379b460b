-- The .. operator joining 16 MiB, again and again (one VM instruction each).
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local S = ("c"):rep((1 << 23) - 1)
function game.moves.bump(ctx, state, seat, move)
  for r = 1, 1000000 do local s = S .. S end
end
