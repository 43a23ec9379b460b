-- Safari: what the greedy and heuristic bots weigh (the `evaluate` hook): the points so far,
-- plus what the table would give if the game ended now (unfinished trails and bushes, markers
-- in hand), plus half a point per meeple in hand, against the best other player.

local D = require("safari.data")
local scoring = require("safari.scoring")

local MAP = D.MAP
local feature_parts, marker_parts = scoring.feature_parts, scoring.marker_parts

local M = {}

-- The features' part of the value is worked out again only when the map changed
-- (map:version()): a bot's candidates in a turn's action step (a watering hole, a vehicle, no
-- action) leave the map as it was, and most of them are weighed one after another.
local kept_version, kept_params, kept_data, kept_ft, kept_fb

function M.evaluate(ctx, state, seat)
  local map = state:tile_map(MAP)
  local version, d = map:version(), D.data(ctx)
  local ft, fb
  if version == kept_version and ctx.params == kept_params and d == kept_data then
    ft, fb = kept_ft, kept_fb
  else
    ft, fb = feature_parts(ctx, state, map)
    kept_version, kept_params, kept_data, kept_ft, kept_fb = version, ctx.params, d, ft, fb
  end
  local fm = marker_parts(ctx, state)
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
