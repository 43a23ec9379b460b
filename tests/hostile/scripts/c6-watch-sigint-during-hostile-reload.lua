-- watch: SIGINT (Ctrl-C) while a migrate loops: the table is saved to a recovery file first.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:20} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- step: sleep 1
-- step: signal INT
-- expect-exit: 0|1|2
-- expect: recover
-- expect-file: *recover*
-- limit: 10
game.version = 2
local A = ("x"):rep(1 << 24)
local B = A:sub(1, -2) .. "y"
function game.migrate(ctx, state, old) while true do local _ = A < B end end
