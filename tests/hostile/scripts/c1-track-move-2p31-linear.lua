-- A linear track moved 2^31 spaces (an int overflow): it stops at its last space, or refuses.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:10:
-- reject: wrong space
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local t = state:add_track("t", {length = 12, position = 5})
  local p = t:move(2 ^ 31)
  if p ~= 12 then error("wrong space " .. p) end
end
