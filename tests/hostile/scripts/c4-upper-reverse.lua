-- upper, lower and reverse of 16 MiB, again and again.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local S = ("u"):rep(1 << 23)
function game.moves.bump(ctx, state, seat, move)
  for r = 1, 1000000 do local a = S:upper() local b = S:reverse() end
end
