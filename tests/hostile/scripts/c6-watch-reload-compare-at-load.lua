-- watch: the reloaded rules compare 16 MiB strings forever at load: rejected, --timeout fires.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:6} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- expect-exit: 0
-- expect: "ok":false
-- limit: 12
local A = ("x"):rep(1 << 24)
local B = A:sub(1, -2) .. "y"
while true do local _ = A < B end
