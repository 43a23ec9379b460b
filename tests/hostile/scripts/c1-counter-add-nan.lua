-- counter:add(NaN): refused naming the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: add
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_counter("c", nil, {max = 10}):add(0 / 0) end
