-- Carcassonne Safari: the rules of the rulebook (rules/safari.fr.txt) on the host's tile map.
-- A turn: the drawn tile is placed (on a vehicle's space it captures the vehicle: 3 points and
-- the vehicle moves), then one action (a meeple on a trail, a bush or the baobab of that tile;
-- a watering hole started or extended; a vehicle moved; or nothing), then the end-of-turn
-- scoring of the baobabs surrounded and the trails and bushes the tile completed, where each
-- controller may boost the species count with one of their animal markers. The game ends when
-- the next player cannot draw a tile; unfinished trails and bushes and the markers left score.
--
-- The host does the geometry: the tile map (state:tile_map("savanna")) places tiles, lists
-- where one fits, joins trails and bushes into features and says which are complete, whose
-- meeples are on them and how many animals they hold. These rules keep the rest in state.data:
--   turn, step       the seat to play and where its turn is: "place", "relocate" (a captured
--                    vehicle), "action"
--   tile             the tile drawn for this turn; bag: the tiles left, drawn from the end;
--                    aside: tiles set aside because they fitted nowhere
--   placed, captured the cell of the tile placed this turn; the vehicle it captured (or 0)
--   completed        the features that tile completed (scored at the end of the turn)
--   queue            during the end-of-turn scoring, the {feature, seat} boosts still to ask
--   boosts           the markers chosen for this turn's scorings, {feature, seat, species}
--   vehicles         the two vehicles' cells
--   markers          per seat, the animal markers in hand (species ids); supply (face down,
--                    drawn from the end), spent (discarded by boosts, reshuffled when needed);
--                    fresh: per seat, markers won this turn by a completed baobab (only when
--                    baobab_markers_immediate is false)
--   meeples          per seat, meeples in the player's supply
--   baobabs          meeples lying on baobabs: {cell, seat}
--   holes            watering holes by vertex "r,c" (the top-left corner of cell r, c):
--                    {v = {r, c}, markers = {{q, species, seat, meeple}}, complete}
--   points           per seat, points scored during the game by category
--   tally            counts for the designer's report (see `stats`)
--   log              what the last turn's scoring awarded and why (for `play`)

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

local MAP = "savanna"
local CORNERS = { "NE", "SE", "SW", "NW" }
-- The cell a corner of cell (r, c) lies on, as the vertex's (top-left) coordinates, and which
-- quarter of that vertex's circle the cell is: 1 NW of the vertex, 2 NE, 3 SE, 4 SW.
local CORNER_VERTEX = { NE = { 0, 1, 4 }, SE = { 1, 1, 1 }, SW = { 1, 0, 2 }, NW = { 0, 0, 3 } }
local CATEGORIES = { "trails", "bushes", "holes", "vehicles", "final_trails", "final_bushes", "markers" }
game.categories = CATEGORIES

-- ---- data derived once per VM (pure functions of ctx.data) ---------------------------------

