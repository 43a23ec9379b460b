-- Test game for tests/scripting/totals_test.cc: two seats take turns taking a token, four
-- takes in all; a seat scores one point per token. Its `totals` hook is wrong on purpose:
-- seat 2 gets one point more than the score gives it once it holds a token, and once seat 1
-- holds two tokens the hook returns text where seat 1's total belongs.
local game = { api_version = 1, moves = {} }

function game.setup(ctx, state)
  state.data.taken = { 0, 0 }
end

function game.to_move(ctx, state)
  local t = state:read("taken")
  if t[1] + t[2] >= 4 then return {} end
  return { (t[1] + t[2]) % 2 + 1 }
end

function game.legal_moves(ctx, state, seat)
  return { { type = "take" } }
end

function game.moves.take(ctx, state, seat, move)
  local t = state:read("taken")
  t[seat] = t[seat] + 1
  state.data.taken = t
end

function game.score(ctx, state)
  local t = state:read("taken")
  return { { total = t[1], breakdown = { taken = t[1] } }, { total = t[2], breakdown = { taken = t[2] } } }
end

function game.totals(ctx, state)
  local t = state:read("taken")
  if t[1] >= 2 then return { "lots", t[2] } end
  return { t[1], t[2] > 0 and t[2] + 1 or 0 }
end

return game
