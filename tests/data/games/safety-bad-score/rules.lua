-- Test game for lua_rules_safety_test: the score hook returns a string where an integer belongs.
local game = {api_version = 1, moves = {}}

function game.to_move(ctx, state) return {} end
function game.legal_moves(ctx, state, seat) return {} end

function game.score(ctx, state)
  return {{total = 1, breakdown = {points = 'lots'}}}
end

return game
