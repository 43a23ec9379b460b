-- The phase is set to a 16 MiB name at every move: within the per-value limit, but printed and
-- saved; bounded output and a clean end.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- max-output: 4000000
local BIG = ("p"):rep(1 << 24)
function game.moves.bump(ctx, state, seat, move) state.data.count = state.data.count + move.by state:set_phase(BIG) end
