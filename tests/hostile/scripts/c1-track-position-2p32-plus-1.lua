-- add_track starting on space 2^32 + 1 of 12 (space 1 through truncation): refused.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: position
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_track("t", {length = 12, position = 2 ^ 32 + 1}) end
