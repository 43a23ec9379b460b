-- Test game for lua_rules_safety_test: a query hook (to_move) tries to write the state.
local game = {api_version = 1, moves = {}}

function game.setup(ctx, state) state.data.count = 0 end
function game.to_move(ctx, state)
  state.data.count = 1
  return {1}
end
function game.legal_moves(ctx, state, seat) return {} end
function game.score(ctx, state) return {} end

return game
