-- watch: a migrate that loops forever in Lua: rejected by the budget, naming migrate.
-- class: 6
-- command: watch {game} --players 2 --seed 1 --bots random --moves 2 --format json --timeout {seconds:6} --settle-ms 50
-- step: wait "event":"start"
-- step: write
-- expect-exit: 0
-- expect: "ok":false
-- expect: migrate
-- limit: 12
game.version = 2
function game.migrate(ctx, state, old) while true do end end
