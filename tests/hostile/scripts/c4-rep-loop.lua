-- string.rep to 16 MiB (the largest allowed) again and again: each a 16 MiB write; charged.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
function game.moves.bump(ctx, state, seat, move)
  for r = 1, 1000000 do local s = ("z"):rep(1 << 24) end
end
