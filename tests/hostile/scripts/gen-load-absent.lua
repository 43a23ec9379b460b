-- load() is absent: "undeclared global" at the line.
-- class: 0
-- command: validate {game}
-- expect-exit: 2
-- expect: games/hostile/rules.lua:7:
-- expect: undeclared global 'load'
local f = load("return 1")
