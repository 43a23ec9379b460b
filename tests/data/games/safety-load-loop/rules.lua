-- Test game for lua_rules_safety_test: the rules script never finishes loading.
local n = 0
while true do n = n + 1 end
