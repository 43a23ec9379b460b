-- A grid view's get at index 2^32 + 1 (read as 1 through truncation): refused by the
-- documented index range.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:12:
-- expect: 4294967297
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("board", nil, {})
  g:add(0, 0, "token")
  g:view():get(2 ^ 32 + 1)
end
