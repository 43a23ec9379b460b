-- A circular track moved math.mininteger steps (negating it overflows): computed or refused.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:9:
-- limit: 5
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  state:add_track("moon", {length = 7, circular = true}):move(math.mininteger)
end
