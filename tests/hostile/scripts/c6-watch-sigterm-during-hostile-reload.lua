-- watch: SIGTERM while a hostile reload loops at load: the table is saved to a recovery file
-- (named in the output) before watch exits, with no signal death.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:20} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- step: sleep 1
-- step: signal TERM
-- expect-exit: 0|1|2
-- expect: recover
-- expect-file: *recover*
-- limit: 10
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(254) .. "b"
for i = 1, 1000000 do S:find(P) end
