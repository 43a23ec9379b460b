-- ctx.rng:int(math.mininteger, math.maxinteger): the span overflows; a correct draw or a refusal.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:6:
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state.data.r = ctx.rng:int(math.mininteger, math.maxinteger) end
