-- watch: the reloaded rules take pairs() of a 300,000-key table forever at load: rejected in
-- time, --timeout fires.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:6} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- expect-exit: 0
-- expect: "ok":false
-- limit: 12
local T = {}
for i = 1, 300000 do T["k" .. i] = i end
while true do for k in pairs(T) do break end end
