-- An error object nested 100,000 deep: reported with the hook and the line, no host overflow.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: moves.bump
local deep = {}
for i = 1, 100000 do deep = {deep} end
function game.moves.bump(ctx, state, seat, move) error(deep) end
