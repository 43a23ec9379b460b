-- plateau test's conformance games all fail the same way: stopped at the first, with its seed.
-- class: 5
-- command: test {game} --conformance-only --games 200
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: seed
-- limit: 10
function game.moves.bump(ctx, state, seat, move) error("always") end
