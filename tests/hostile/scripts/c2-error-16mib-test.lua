-- A scenario test whose rules raise a 16 MiB error in 20 tests: each FAIL line is bounded.
-- class: 2
-- prepare: for i in $(seq 20); do printf 'test("t%d", function() new_game{players = 2}:play(1, {type = "bump", by = 1}) end)\n' $i; done > "$GAME/tests/case.lua"
-- command: test {game} --scenarios-only --scenario {game}/tests/case.lua
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- max-output: 2000000
function game.moves.bump(ctx, state, seat, move) error(("x"):rep(1 << 24)) end
