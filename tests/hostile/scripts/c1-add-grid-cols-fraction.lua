-- add_grid with cols = 2.5: refused naming the line, not truncated.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: cols
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_grid("board", nil, {rows = 3, cols = 2.5}) end
