-- plateau test on rules whose score runs past the wall-clock backstop on every call: the first
-- failure is reported, the cases needing score after it are skipped at once, saying why.
-- class: 30.8
-- prepare: printf 'for i = 1, 6 do test("t" .. i, function() new_game{players = 2, seed = i}:score() end) end\n' > "$GAME/tests/many_test.lua"
-- command: test {game} --games 1
-- expect-exit: 1
-- expect: SKIP
-- expect: skipped (a hook they needed had run past the wall-clock backstop)
-- limit: 25
function game.score(ctx, state) local s = ("x"):rep(1 << 23) local t = ("x"):rep(1 << 23) while true do local b = (s == t) end end
