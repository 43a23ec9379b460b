-- watch: a reload with a new version whose migrate loops over an uncharged find: migrate is
-- bounded by its budget, the reload rejected naming the hook, the table untouched.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:6} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- expect-exit: 0
-- expect: "ok":false
-- expect: migrate
-- limit: 12
game.version = 2
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(254) .. "b"
function game.migrate(ctx, state, old) for i = 1, 1000000 do S:find(P) end end
