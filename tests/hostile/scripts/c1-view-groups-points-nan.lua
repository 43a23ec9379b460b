-- v:groups with a points list of NaN: refused (points are integers), not a NaN score.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:11:
-- expect: groups
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("board", nil, {})
  g:add(0, 0, "token")
  g:view():groups("token", {0 / 0})
end
