-- A grid with cards at opposite corners of the coordinate range: its snapshot has 67 million
-- cells; it fails as a clear error (memory cap or a size limit), never bad_alloc.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("wide", nil, {must_touch = false})
  g:add(-4096, -4096, "token") g:add(4096, 4096, "blank")
  state.data.cells = #g:snapshot().cells
end
