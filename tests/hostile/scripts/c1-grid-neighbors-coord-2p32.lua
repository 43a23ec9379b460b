-- grid:neighbors of row 2^32 + 1 must not list row 0's neighbours (truncation).
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:11:
-- reject: neighbours of row 1
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("board", nil, {})
  g:add(0, 0, "token")
  if #g:neighbors(2 ^ 32 + 1, 0) > 0 then error("neighbours of row 1") end
end
