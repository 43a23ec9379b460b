-- add_grid with rows = 2^32, which an int truncation reads as 0 (unbounded): refused by the
-- documented range (at most 1000), naming the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: rows
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_grid("board", nil, {rows = 2 ^ 32, cols = 3}) end
