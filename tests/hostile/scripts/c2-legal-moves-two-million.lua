-- legal_moves lists the same frozen move 2 million times: a move-list limit refuses it (or
-- the host copes), within seconds and without bad_alloc.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:
-- limit: 15
local list
function game.legal_moves(ctx, state, seat)
  if not list then
    local m = ctx.move{type = "bump", by = 1}
    list = {}
    for i = 1, 2000000 do list[i] = m end
  end
  return list
end
