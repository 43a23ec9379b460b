-- The view hook returns 16 MiB of text: play shows it cut to a bounded length.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- max-output: 4000000
local BIG = ("v"):rep(1 << 24)
function game.view(ctx, state, seat) return BIG end
