-- g:try_play() on a move whose own error quotes a sandbox message: its kind is "script error".
-- class: 7
-- prepare: printf 'test("kind", function() local ok, msg, kind = new_game{players = 2}:try_play(1, {type = "bump", by = 1}) expect_eq(kind, "script error") end)\n' > "$GAME/tests/case.lua"
-- command: test {game} --scenarios-only --scenario {game}/tests/case.lua
-- expect-exit: 0
-- expect: 1 passed, 0 failed
function game.moves.bump(ctx, state, seat, move) error("sandbox: this is only a quote") end
