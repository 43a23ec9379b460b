-- An error object that is a table holding a 16 MiB string: reported as a bounded message.
-- class: 2
-- command: simulate {game} -n 50 --players 2 --bots random --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- max-output: 1000000
function game.moves.bump(ctx, state, seat, move) error({reason = ("x"):rep(1 << 24)}) end
