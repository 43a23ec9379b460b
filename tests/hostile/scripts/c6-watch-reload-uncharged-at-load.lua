-- watch: the reloaded rules loop over an uncharged find at load; the reload is bounded by its
-- budget and rejected naming the file, and --timeout still ends watch on time.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:6} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- expect-exit: 0
-- expect: "ok":false
-- expect: games/hostile/rules.lua
-- limit: 12
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(254) .. "b"
for i = 1, 1000000 do S:find(P) end
