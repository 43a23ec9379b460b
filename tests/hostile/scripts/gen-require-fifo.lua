-- require of a module that is a FIFO: refused naming it, never blocks.
-- class: 0
-- prepare: mkfifo "$GAME/pipe.lua"
-- command: validate {game}
-- expect-exit: 2
-- expect: pipe
-- expect: not a regular file
-- limit: 5
local pipe = require("pipe")
