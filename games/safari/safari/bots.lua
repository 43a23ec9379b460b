-- Safari: what the greedy and heuristic bots weigh (the `evaluate` hook): the points so far,
-- plus what the table would give if the game ended now (unfinished trails and bushes, markers
-- in hand), plus half a point per meeple in hand, against the best other player.

local D = require("safari.data")
local scoring = require("safari.scoring")

local MAP = D.MAP
local final_parts = scoring.final_parts

local M = {}

function M.evaluate(ctx, state, seat)
  local map = state:tile_map(MAP)
  local ft, fb, fm = final_parts(ctx, state, map)
  local points = state:read("points")
  local meeples = state:read("meeples")
  local function value(s)
    local p = points[s]
    return p.trails + p.bushes + p.holes + p.vehicles + ft[s] + fb[s] + fm[s] + 0.5 * meeples[s]
  end
  local mine, best = value(seat), -math.huge
  for s = 1, state.player_count do
    if s ~= seat then best = math.max(best, value(s)) end
  end
  return mine - best
end

return M
