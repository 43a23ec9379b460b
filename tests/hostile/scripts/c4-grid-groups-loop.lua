-- grid:groups over a grid of 8000 cards, again and again.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
function game.moves.bump(ctx, state, seat, move)
  local g = state:add_grid("big" .. state.move_count, nil, {must_touch = false})
  for r = 0, 79 do for c = 0, 99 do g:add(r, c, "token") end end
  for i = 1, 1000000 do g:groups("token") end
end
