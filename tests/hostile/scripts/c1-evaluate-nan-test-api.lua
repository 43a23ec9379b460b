-- g:evaluate() in a scenario test on rules whose evaluate returns NaN: the test fails naming the
-- rules' line (the scenario is written by prepare).
-- class: 1
-- prepare: printf 'test("evaluate NaN", function() new_game{players = 2, seed = 1}:evaluate(1) end)\n' > "$GAME/tests/case.lua"
-- command: test {game} --scenarios-only --scenario {game}/tests/case.lua
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
-- expect: evaluate
function game.evaluate(ctx, state, seat) return 0 / 0 end
