-- ctx.dice:roll("4294967298d6"), read as 2d6 through truncation: refused.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: 4294967298d6
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} ctx.dice:roll("4294967298d6") end
