-- grid:move to row 2^31: refused by the -4096..4096 range.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:11:
-- expect: outside -4096..4096
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("board", nil, {})
  g:add(0, 0, "token")
  g:move(0, 0, 2 ^ 31, 0)
end
