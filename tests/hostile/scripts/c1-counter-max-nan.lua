-- add_counter with max = NaN (every comparison false): refused naming the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: max
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_counter("c", nil, {value = 0, max = 0 / 0}) end
