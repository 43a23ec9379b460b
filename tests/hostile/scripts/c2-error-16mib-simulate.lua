-- Every game's move raises a 16 MiB error: the run stops (or lists the failures) without
-- copying 16 MiB into every failure report.
-- class: 2
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- max-output: 1000000
function game.moves.bump(ctx, state, seat, move) error(("x"):rep(1 << 24)) end
