-- watch: the reloaded rules overflow the C stack at load: rejected naming the file and line.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:4} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- expect-exit: 0
-- expect: "ok":false
-- expect: games/hostile/rules.lua:
-- limit: 10
local function f(s) return (s:gsub(".", f)) end
f("x")
