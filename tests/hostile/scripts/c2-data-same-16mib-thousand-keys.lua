-- The same 16 MiB string stored under 1000 state.data keys: each value is under the 32 MiB
-- per-value limit, but the state would hold 16 GB; refused by the host's state-size account.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:11:
-- expect: state.data
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local s = ("x"):rep(1 << 24)
  for i = 1, 1000 do state.data["k" .. i] = s end
end
