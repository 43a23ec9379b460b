-- 5000 bounded grids of 1000 x 1000, each with cards in two opposite corners: the host's grid
-- account refuses them (or they cost nothing); never bad_alloc.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:12:
-- limit: 15
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  for i = 1, 5000 do
    local g = state:add_grid("g" .. i, nil, {rows = 1000, cols = 1000, must_touch = false})
    g:add(0, 0, "token") g:add(999, 999, "blank")
  end
end
