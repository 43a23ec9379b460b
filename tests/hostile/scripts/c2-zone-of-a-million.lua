-- A zone made from a list of 2 million cards, then listed 50 times: the memory cap or a zone
-- limit stops it cleanly.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- limit: 15
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local cards = {}
  for i = 1, 2000000 do cards[i] = "token" end
  local z = state:add_zone("pile", nil, "public", cards)
  local lists = {}
  for i = 1, 50 do lists[i] = z:cards() end
end
