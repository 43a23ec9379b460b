-- Test game for lua_rules_safety_test: the rules script returns a number, not the game table.
return 42
