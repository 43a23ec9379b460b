-- zone:draw of NaN cards: refused naming the line.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:10:
-- expect: draw
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local deck = state:add_zone("deck", nil, "hidden", {"token", "blank", "token"})
  deck:draw(state:add_zone("hand", 1), 0 / 0)
end
