-- rules.lua requires itself: the cycle is named, not a stack overflow.
-- class: 0
-- command: validate {game}
-- expect-exit: 2
-- expect: requires itself
local again = require("rules")
