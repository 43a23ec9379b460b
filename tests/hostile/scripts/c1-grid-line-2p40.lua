-- grid:line("row", 2^40) must not read row 0 (truncation).
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:11:
-- reject: row 0 read
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("board", nil, {})
  g:add(0, 0, "token")
  if #g:line("row", 2 ^ 40) > 0 then error("row 0 read") end
end
