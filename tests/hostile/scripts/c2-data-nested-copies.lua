-- One 8 MiB string in a table listed 3 times per key, under 200 keys: each value is 24 MiB
-- (under the per-value limit), 4.8 GB in all; refused by the state-size account.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:10:
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local s = ("y"):rep(1 << 23)
  for i = 1, 200 do state.data["k" .. i] = {s, s, s} end
end
