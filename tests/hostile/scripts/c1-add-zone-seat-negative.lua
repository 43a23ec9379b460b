-- add_zone for seat -1: refused naming the seat and the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:6:
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_zone("hand", -1) end
