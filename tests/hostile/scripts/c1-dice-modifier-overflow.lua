-- ctx.dice:roll("d6+9223372036854775807"): the total overflows; refused naming the notation.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: d6+9223372036854775807
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} ctx.dice:roll("d6+9223372036854775807") end
