-- require of a module linked to /dev/zero (endless input): refused naming it, never reads on.
-- class: 0
-- prepare: ln -s /dev/zero "$GAME/zero.lua"
-- command: validate {game}
-- expect-exit: 2
-- expect: zero
-- limit: 5
local zero = require("zero")
