-- A move raises a 16 MiB error message: reported once, cut to a bounded length.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- max-output: 1000000
function game.moves.bump(ctx, state, seat, move) error(("x"):rep(1 << 24)) end
