-- watch: the reloaded rules fill memory at load: rejected (memory cap), --timeout fires.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:4} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- expect-exit: 0
-- expect: "ok":false
-- expect: memory cap
-- limit: 10
local t = {}
for i = 1, 1e9 do t[i] = ("m"):rep(100) .. i end
