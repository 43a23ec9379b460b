-- Five scenario tests each run into the rules' budget: each fails on its own, and the VM reset
-- keeps the later ones as fast as the first.
-- class: 5
-- prepare: for i in 1 2 3 4 5; do printf 'test("t%d", function() new_game{players = 2}:play(1, {type = "bump", by = 1}) end)\n' $i; done > "$GAME/tests/case.lua"
-- command: test {game} --scenarios-only --scenario {game}/tests/case.lua
-- expect-exit: 1
-- expect: 0 passed, 5 failed
-- limit: 15
function game.moves.bump(ctx, state, seat, move) while true do end end
