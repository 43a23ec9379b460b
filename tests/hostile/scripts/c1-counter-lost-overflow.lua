-- A capped counter losing math.maxinteger to its cap twice: the running total of lost amounts
-- overflows int64; refused or saturated, never wrapped.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:11:
-- reject: wrapped
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local c = state:add_counter("c", nil, {value = 0, max = 10})
  c:add(math.maxinteger) c:add(math.maxinteger)
  local _, _, lost = c:limits()
  if lost < 0 then error("wrapped: " .. lost) end
end
