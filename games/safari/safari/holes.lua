-- Safari: watering holes. A turn's action may start one (a marker and a meeple on a free
-- corner of any placed tile: 3 points) or extend one (a marker of a species it lacks on
-- a corner next to one of its markers around the same point: 4, 5, 6 points); the fourth
-- marker completes it (3 points to each meeple owner, the meeples back).
--
-- A hole lives at a grid point, the vertex "r,c" (the top-left corner of cell r, c); each of
-- the four tiles around it lends one corner, a quarter of the hole (data.CORNER_VERTEX).

local D = require("safari.data")
local St = require("safari.state")
local scoring = require("safari.scoring")

local CORNER_VERTEX = D.CORNER_VERTEX
local data, key_of, a, distinct, free_corner_kinds = D.data, D.key_of, D.a, D.distinct, D.free_corner_kinds
local say, take_marker = St.say, St.take_marker
local finish_turn = scoring.finish_turn

local M = { moves = {} }

-- The corners a watering-hole move may use, in the legal list's order: `visit(r, c, name,
-- kind, touching, present)` for each, `present` the species the hole there has (NO_SPECIES
-- when none). Returns the distinct species in hand (nil when none: no visit).
local NO_SPECIES = {}
local function scan_corners(ctx, state, seat, map, visit)
  local hand = distinct(state.data.markers[seat])
  if #hand == 0 then return nil end
  -- Holes by their point as a number (this loop runs over every free corner of the map on
  -- every action a bot weighs, so no string key and no table per corner).
  local hole_at = {}
  for _, h in pairs(state:read("holes")) do hole_at[h.v[1] * 65536 + h.v[2]] = h end
  local has_meeple = state.data.meeples[seat] > 0
  for _, corner in ipairs(map:corners(free_corner_kinds(ctx))) do
    local r, c, name = corner[1], corner[2], corner[3]
    local cv = CORNER_VERTEX[name]
    local q = cv[3]
    local hole = hole_at[(r + cv[1]) * 65536 + c + cv[2]]
    local taken, touching, present = false, false, NO_SPECIES
    if hole then
      present = {}
      for _, m in ipairs(hole.markers) do
        if m.q == q then taken = true end
        if m.q % 4 + 1 == q or q % 4 + 1 == m.q then touching = true end
        present[m.species] = true
      end
    end
    if not taken and (touching or has_meeple) then
      visit(r, c, name, touching and "extend" or "hole", touching, present, hand)
    end
  end
  return hand
end

-- The watering-hole moves: start one on a free corner no marker touches yet, or extend one
-- with a species it does not have yet.
function M.hole_moves(ctx, state, seat, map, moves)
  scan_corners(ctx, state, seat, map, function(r, c, name, kind, touching, present, hand)
    local cell = { r, c }   -- one table for the corner's moves (nothing writes to a move's cell)
    for _, sp in ipairs(hand) do
      -- An extension brings a species the hole lacks; a start (diagonal to another hole's
      -- marker, say) may repeat one.
      if not (touching and present[sp]) then
        moves[#moves + 1] = { type = kind, cell = cell, corner = name, species = sp }
      end
    end
  end)
end

-- How many moves hole_moves lists, and a function building its k-th alone (a random
-- player's draw: a hundred free corners times the species in hand are most of an action's
-- list otherwise). The corners are kept in scratch arrays until the next count.
local K = { r = {}, c = {}, name = {}, kind = {}, touching = {}, present = {}, n = {} }
function M.hole_move_count(ctx, state, seat, map)
  local corners, total = 0, 0
  local hand = scan_corners(ctx, state, seat, map, function(r, c, name, kind, touching, present, species)
    local n = #species
    if touching then
      for _, sp in ipairs(species) do
        if present[sp] then n = n - 1 end
      end
    end
    if n > 0 then
      corners = corners + 1
      K.r[corners], K.c[corners], K.name[corners], K.kind[corners] = r, c, name, kind
      K.touching[corners], K.present[corners], K.n[corners] = touching, present, n
      total = total + n
    end
  end)
  return total, function(k)
    for t = 1, corners do
      local n = K.n[t]
      if k <= n then
        for _, sp in ipairs(hand) do
          if not (K.touching[t] and K.present[t][sp]) then
            k = k - 1
            if k == 0 then
              return { type = K.kind[t], cell = { K.r[t], K.c[t] }, corner = K.name[t], species = sp }
            end
          end
        end
      end
      k = k - n
    end
    error("hole_move_count: no hole move " .. k)
  end
end

local function add_hole_marker(ctx, state, seat, move, with_meeple)
  local S = data(ctx).S
  local cv = CORNER_VERTEX[move.corner]
  local vr, vc, q = move.cell[1] + cv[1], move.cell[2] + cv[2], cv[3]
  local key = key_of(vr, vc)
  if not take_marker(state, seat, move.species) then return false, "you have no " .. move.species .. " marker" end
  local holes = state.data.holes
  if holes[key] == nil then holes[key] = { v = { vr, vc }, markers = {}, complete = false } end
  local hole = holes[key]
  local markers = hole.markers
  markers[#markers + 1] = { q = q, species = move.species, seat = seat, meeple = with_meeple }
  local n = #markers
  local p = state.data.points[seat]
  local tp = state.data.tally.players[seat]
  if with_meeple then
    state.data.meeples[seat] = state.data.meeples[seat] - 1
    p.holes = p.holes + S.hole_start_points
    tp.holes_started = tp.holes_started + 1
    say(ctx, state, string.format("P%d starts a watering hole with %s: +%d", seat, a(move.species), S.hole_start_points))
  else
    local pts = S.hole_extend_points[math.min(math.max(n - 1, 1), 3)]
    p.holes = p.holes + pts
    tp.holes_extended = tp.holes_extended + 1
    say(ctx, state, string.format("P%d adds %s to a watering hole (marker %d): +%d", seat, a(move.species), n, pts))
  end
  if n == 4 then
    hole.complete = true
    local owners = {}
    for _, m in ipairs(state:read("holes")[key].markers) do
      if m.meeple then owners[m.seat] = (owners[m.seat] or 0) + 1 end
    end
    for owner, k in pairs(owners) do
      local po = state.data.points[owner]
      po.holes = po.holes + S.hole_complete_points
      state.data.meeples[owner] = state.data.meeples[owner] + k
      say(ctx, state, string.format("the watering hole is complete: P%d +%d, %d meeple(s) back", owner, S.hole_complete_points, k))
    end
    state.data.tally.holes_completed = state.data.tally.holes_completed + 1
  end
  return true
end

function M.moves.hole(ctx, state, seat, move)
  local ok, why = add_hole_marker(ctx, state, seat, move, true)
  if not ok then return false, why end
  return finish_turn(ctx, state)
end

function M.moves.extend(ctx, state, seat, move)
  local ok, why = add_hole_marker(ctx, state, seat, move, false)
  if not ok then return false, why end
  return finish_turn(ctx, state)
end

return M
