-- A counter of int64's full range at math.maxinteger, plus math.maxinteger: it stops at its
-- max (or the call is refused); the value never wraps negative.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:11:
-- reject: wrapped
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local c = state:add_counter("c", nil, {min = math.mininteger, max = math.maxinteger, value = math.maxinteger})
  c:add(math.maxinteger)
  if c:get() < 0 then error("wrapped: " .. c:get()) end
end
