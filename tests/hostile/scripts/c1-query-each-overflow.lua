-- A compiled "each" query with per = 2^62: the sum over cells overflows int64; refused or
-- exact, never wrapped.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:12:
-- reject: wrapped
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local g = state:add_grid("board", nil, {})
  for c = 0, 4 do g:add(0, c, "token") end
  local n = g:view():run(ctx.query{{"each", "token", "token", "orthogonal", "any", 0, 2 ^ 62}})
  if n < 0 then error("wrapped: " .. n) end
end
