-- zone:count("blank") over 1,000,000 cards, again and again.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
function game.moves.bump(ctx, state, seat, move)
  local cards = {}
  for i = 1, 1000000 do cards[i] = "token" end
  local z = state:add_zone("pile" .. state.move_count, nil, "hidden", cards)
  for r = 1, 10000000 do z:count("blank") end
end
