-- Helpers of the api-examples test game, loaded by rules.lua with require("lib.helpers"):
-- shows that require() finds modules inside the game folder and runs each one once per VM.

local helpers = {}

-- The seat after `seat` among `n` players (1-based, wraps around).
function helpers.next_seat(seat, n)
  return seat % n + 1
end

-- Points of every card id, read from the frozen ctx.data (pure data: safe to cache).
local points
function helpers.card_points(ctx)
  if not points then
    points = {}
    for _, card in ipairs(ctx.data.cards.cards) do points[card.id] = card.points end
  end
  return points
end

return helpers
