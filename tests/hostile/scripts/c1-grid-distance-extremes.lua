-- grid:distance between rows -2^62 and 2^62 (an overflow in the subtraction): a refusal of the
-- coordinates or a correct answer, never a wrapped negative distance.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:10:
-- reject: wrapped
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local d = state:add_grid("board", nil, {}):distance(-(2 ^ 62), 0, 2 ^ 62, 0)
  if d < 0 then error("wrapped: " .. d) end
end
