-- Snapshots of many grids of 1000 x 1000 kept in a module table: the scripts' memory cap
-- stops it, naming the hook; the host's copies never exceed its own account.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: setup
local kept = {}
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  for i = 1, 200 do
    local g = state:add_grid("g" .. i, nil, {rows = 1000, cols = 1000, must_touch = false})
    g:add(0, 0, "token") g:add(999, 999, "blank")
    kept[i] = g:snapshot()
  end
end
