-- state:grid(2^32 + 1, "mine"), read as seat 1's grid through truncation: refused.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  state:add_grid("mine", 1, {})
  state:grid(2 ^ 32 + 1, "mine"):count()
end
