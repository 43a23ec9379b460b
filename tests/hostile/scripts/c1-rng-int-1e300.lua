-- ctx.rng:int(1, 1e300): out of range, refused naming the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: int
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} ctx.rng:int(1, 1e300) end
