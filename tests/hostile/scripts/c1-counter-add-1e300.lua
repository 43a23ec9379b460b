-- counter:add(1e300): beyond int64; refused as out of range (not "non-integer").
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
-- expect: add
-- reject: non-integer
-- reject: no integer representation
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_counter("c", nil, {max = 10}):add(1e300) end
