-- setup adds 200,000 counters and tracks: a component limit refuses it, or it plays, cleanly.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:
-- limit: 15
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  for i = 1, 100000 do state:add_counter("c" .. i, nil, {max = 10}) state:add_track("t" .. i, {length = 100000}) end
end
