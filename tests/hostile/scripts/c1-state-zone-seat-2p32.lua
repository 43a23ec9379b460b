-- state:zone("hand", 2^32 + 1), which an int truncation reads as seat 1: refused naming the seat.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  state:add_zone("hand", 1, "owner", {"token"})
  state:zone("hand", 2 ^ 32 + 1):count()
end
