-- zone:shuffle of 100,000 cards, again and again (each one C call, and a logged chance event):
-- charged by its cost; the log does not grow without bound.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- limit: 8
function game.moves.bump(ctx, state, seat, move)
  local cards = {}
  for i = 1, 100000 do cards[i] = "token" end
  local z = state:add_zone("pile" .. state.move_count, nil, "hidden", cards)
  for r = 1, 1000000 do z:shuffle() end
end
