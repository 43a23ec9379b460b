-- A move refused with a 16 MiB reason: reported once, cut to a bounded length.
-- class: 2
-- command: simulate {game} -n 50 --players 2 --bots random --threads 1
-- expect-exit: 1|2
-- max-output: 1000000
function game.moves.bump(ctx, state, seat, move) return false, ("r"):rep(1 << 24) end
