-- A __gc metamethod: refused by the sandbox, naming the line.
-- class: 0
-- command: validate {game}
-- expect-exit: 2
-- expect: games/hostile/rules.lua:7:
-- expect: sandbox
setmetatable({}, {__gc = function() while true do end end})
