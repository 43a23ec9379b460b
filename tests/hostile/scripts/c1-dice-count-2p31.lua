-- ctx.dice:roll("2147483648d6"): refused by the documented 1 to 100 dice.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: 2147483648d6
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} ctx.dice:roll("2147483648d6") end
