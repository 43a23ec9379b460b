-- Safari: what the greedy and heuristic bots weigh (the `evaluate` hook): the points so far,
-- plus what the table would give if the game ended now (unfinished trails and bushes, markers
-- in hand), plus half a point per meeple in hand, against the best other player.

local D = require("safari.data")
local scoring = require("safari.scoring")

local MAP = D.MAP
local feature_parts, marker_parts = scoring.feature_parts, scoring.marker_parts
local St = require("safari.state")
local vehicle_at = St.vehicle_at
local NONE = {}

local M = {}

-- The features' part of the value is worked out again only when the map changed
-- (map:version()): a bot's candidates in a turn's action step (a watering hole, a vehicle, no
-- action) leave the map as it was, and most of them are weighed one after another.
local kept_version, kept_params, kept_data, kept_ft, kept_fb

-- The value for `seat` from each seat's points so far, features' and markers' parts and
-- meeples in hand: its own against the best other seat's.
local function seat_value(s, points, meeples, ft, fb, fm)
  local p = points[s]
  return p.trails + p.bushes + p.holes + p.vehicles + ft[s] + fb[s] + fm[s] + 0.5 * meeples[s]
end

local function value_of(seat, n, points, meeples, ft, fb, fm)
  local mine, best = seat_value(seat, points, meeples, ft, fb, fm), -math.huge
  for s = 1, n do
    if s ~= seat then best = math.max(best, seat_value(s, points, meeples, ft, fb, fm)) end
  end
  return mine - best
end

-- A feature that holds no piece after a placement changes no seat's value (none it took in
-- held one either), so the map describes only those that do.
local OCCUPIED = { occupied = true }

local function integral(x) return x == math.floor(x) end

-- The placement step's values without a trial per placement: the placement changes nothing
-- evaluate reads but the features it joins, extends or completes, which the map tells
-- (map:placement_changes) without placing. Each value is the base table's, less the entries
-- of the occupied features the placement takes in, plus the entry of each feature it makes
-- that holds a piece. Left to a trial: a placement that captures a vehicle (points and the
-- relocation step), and any whose feature points are not whole numbers (the difference would
-- not be exactly the sum evaluate makes in its own order).
local function placement_values(ctx, state, seat, moves)
  local map = state:tile_map(MAP)
  local ft, fb, entries = feature_parts(ctx, state, map)
  for _, e in pairs(entries) do
    if not integral(e.points) then return NONE end
  end
  local n, tile = state.player_count, state.data.tile
  local points, meeples, fm = state:read("points"), state:read("meeples"), marker_parts(ctx, state)
  local vehicles = state:read("vehicles")
  local values, t2, b2 = {}, {}, {}
  for i, m in ipairs(moves) do
    local r, c = m.cell[1], m.cell[2]
    if m.type == "place" and not vehicle_at(vehicles, r, c) then
      local changes = map:placement_changes(tile, r, c, m.rotation, OCCUPIED)
      local exact = changes ~= nil
      for s = 1, n do t2[s], b2[s] = ft[s], fb[s] end
      for _, ch in ipairs(changes or NONE) do
        for _, old in ipairs(ch.joined) do
          local e = entries[old]
          if e then
            local into = e.bush and b2 or t2
            for _, s in ipairs(e.who) do into[s] = into[s] - e.points end
          end
        end
        local held = false
        for _, k in pairs(ch.occupants) do held = held or k > 0 end
        if held then
          local e = scoring.feature_entry(ctx, ch)
          exact = exact and integral(e.points)
          local into = e.bush and b2 or t2
          for _, s in ipairs(e.who) do into[s] = into[s] + e.points end
        end
      end
      if exact then values[i] = value_of(seat, n, points, meeples, t2, b2, fm) end
    end
  end
  return values
end
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
  return value_of(seat, state.player_count, state:read("points"), state:read("meeples"), ft, fb, marker_parts(ctx, state))
end

-- Whether the end of this turn asks a boost question after passing, and the species whose
-- marker, spent by the actor's watering hole, would leave no question to ask. The end of turn
-- asks the first controller of a completed feature with a usable marker of a species the
-- feature lacks; evaluate reads neither the question nor who is asked, only whether the
-- features are awarded (and the next tile drawn) now or after the answers. A hole spends one
-- of the actor's markers, which can only take the actor's own choices away: the question is
-- asked after it as after passing unless every choice left was the actor's, of that one
-- species, and the actor has no other usable marker of it.
local function boost_question(ctx, state, map, seat)
  if D.data(ctx).S.boosts_per_scoring <= 0 then return false, NONE end
  local asked, only = false, nil   -- only: the single species of every choice, all the actor's
  for _, fid in ipairs(state:read("completed")) do
    local f = map:feature_summary(fid)
    for _, s in ipairs(scoring.controllers(ctx, f)) do
      for _, sp in ipairs(scoring.boost_choices(ctx, state, s, f)) do
        if s ~= seat or (asked and only ~= sp) then return true, NONE end
        asked, only = true, sp
      end
    end
  end
  if not asked then return false, NONE end
  local usable = 0
  for _, sp in ipairs(St.usable_markers(state, seat)) do
    if sp == only then usable = usable + 1 end
  end
  if usable > 1 then return true, NONE end
  return true, { [only] = true }
