-- Test game for lua_rules_safety_test: the rules script tries to smuggle a finalizer in at load.
local keep = setmetatable({}, {__gc = function() while true do end end})
return {api_version = 1, score = function() return {} end}
