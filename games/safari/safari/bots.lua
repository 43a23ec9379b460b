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

-- The bots' values of a turn's action step at once (the `evaluate_moves` hook), relative to
-- passing: every action is followed by the same end of turn (baobabs, completed features and
-- their boost questions, the next tile), and most actions change only the actor's own part of
-- the value. A vehicle moved changes nothing evaluate or the end of turn reads (0); a watering
-- hole started or extended adds its points, spends a marker and, for a start, a meeple from
-- the hand. Left to a trial (nil): a meeple on the tile or its baobab (they change the
-- features or draw markers), a hole's fourth marker (it pays its other owners too), a hole
-- when the actor controls a feature completed this turn (the marker it spends may be the one
-- its boost question offers), and every move when the end of turn may draw (a baobab
-- surrounded: its draw may reshuffle) or the game ends (no tile left that fits).
-- The captured vehicle's new space (the "relocate" step) changes nothing evaluate reads either:
-- every such move is worth the first. `plateau test` holds each value to a trial of its move.
local NONE = {}
function M.evaluate_moves(ctx, state, seat, moves)
  if state.phase == "over" then return NONE end
  local step = state.data.step
  if step == "relocate" then
    local values = {}
    for i = 1, #moves do values[i] = 0 end
    return values, 1
  end
  if step ~= "action" then return NONE end
  local base = #moves
  if moves[base].type ~= "pass" then return NONE end
  local map = state:tile_map(MAP)
  local d = D.data(ctx)
  local S = d.S
  for _, b in ipairs(state:read("baobabs")) do
    if map:filled_around(b.cell[1], b.cell[2]) >= S.baobab_neighbours then return NONE end
  end
  -- The next tile: the turn's end draws from the end of the bag the first that fits.
  local bag = state:read("bag")
  local fits = false
  for k = #bag, 1, -1 do
    if map:can_place(bag[k]) then fits = true; break end
  end
  if not fits then return NONE end
  local boosted = false   -- the actor may be asked to boost a feature completed this turn
  for _, fid in ipairs(state:read("completed")) do
    for _, s in ipairs(scoring.controllers(ctx, map:feature_summary(fid))) do
      if s == seat then boosted = true end
    end
  end
  local marker = S.final_points_per_marker
  local holes = state:read("holes")
  local values = {}
  for i = 1, base - 1 do
    local m = moves[i]
    local kind = m.type
    if kind == "vehicle" then
      values[i] = 0
    elseif (kind == "hole" or kind == "extend") and not boosted then
      local cv = D.CORNER_VERTEX[m.corner]
      local hole = holes[D.key_of(m.cell[1] + cv[1], m.cell[2] + cv[2])]
      local n = (hole and #hole.markers or 0) + 1
      if n < 4 then
        if kind == "hole" then
          values[i] = S.hole_start_points - marker - 0.5
        else
          values[i] = S.hole_extend_points[math.min(math.max(n - 1, 1), 3)] - marker
        end
      end
    end
  end
  values[base] = 0
  return values, base
end

return M
