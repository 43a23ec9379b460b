-- grid:get at row 2^32 must not read the card at row 0 (a neighbour's card through truncation):
-- it answers "empty" or refuses the coordinate.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:12:
-- reject: read the card at row 0
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("board", nil, {})
  g:add(0, 0, "token")
  if g:get(2 ^ 32, 0) then error("read the card at row 0") end
end
