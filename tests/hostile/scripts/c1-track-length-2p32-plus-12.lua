-- add_track of length 2^32 + 12, read as 12 through truncation: refused by 1..100000.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: length
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_track("t", {length = 2 ^ 32 + 12}) end
