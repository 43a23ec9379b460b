-- Test game for lua_rules_safety_test: a syntax error on line 4.
local game = {api_version = 1}

function game.score(ctx, state) return {} end end

return game
