-- state.data.x = math.huge: refused where it enters the state (the documented message).
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: cannot store in state.data
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state.data.x = math.huge end
