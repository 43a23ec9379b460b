-- A circular track of 3 spaces moved 2^40 steps: one loop per lap would run for minutes; the
-- move is computed (or refused) at once.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:10:
-- limit: 5
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  state:add_track("moon", {length = 3, circular = true}):move(2 ^ 40)
end
