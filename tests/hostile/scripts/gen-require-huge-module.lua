-- require of a 2 MiB module (over the documented 1 MiB): refused naming the module.
-- class: 0
-- prepare: perl -e 'print "return {\n", "  1,\n" x 500000, "}\n"' > "$GAME/big.lua"
-- command: validate {game}
-- expect-exit: 2
-- expect: big
local big = require("big")
