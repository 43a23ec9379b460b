-- state:ask(2^32 + 1, ...), read as seat 1 through truncation: refused naming the seat.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: ask
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:ask(2 ^ 32 + 1, {{type = "bump", by = 1}}) end