local derived_for, D
local function data(ctx)
  if derived_for == ctx.data then return D end
  local S = ctx.data.safari
  D = { species = {}, letter = {}, is_species = {}, tiles = {}, S = S }
  for i, sp in ipairs(S.species) do
    D.species[i] = sp.id
    D.letter[sp.id] = sp.letter
    D.is_species[sp.id] = true
  end
  for _, t in ipairs(ctx.data.tiles.tiles) do
    local info = { id = t.id, count = t.count or 0, variants = t.variants, segments = {},
                   baobab = t.properties ~= nil and t.properties.baobab == true }
    for i, seg in ipairs(t.segments or {}) do
      local animals = {}
      for key, n in pairs(seg.tally or {}) do
        if D.is_species[key] then
          for _ = 1, n do animals[#animals + 1] = key end
        end
      end
      info.segments[i] = { kind = seg.kind, animals = animals, birds = (seg.tally and seg.tally.bird) or 0 }
    end
    D.tiles[t.id] = info
  end
  derived_for = ctx.data
  return D
end

local function in_variant(entry, variant)
  if entry.variants == nil then return true end
  for _, v in ipairs(entry.variants) do
    if v == variant then return true end
  end
  return false
end

local function key_of(r, c) return r .. "," .. c end

-- "a zebra", "an elephant".
local function a(word) return (word:match("^[aeiou]") and "an " or "a ") .. word end

local function triangle(S, species)
  local t = S.diversity_points
  if species <= 0 then return 0 end
  return t[math.min(species, #t)]
end

-- Species present in a feature's tally (a list, in data order) and its birds.
local function species_of(d, tally)
  local out = {}
  for _, sp in ipairs(d.species) do
    if (tally[sp] or 0) > 0 then out[#out + 1] = sp end
  end
  return out, tally.bird or 0
end

local function animals_in(d, tally, with_birds)
  local n = 0
  for _, sp in ipairs(d.species) do n = n + (tally[sp] or 0) end
  if with_birds then n = n + (tally.bird or 0) end
  return n
end

-- ---- setup ----------------------------------------------------------------------------------

local function draw_markers(ctx, state, seat, n, fresh)
  local supply, spent = state.data.supply, state.data.spent
  local hand = state.data.markers[seat]
  local got = 0
  for _ = 1, n do
    if #supply == 0 and #spent > 0 then
      local pile = state:read("spent")
      ctx.rng:shuffle(pile)
      state.data.supply = pile
      state.data.spent = {}
      supply, spent = state.data.supply, state.data.spent
      state.data.tally.reshuffles = state.data.tally.reshuffles + 1
    end
    local k = #supply
    if k == 0 then break end
    hand[#hand + 1] = supply[k]
    if fresh then
      local f = state.data.fresh[seat]
      f[#f + 1] = supply[k]
    end
    supply[k] = nil
    got = got + 1
  end
  return got
end

-- Draws the next player's tile, setting aside any that fits nowhere; false when none is left.
local function draw_tile(state)
  local map = state:tile_map(MAP)
  local bag = state.data.bag
  while #bag > 0 do
    local t = bag[#bag]
    bag[#bag] = nil
    if map:can_place(t) then
      state.data.tile = t
      return true
    end
    local aside = state.data.aside
    aside[#aside + 1] = t
  end
  state.data.tile = nil
  return false
end

function game.setup(ctx, state)
  local d = data(ctx)
  local S, P = d.S, ctx.params
  local closing = { "bush" }
  if P.dead_end_closes_trail then closing[#closing + 1] = "dead_end" end
  local map = state:add_tile_map(MAP, { closing_ends = closing })
  for _, s in ipairs(ctx.data.tiles.start or {}) do
    if in_variant(s, P.tiles_variant) then map:place(s.tile, s.cell[1], s.cell[2], s.rotation or 0) end
  end
  local bag = {}
  for _, t in ipairs(ctx.data.tiles.tiles) do
    if in_variant(t, P.tiles_variant) then
      for _ = 1, t.count or 0 do bag[#bag + 1] = t.id end
    end
  end
  ctx.rng:shuffle(bag)
  local supply = {}
  for _, sp in ipairs(d.species) do
    for _ = 1, S.markers_per_species do supply[#supply + 1] = sp end
  end
  ctx.rng:shuffle(supply)
  local vehicles = {}
  for i, v in ipairs(ctx.data.tiles.vehicles or {}) do vehicles[i] = { v[1], v[2] } end
  local n = state.player_count
  local markers, meeples, fresh, points = {}, {}, {}, {}
  for seat = 1, n do
    markers[seat], fresh[seat], meeples[seat] = {}, {}, S.meeples
    points[seat] = { trails = 0, bushes = 0, holes = 0, vehicles = 0 }
  end
  state.data.bag, state.data.aside, state.data.supply, state.data.spent = bag, {}, supply, {}
  state.data.markers, state.data.fresh, state.data.meeples, state.data.points = markers, fresh, meeples, points
  state.data.vehicles, state.data.baobabs, state.data.holes = vehicles, {}, {}
  state.data.completed, state.data.queue, state.data.boosts, state.data.log = {}, {}, {}, {}
  state.data.turn, state.data.step, state.data.captured, state.data.turns = 1, "place", 0, 0
  local players = {}
  for seat = 1, n do
    players[seat] = { boosts = 0, captures = 0, holes_started = 0, holes_extended = 0, baobab_meeples = 0,
                      ["meeple:trail"] = 0, ["meeple:bush"] = 0, ["meeple:baobab"] = 0, vehicle_moves = 0,
                      ["scored:trail"] = 0, ["scored:bush"] = 0 }
  end
  state.data.tally = { trails = 0, bushes = 0, trail_points = 0, bush_points = 0, unoccupied = 0,
                       holes_completed = 0, captures = 0, vehicle_moves = 0, boosts = 0, reshuffles = 0,
                       baobabs_completed = 0, players = players }
  for seat = 1, n do draw_markers(ctx, state, seat, S.markers_at_setup, false) end
  if not draw_tile(state) then state:set_phase("over") end
end

-- ---- whose turn, what may be played ---------------------------------------------------------

function game.to_move(ctx, state)
  if state.phase == "over" then return {} end
  return { state.data.turn }
end

local function vehicle_at(vehicles, r, c)
  for i, v in ipairs(vehicles) do
    if v[1] == r and v[2] == c then return i end
  end
  return nil
end

-- Where a vehicle may go: an empty space next to a placed tile that holds no vehicle. With
-- vehicle_destination = "next_to_tile", one next to the tile placed this turn, or any when
-- that tile has no empty space left around it.
local function vehicle_cells(ctx, state, map, vehicles)
  local all, near = {}, {}
  local placed = state.data.placed
  for _, cell in ipairs(map:frontier()) do
    if vehicle_at(vehicles, cell[1], cell[2]) == nil then
      all[#all + 1] = cell
      if math.abs(cell[1] - placed[1]) + math.abs(cell[2] - placed[2]) == 1 then near[#near + 1] = cell end
    end
  end
  if ctx.params.vehicle_destination == "next_to_tile" and #near > 0 then return near end
  return all
end

local function distinct(list)
  local seen, out = {}, {}
  for _, x in ipairs(list) do
    if not seen[x] then
      seen[x] = true
      out[#out + 1] = x
    end
  end
  table.sort(out)
  return out
end

-- Markers a seat may spend now (not those won this turn when they must wait).
local function usable_markers(state, seat)
  local hand = state:read("markers")[seat]
  local fresh = state:read("fresh")[seat]
  if #fresh == 0 then return hand end
  local left = {}
  for _, sp in ipairs(fresh) do left[sp] = (left[sp] or 0) + 1 end
  local out = {}
  for _, sp in ipairs(hand) do
    if (left[sp] or 0) > 0 then left[sp] = left[sp] - 1 else out[#out + 1] = sp end
  end
  return out
end

-- The watering-hole moves: start one on a free savanna corner no marker touches yet, or extend
-- one with a species it does not have yet.
local NO_SPECIES = {}
local function hole_moves(state, seat, map, moves)
  local hand = distinct(state:read("markers")[seat])
  if #hand == 0 then return end
  -- Holes by their point as a number (this loop runs over every free corner of the map on
  -- every action a bot weighs, so no string key and no table per corner).
  local hole_at = {}
  for _, h in pairs(state:read("holes")) do hole_at[h.v[1] * 65536 + h.v[2]] = h end
  local has_meeple = state.data.meeples[seat] > 0
  for _, corner in ipairs(map:corners("savanna")) do
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
      local kind = touching and "extend" or "hole"
      for _, sp in ipairs(hand) do
        -- An extension brings a species the hole lacks; a start (diagonal to another hole's
        -- marker, say) may repeat one.
        if not (touching and present[sp]) then
          moves[#moves + 1] = { type = kind, cell = { r, c }, corner = name, species = sp }
        end
      end
    end
  end
end

local function action_moves(ctx, state, seat)
  local map = state:tile_map(MAP)
  local d = data(ctx)
  local moves = {}
  local placed = state.data.placed
  local pr, pc = placed[1], placed[2]
  if state.data.meeples[seat] > 0 then
    local segs = map:segments(pr, pc)
    for i, seg in ipairs(segs) do
      if next(map:occupants(seg)) == nil then moves[#moves + 1] = { type = "meeple", segment = i } end
    end
    local id = map:tile(pr, pc)
    if d.tiles[id].baobab then moves[#moves + 1] = { type = "baobab" } end
  end
  hole_moves(state, seat, map, moves)
  if state.data.captured == 0 then
    local vehicles = state:read("vehicles")
    for i = 1, #vehicles do
      for _, cell in ipairs(vehicle_cells(ctx, state, map, vehicles)) do
        moves[#moves + 1] = { type = "vehicle", vehicle = i, cell = cell }
      end
    end
  end
  moves[#moves + 1] = { type = "pass" }
  return moves
end

-- Whether placing `tile` at (r, c) would stop a started hole (its corner there not savanna).
local function blocking(state, map, tile, r, c, rotation)
  local holes = state:read("holes")
  for _, name in ipairs(CORNERS) do
    local cv = CORNER_VERTEX[name]
    local hole = holes[key_of(r + cv[1], c + cv[2])]
    if hole and not hole.complete and map:tile_corner(tile, rotation, name) ~= "savanna" then return true end
  end
  return false
end

function game.legal_moves(ctx, state, seat)
  if seat ~= state.data.turn or state.phase == "over" then return {} end
  local step = state.data.step
  local map = state:tile_map(MAP)
  if step == "place" then
    local moves = map:placements(state.data.tile, "place")
    if not ctx.params.tile_may_block_hole and next(state:read("holes")) ~= nil then
      local keep = {}
      for _, m in ipairs(moves) do
        if not blocking(state, map, state.data.tile, m.cell[1], m.cell[2], m.rotation) then keep[#keep + 1] = m end
      end
      moves = keep
    end
    return moves
  elseif step == "relocate" then
    local moves = {}
    local vehicles = state:read("vehicles")
    local v = state.data.captured
    for _, cell in ipairs(vehicle_cells(ctx, state, map, vehicles)) do
      moves[#moves + 1] = { type = "relocate", vehicle = v, cell = cell }
    end
    return moves
  end
  return action_moves(ctx, state, seat)
end

-- ---- moves ----------------------------------------------------------------------------------

-- What a scoring awarded and why: kept for the view and told to `plateau play` (ctx.log).
local function say(ctx, state, text)
  local log = state.data.log
  log[#log + 1] = text
  ctx.log(text)
end

game.moves = {}

function game.moves.place(ctx, state, seat, move)
  local map = state:tile_map(MAP)
  local tile = state.data.tile
  local r, c = move.cell[1], move.cell[2]
  if not ctx.params.tile_may_block_hole and blocking(state, map, tile, r, c, move.rotation) then
    return false, "this placement would stop a started watering hole (tile_may_block_hole is false)"
  end
  local completed = map:place(tile, r, c, move.rotation)
  state.data.log = {}
  state.data.placed = { r, c }
  state.data.completed = completed
  state.data.tile = nil
  local v = vehicle_at(state:read("vehicles"), r, c)
  if v then
    local S = data(ctx).S
    local p = state.data.points[seat]
    p.vehicles = p.vehicles + S.vehicle_capture_points
    state.data.captured = v
    state.data.step = "relocate"
    local t = state.data.tally
    t.captures = t.captures + 1
    t.players[seat].captures = t.players[seat].captures + 1
    say(ctx, state, string.format("P%d captures vehicle %d: +%d", seat, v, S.vehicle_capture_points))
  else
    state.data.step = "action"
  end
end

function game.moves.relocate(ctx, state, seat, move)
  state.data.vehicles[move.vehicle] = { move.cell[1], move.cell[2] }
  state.data.step = "action"
end

local finish_turn

function game.moves.meeple(ctx, state, seat, move)
  local map = state:tile_map(MAP)
  local placed = state.data.placed
  local seg = map:segment(placed[1], placed[2], move.segment)
  map:occupy(seg, seat, 1)
  state.data.meeples[seat] = state.data.meeples[seat] - 1
  local kind = map:feature(seg).kind
  local tp = state.data.tally.players[seat]
  tp["meeple:" .. kind] = tp["meeple:" .. kind] + 1
  return finish_turn(ctx, state)
end

function game.moves.baobab(ctx, state, seat, move)
  local S = data(ctx).S
  local placed = state.data.placed
  local b = state.data.baobabs
  b[#b + 1] = { cell = { placed[1], placed[2] }, seat = seat }
  state.data.meeples[seat] = state.data.meeples[seat] - 1
  local got = draw_markers(ctx, state, seat, S.baobab_markers_on_meeple, false)
  local tp = state.data.tally.players[seat]
  tp["meeple:baobab"] = tp["meeple:baobab"] + 1
  say(ctx, state, string.format("P%d lies a meeple on the baobab: %d marker(s)", seat, got))
  return finish_turn(ctx, state)
end

local function take_marker(state, seat, species)
  local hand = state.data.markers[seat]
  for i = #hand, 1, -1 do
    if hand[i] == species then
      table.remove(hand, i)
      return true
    end
  end
  return false
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

function game.moves.hole(ctx, state, seat, move)
  local ok, why = add_hole_marker(ctx, state, seat, move, true)
  if not ok then return false, why end
  return finish_turn(ctx, state)
end

function game.moves.extend(ctx, state, seat, move)
  local ok, why = add_hole_marker(ctx, state, seat, move, false)
  if not ok then return false, why end
  return finish_turn(ctx, state)
end

function game.moves.vehicle(ctx, state, seat, move)
  state.data.vehicles[move.vehicle] = { move.cell[1], move.cell[2] }
  local t = state.data.tally
  t.vehicle_moves = t.vehicle_moves + 1
  t.players[seat].vehicle_moves = t.players[seat].vehicle_moves + 1
  return finish_turn(ctx, state)
end

function game.moves.pass(ctx, state, seat, move)
  return finish_turn(ctx, state)
end

-- ---- the end-of-turn scoring --------------------------------------------------------------

local function controllers(ctx, f)
  if ctx.params.zone_scoring == "everyone" then
    local out = {}
    for seat, n in pairs(f.occupants) do
      if n > 0 then out[#out + 1] = seat end
    end
    table.sort(out)
    return out
  end
  return f.majority
end

-- Species a seat's usable markers would add to the feature.
local function boost_choices(ctx, state, seat, f)
  local d = data(ctx)
  local out = {}
  for _, sp in ipairs(distinct(usable_markers(state, seat))) do
    if (f.tally[sp] or 0) == 0 and d.is_species[sp] then out[#out + 1] = sp end
  end
  return out
end

local function ask_next_boost(ctx, state)
  local queue = state.data.queue
  local map = state:tile_map(MAP)
  while #queue > 0 do
    local q = queue[1]
    local f = map:feature(q.feature)
    local choices = boost_choices(ctx, state, q.seat, f)
    if #choices > 0 then
      local moves = { { type = "boost", feature = q.feature } }
      for _, sp in ipairs(choices) do moves[#moves + 1] = { type = "boost", feature = q.feature, species = sp } end
      state:ask(q.seat, moves)
      return true
    end
    table.remove(queue, 1)
  end
  return false
end

local function next_turn(ctx, state)
  state.data.turns = state.data.turns + 1
  state.data.turn = state.data.turn % state.player_count + 1
  state.data.step = "place"
  state.data.captured = 0
  state.data.completed = {}
  state.data.boosts = {}
  for seat = 1, state.player_count do
    if #state.data.fresh[seat] > 0 then state.data.fresh[seat] = {} end
  end
  if not draw_tile(state) then state:set_phase("over") end
end

-- Awards the completed features once every boost is chosen, then passes the turn.
local function award(ctx, state)
  local d = data(ctx)
  local S = d.S
  local map = state:tile_map(MAP)
  local boosts = state:read("boosts")
  local t = state.data.tally
  for _, fid in ipairs(state:read("completed")) do
    local f = map:feature(fid)
    local sp, birds = species_of(d, f.tally)
    local is_bush = f.kind == "bush"
    if is_bush then t.bushes = t.bushes + 1 else t.trails = t.trails + 1 end
    local who = controllers(ctx, f)
    if #who == 0 then t.unoccupied = t.unoccupied + 1 end
    for _, seat in ipairs(who) do
      local extra = 0
      for _, b in ipairs(boosts) do
        if b.feature == fid and b.seat == seat and b.species then extra = 1 end
      end
      local pts = triangle(S, #sp + extra) + (is_bush and birds * S.points_per_bird or 0)
      local p = state.data.points[seat]
      local tp = t.players[seat]
      if is_bush then
        p.bushes = p.bushes + pts
        t.bush_points = t.bush_points + pts
        tp["scored:bush"] = tp["scored:bush"] + 1
      else
        p.trails = p.trails + pts
        t.trail_points = t.trail_points + pts
        tp["scored:trail"] = tp["scored:trail"] + 1
      end
      say(ctx, state, string.format("P%d scores a completed %s: %d species%s%s = %d", seat, f.kind, #sp,
                               extra > 0 and " + 1 by a marker" or "",
                               (is_bush and birds > 0) and string.format(", %d bird(s)", birds) or "", pts))
    end
    local back = map:vacate(fid)
    for seat, n in pairs(back) do state.data.meeples[seat] = state.data.meeples[seat] + n end
  end
  next_turn(ctx, state)
end

-- Baobabs now surrounded, then the features the tile completed: ask each controller for a boost.
finish_turn = function(ctx, state)
  local S = data(ctx).S
  local map = state:tile_map(MAP)
  local baobabs = state:read("baobabs")
  local keep = {}
  for _, b in ipairs(baobabs) do
    if map:filled_around(b.cell[1], b.cell[2]) >= S.baobab_neighbours then
      state.data.meeples[b.seat] = state.data.meeples[b.seat] + 1
      local got = draw_markers(ctx, state, b.seat, S.baobab_markers_on_completion, not ctx.params.baobab_markers_immediate)
      state.data.tally.baobabs_completed = state.data.tally.baobabs_completed + 1
      say(ctx, state, string.format("P%d's baobab is surrounded: the meeple returns with %d marker(s)", b.seat, got))
    else
      keep[#keep + 1] = b
    end
  end
  if #keep ~= #baobabs then state.data.baobabs = keep end
  local queue = {}
  if S.boosts_per_scoring > 0 then
    for _, fid in ipairs(state:read("completed")) do
      local f = map:feature(fid)
      for _, seat in ipairs(controllers(ctx, f)) do queue[#queue + 1] = { feature = fid, seat = seat } end
    end
  end
  state.data.queue = queue
  if not ask_next_boost(ctx, state) then award(ctx, state) end
end

function game.moves.boost(ctx, state, seat, move)
  local queue = state.data.queue
  if move.species then
    take_marker(state, seat, move.species)
    local spent = state.data.spent
    spent[#spent + 1] = move.species
    local b = state.data.boosts
    b[#b + 1] = { feature = move.feature, seat = seat, species = move.species }
    local t = state.data.tally
    t.boosts = t.boosts + 1
    t.players[seat].boosts = t.players[seat].boosts + 1
  end
  table.remove(queue, 1)
  if not ask_next_boost(ctx, state) then award(ctx, state) end
end

-- ---- score, evaluate, stats ---------------------------------------------------------------

-- The final scoring of unfinished trails and bushes (per seat, by kind) and of markers, with
-- what each feature gave (`features`, for the score table). A complete feature that still holds
-- meeples (only in a map given to `plateau score`: in play they are scored and emptied at once)
-- scores as at the end of a turn, without boosts.
local function final_parts(ctx, state, map, explain)
  local d = data(ctx)
  local S = d.S
  local trails, bushes, markers = {}, {}, {}
  local features = explain and {} or nil
  local hand = state:read("markers")
  for seat = 1, state.player_count do
    trails[seat], bushes[seat] = 0, 0
    markers[seat] = #hand[seat] * S.final_points_per_marker
  end
  for _, fid in ipairs(map:features()) do
    local f = map:feature(fid)
    if next(f.occupants) ~= nil then
      local pts, why
      if f.complete then
        local sp, birds = species_of(d, f.tally)
        pts = triangle(S, #sp) + (f.kind == "bush" and birds * S.points_per_bird or 0)
        why = string.format("complete: %d species%s", #sp, f.kind == "bush" and string.format(", %d bird(s)", birds) or "")
      else
        local n = animals_in(d, f.tally, ctx.params.final_birds)
        pts = n * S.final_points_per_animal
        why = string.format("unfinished: %d animal(s)%s", n, ctx.params.final_birds and " (birds included)" or "")
      end
      local who = controllers(ctx, f)
      for _, seat in ipairs(who) do
        if f.kind == "bush" then bushes[seat] = bushes[seat] + pts else trails[seat] = trails[seat] + pts end
      end
      if features then
        local tiles = {}
        for _, cell in ipairs(f.tiles) do tiles[#tiles + 1] = string.format("[%d,%d]", cell[1], cell[2]) end
        features[#features + 1] = { feature = f.id, kind = f.kind, tiles = table.concat(tiles, " "), why = why,
                                    points = pts, players = who }
      end
    end
  end
  return trails, bushes, markers, features
end

function game.score(ctx, state)
  local map = state:tile_map(MAP)
  local over = state.phase == "over"
  local ft, fb, fm, features
  if over then ft, fb, fm, features = final_parts(ctx, state, map, true) end
  local points = state:read("points")
  local lines = {}
  local best, winners = -1, {}
  for seat = 1, state.player_count do
    local p = points[seat]
    local b = { trails = p.trails, bushes = p.bushes, holes = p.holes, vehicles = p.vehicles,
                final_trails = over and ft[seat] or 0, final_bushes = over and fb[seat] or 0,
                markers = over and fm[seat] or 0 }
    lines[seat] = { breakdown = b }
    local total = 0
    for _, v in pairs(b) do total = total + v end
    if total > best then best, winners = total, { seat } elseif total == best then winners[#winners + 1] = seat end
  end
  local extra = { tiles_left = #state.data.bag, set_aside = #state.data.aside }
  if over then
    extra.winners = winners
    extra.final_features = features
  end
  return lines, extra
end

-- Points so far plus what the table would give if the game ended now, against the best other.
function game.evaluate(ctx, state, seat)
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

function game.stats(ctx, state)
  local t = state:read("tally")
  local map = state:tile_map(MAP)
  local unfinished_trails, unfinished_bushes = 0, 0
  for _, fid in ipairs(map:features()) do
    local f = map:feature(fid)
    if not f.complete then
      if f.kind == "trail" then unfinished_trails = unfinished_trails + 1 else unfinished_bushes = unfinished_bushes + 1 end
    end
  end
  local holes_started = 0
  for _, h in pairs(state:read("holes")) do
    for _, m in ipairs(h.markers) do
      if m.meeple then holes_started = holes_started + 1 end
    end
  end
  local players = {}
  local points = state:read("points")
  for seat = 1, state.player_count do
    local p = {}
    for k, v in pairs(t.players[seat]) do p[k] = v end
    p["points:trails"], p["points:bushes"] = points[seat].trails, points[seat].bushes
    p["points:holes"], p["points:vehicles"] = points[seat].holes, points[seat].vehicles
    p.markers_left = #state:read("markers")[seat]
    players[seat] = p
  end
  local tags = {}
  if t.reshuffles > 0 then tags[#tags + 1] = "markers reshuffled" end
  if #state:read("aside") > 0 then tags[#tags + 1] = "tile set aside" end
  return {
    rounds = (state.data.turns + state.player_count - 1) // state.player_count,
    ending = "tiles exhausted",
    tags = tags,
    counts = {
      ["trails completed"] = t.trails, ["bushes completed"] = t.bushes,
      ["points per completed trail"] = t.trails > 0 and t.trail_points / t.trails or 0,
      ["points per completed bush"] = t.bushes > 0 and t.bush_points / t.bushes or 0,
      ["completed without meeples"] = t.unoccupied,
      ["trails left unfinished"] = unfinished_trails, ["bushes left unfinished"] = unfinished_bushes,
      ["markers used to boost"] = t.boosts, ["vehicle captures"] = t.captures, ["vehicle moves"] = t.vehicle_moves,
      ["watering holes started"] = holes_started, ["watering holes completed"] = t.holes_completed,
      ["baobabs completed"] = t.baobabs_completed, ["tiles set aside"] = #state:read("aside"),
    },
    players = players,
  }
end

-- ---- what a person reads ------------------------------------------------------------------

local EDGE = { savanna = ".", trail = "=", bush = "#" }

function game.describe(ctx, state, seat, move)
  local d = data(ctx)
  local map = state:tile_map(MAP)
  if move.type == "place" then
    local v = vehicle_at(state:read("vehicles"), move.cell[1], move.cell[2])
    return string.format("place %s at [%d, %d] turned %d°%s", state.data.tile, move.cell[1], move.cell[2], move.rotation,
                         v and string.format(" (captures vehicle %d: +%d)", v, d.S.vehicle_capture_points) or "")
  elseif move.type == "meeple" then
    local placed = state.data.placed
    local f = map:feature(map:segment(placed[1], placed[2], move.segment))
    local sp, birds = species_of(d, f.tally)
    return string.format("meeple on the %s (segment %d): %d species%s so far, %s", f.kind, move.segment, #sp,
                         f.kind == "bush" and string.format(", %d bird(s)", birds) or "",
                         f.complete and "completed: scores this turn" or (f.open_edges .. " open edge(s)"))
  elseif move.type == "baobab" then
    return string.format("meeple on the baobab: %d markers now, %d more when surrounded", d.S.baobab_markers_on_meeple,
                         d.S.baobab_markers_on_completion)
  elseif move.type == "hole" then
    return string.format("start a watering hole at the %s corner of [%d, %d] with %s and a meeple: +%d", move.corner,
                         move.cell[1], move.cell[2], a(move.species), d.S.hole_start_points)
  elseif move.type == "extend" then
    return string.format("extend the watering hole at the %s corner of [%d, %d] with %s", move.corner, move.cell[1],
                         move.cell[2], a(move.species))
  elseif move.type == "vehicle" or move.type == "relocate" then
    return string.format("%s vehicle %d to [%d, %d]", move.type == "vehicle" and "move" or "set down", move.vehicle,
                         move.cell[1], move.cell[2])
  elseif move.type == "boost" then
    if move.species then return "boost with " .. a(move.species) .. " marker (+1 species, for your score only)" end
    return "no boost"
  elseif move.type == "pass" then
    return "no action"
  end
end

-- The map, three text lines per tile row: each tile is `.=.` / `=MT=` / `.#.` style, edges
-- shown as . savanna, = trail, # bush; the middle shows the tile's animals (first letters),
-- a meeple as the seat number, * a baobab; [V1] a vehicle, ( ) an empty space a tile may take.
function game.view(ctx, state, seat)
  local d = data(ctx)
  local map = state:tile_map(MAP)
  local min_r, max_r, min_c, max_c = map:bounds()
  min_r, max_r, min_c, max_c = min_r - 1, max_r + 1, min_c - 1, max_c + 1
  local vehicles = state:read("vehicles")
  local baobabs = state:read("baobabs")
  local lines = {}
  local header = "      "
  for c = min_c, max_c do header = header .. string.format("%-7s", string.format("  %d", c)) end
  lines[#lines + 1] = header
  local tiles_data = {}
  for _, e in ipairs(ctx.data.tiles.tiles) do tiles_data[e.id] = e end
  for r = min_r, max_r do
    local top, mid, bot = string.format("%4d  ", r), "      ", "      "
    for c = min_c, max_c do
      local id, rot = map:tile(r, c)
      if id then
        local t = tiles_data[id]
        local e = {}
        for s = 0, 3 do e[(s + rot // 90) % 4] = EDGE[t.edges[s + 1]] or "?" end
        local inner = ""
        for _, seg in ipairs(d.tiles[id].segments) do
          for _, animal in ipairs(seg.animals) do inner = inner .. (d.letter[animal] or "?") end
        end
        for _, b in ipairs(baobabs) do
          if b.cell[1] == r and b.cell[2] == c then inner = inner .. "b" .. b.seat end
        end
        if d.tiles[id].baobab then inner = "*" .. inner end
        inner = string.sub(inner, 1, 5)
        top = top .. " ." .. e[0] .. e[0] .. e[0] .. ". "
        mid = mid .. e[3] .. string.format("%-5s", inner) .. e[1]
        bot = bot .. " ." .. e[2] .. e[2] .. e[2] .. ". "
      else
        local v = vehicle_at(vehicles, r, c)
        if v then
          top, mid, bot = top .. "       ", mid .. string.format(" [V%d]  ", v), bot .. "       "
        elseif map:on_frontier(r, c) then
          top, mid, bot = top .. "       ", mid .. "  ( )  ", bot .. "       "
        else
          top, mid, bot = top .. "       ", mid .. "       ", bot .. "       "
        end
      end
    end
    lines[#lines + 1] = top
    lines[#lines + 1] = mid
    lines[#lines + 1] = bot
  end
  -- Features with meeples, and the watering holes.
  local occupied = {}
  for _, fid in ipairs(map:features()) do
    local f = map:feature(fid)
    if next(f.occupants) ~= nil then
      local who = {}
      for s, n in pairs(f.occupants) do who[#who + 1] = string.format("P%d x%d", s, n) end
      table.sort(who)
      local sp, birds = species_of(d, f.tally)
      local where = {}
      for _, cell in ipairs(f.tiles) do where[#where + 1] = string.format("[%d,%d]", cell[1], cell[2]) end
      occupied[#occupied + 1] = string.format("  %s %d on %s: %s; species %s%s; %s", f.kind, f.id, table.concat(where, " "),
                                              table.concat(who, ", "), #sp > 0 and table.concat(sp, ",") or "none",
                                              f.kind == "bush" and string.format(", %d bird(s)", birds) or "",
                                              f.complete and "complete" or (f.open_edges + f.open_ends) .. " open end(s)")
    end
  end
  lines[#lines + 1] = "legend: . savanna  = trail  # bush  * baobab  bN meeple of PN on the baobab  letters: animals (M E G L Z)  [Vn] vehicle  ( ) open space"
  if #occupied > 0 then
    lines[#lines + 1] = "meeples on trails and bushes:"
    for _, l in ipairs(occupied) do lines[#lines + 1] = l end
  end
  local holes = {}
  for key, h in pairs(state:read("holes")) do
    local parts = {}
    for _, m in ipairs(h.markers) do
      parts[#parts + 1] = string.format("%s by P%d%s", m.species, m.seat, m.meeple and " (meeple)" or "")
    end
    holes[#holes + 1] = string.format("  hole at corner %s: %s%s", key, table.concat(parts, ", "), h.complete and " - complete" or "")
  end
  table.sort(holes)
  if #holes > 0 then
    lines[#lines + 1] = "watering holes:"
    for _, l in ipairs(holes) do lines[#lines + 1] = l end
  end
  local hand = state:read("markers")
  for s = 1, state.player_count do
    lines[#lines + 1] = string.format("P%d: %d meeple(s), markers: %s", s, state.data.meeples[s],
                                      #hand[s] > 0 and table.concat(hand[s], ", ") or "none")
  end
  if state.phase ~= "over" then
    lines[#lines + 1] = string.format("P%d to play, %s; tile: %s; %d tile(s) in the bag", state.data.turn, state.data.step,
                                      state.data.tile or "-", #state.data.bag)
  end
  local log = state:read("log")
  if #log > 0 then
    lines[#lines + 1] = "last turn:"
    for _, l in ipairs(log) do lines[#lines + 1] = "  " .. l end
  end
  return table.concat(lines, "\n")
end

return game
