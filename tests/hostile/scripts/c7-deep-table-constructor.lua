-- A module nests 100,000 table constructors: a syntax error naming the module and line.
-- class: 7
-- prepare: perl -e 'print "return ", "{" x 100000, "}" x 100000, "\n"' > "$GAME/deep.lua"
-- command: validate {game}
-- expect-exit: 2
-- expect: games/hostile/deep.lua:1:
local deep = require("deep")
