-- legal_moves lists moves carrying a 16 MiB field; 100 of them are played and logged (1.6 GB
-- of log): refused by the host's account of moves and state size, never bad_alloc.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random --set limit=100 --save {dir}/out.json
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- limit: 20
local BIG = ("m"):rep(1 << 24)
function game.legal_moves(ctx, state, seat) return {{type = "bump", by = 1, note = BIG}} end
