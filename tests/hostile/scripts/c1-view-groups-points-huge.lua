-- v:groups with points of math.maxinteger for each of many groups: the total overflows int64;
-- refused or saturated, never wrapped negative.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:12:
-- reject: wrapped
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("board", nil, {must_touch = false})
  for c = 0, 8, 2 do g:add(0, c, "token") end
  local total = g:view():groups("token", {math.maxinteger})
  if total < 0 then error("wrapped: " .. total) end
end
