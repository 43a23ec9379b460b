-- Test game for lua_rules_safety_test: the game table carries a field the host does not know.
return {
  api_version = 1,
  moves = {},
  to_move = function(ctx, state) return {} end,
  legal_moves = function(ctx, state, seat) return {} end,
  score = function(ctx, state) return {} end,
  colour = 'red',
}