end

-- The bots' values of a turn's action step at once (the `evaluate_moves` hook), relative to
-- passing: every action is followed by the same end of turn (baobabs, completed features and
-- their boost questions, the next tile), and most actions change only the actor's own part of
-- the value. A vehicle moved changes nothing evaluate or the end of turn reads (0); a watering
-- hole started or extended adds its points, spends a marker and, for a start, a meeple from
-- the hand; a meeple on the tile's free feature in a turn that completed none gives the actor
-- that feature's estimate. Left to a trial (nil): a meeple when the tile completed a feature
-- (it may stand on it), one on the baobab (it draws markers), a hole's fourth marker (it pays
-- its other owners too), and every move when the end of turn may draw (a baobab surrounded:
-- its draw may reshuffle) or the game ends (no tile left that fits). A hole whose marker is the last choice of the turn's boost
-- question has the features awarded at once instead of after the answer (boost_question).
-- The captured vehicle's new space (the "relocate" step) changes nothing evaluate reads either:
-- every such move is worth the first. `plateau test` holds each value to a trial of its move.
function M.evaluate_moves(ctx, state, seat, moves)
  if state.phase == "over" then return NONE end
  local step = state.data.step
  if step == "place" then return placement_values(ctx, state, seat, moves) end
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
  local bag = state.data.bag   -- a handle: only the last tiles are read
  local fits = false
  for k = #bag, 1, -1 do
    if map:can_place(bag[k]) then fits = true; break end
  end
  if not fits then return NONE end
  local asked, spoils = boost_question(ctx, state, map, seat)
  -- A hole whose marker leaves no boost question to ask (spoils) has the turn's completed
  -- features awarded at once instead of after the answer: each controller's estimate of the
  -- feature becomes the same points scored (award gives no boost then), and every piece on it
  -- goes back to its owner's hand. So it adds what the meeples back are worth to the value.
  local shift = 0
  if asked and next(spoils) ~= nil then
    local ft, fb = scoring.feature_parts(ctx, state, map)
    local points, meeples, fm = state:read("points"), state:read("meeples"), marker_parts(ctx, state)
    local back = {}
    for s = 1, state.player_count do back[s] = meeples[s] end
    for _, fid in ipairs(state:read("completed")) do
      for s, k in pairs(map:feature_summary(fid).occupants) do back[s] = back[s] + k end
    end
    local n = state.player_count
    shift = value_of(seat, n, points, back, ft, fb, fm) - value_of(seat, n, points, meeples, ft, fb, fm)
  end
  local marker = S.final_points_per_marker
  -- Markers already in each hole, by its point as a number (no string key per move).
  local in_hole = {}
  for _, h in pairs(state:read("holes")) do in_hole[h.v[1] * 65536 + h.v[2]] = #h.markers end
  -- A meeple on the tile's free trail or bush, in a turn that completed nothing: the end of
  -- turn is then the same as after passing, and the feature (nobody's yet) becomes the actor's
  -- alone: its estimate goes to the actor, less the meeple's half point.
  local placed = #state:read("completed") == 0 and state.data.placed
  local values = {}
  for i = 1, base - 1 do
    local m = moves[i]
    local kind = m.type
    if kind == "vehicle" then
      values[i] = 0
    elseif kind == "meeple" then
      if placed then
        local pts = scoring.feature_entry(ctx, map:feature_summary(map:segment(placed[1], placed[2], m.segment))).points
        if integral(pts) then values[i] = pts - 0.5 end
      end
    elseif kind == "hole" or kind == "extend" then
      local cv = D.CORNER_VERTEX[m.corner]
      local cell = m.cell
      local n = (in_hole[(cell[1] + cv[1]) * 65536 + cell[2] + cv[2]] or 0) + 1
      if n < 4 then
        local v
        if kind == "hole" then
          v = S.hole_start_points - marker - 0.5
        else
          v = S.hole_extend_points[math.min(math.max(n - 1, 1), 3)] - marker
        end
        if asked and spoils[m.species] then v = v + shift end
        values[i] = v
      end
    end
  end
  values[base] = 0
  return values, base
end

return M
