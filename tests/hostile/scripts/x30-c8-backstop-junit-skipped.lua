-- the same, with --junit: the skipped cases are <skipped/> in the report.
-- class: 30.8
-- prepare: printf 'for i = 1, 3 do test("t" .. i, function() new_game{players = 2, seed = i}:score() end) end\n' > "$GAME/tests/many_test.lua"
-- command: test {game} --games 1 --junit {dir}/r.xml
-- expect-exit: 1
-- check: grep -q '<skipped' r.xml
-- limit: 25
function game.score(ctx, state) local s = ("x"):rep(1 << 23) local t = ("x"):rep(1 << 23) while true do local b = (s == t) end end
