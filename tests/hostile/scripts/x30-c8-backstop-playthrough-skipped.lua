-- a golden playthrough after score ran past the backstop: skipped, not run into the same wait.
-- class: 30.8
-- prepare: mkdir -p "$GAME/tests/playthroughs"; printf '# plateau playthrough, format 1\nplayers: 2\nseed: 1\nstate x\n' > "$GAME/tests/playthroughs/seed-1-2p.txt"
-- command: test {game} --games 1
-- expect-exit: 1
-- expect: SKIP
-- limit: 25
function game.score(ctx, state) local s = ("x"):rep(1 << 23) local t = ("x"):rep(1 << 23) while true do local b = (s == t) end end
