-- grid:add at row 2^32, which an int truncation reads as row 0: refused by the documented
-- -4096..4096 range.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: outside -4096..4096
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_grid("board", nil, {}):add(2 ^ 32, 0, "token") end
