-- Safari: the end of a turn and the scores. At the end of each turn the baobabs now surrounded
-- give their meeple back with 2 markers, then each trail and bush the tile completed is scored
-- for its controllers (species diversity, birds in a bush), each of them first asked whether to
-- boost it with one marker; then the next player draws. At the end of the game unfinished
-- trails and bushes score 1 per animal and markers left 1 each. Also the score table and the
-- designer's statistics.

local D = require("safari.data")
local St = require("safari.state")

local MAP, CATEGORIES = D.MAP, D.CATEGORIES
local data, triangle, species_of, animals_in, distinct = D.data, D.triangle, D.species_of, D.animals_in, D.distinct
local say, draw_markers, usable_markers, take_marker, draw_tile =
  St.say, St.draw_markers, St.usable_markers, St.take_marker, St.draw_tile

local M = { moves = {}, categories = CATEGORIES }

-- The seats that score a feature: its majority, or everyone on it (zone_scoring).
function M.controllers(ctx, f)
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

-- Species a seat's usable markers would add to the feature (also what the bots' values read).
local function boost_choices(ctx, state, seat, f)
  local d = data(ctx)
  local out = {}
  for _, sp in ipairs(distinct(usable_markers(state, seat))) do
    if (f.tally[sp] or 0) == 0 and d.is_species[sp] then out[#out + 1] = sp end
  end
  return out
end

M.boost_choices = boost_choices

local function ask_next_boost(ctx, state)
  local queue = state.data.queue
  local map = state:tile_map(MAP)
  while #queue > 0 do
    local q = queue[1]
    local f = map:feature_summary(q.feature)
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
    local f = map:feature_summary(fid)
    local sp, birds = species_of(d, f.tally)
    local is_bush = f.kind == "bush"
    if is_bush then t.bushes = t.bushes + 1 else t.trails = t.trails + 1 end
    local who = M.controllers(ctx, f)
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
    if next(back) ~= nil and state.data.standing ~= nil then
      local keep = {}
      for _, s in ipairs(state:read("standing")) do
        if map:feature_of(map:segment(s.cell[1], s.cell[2], s.segment)) ~= fid then keep[#keep + 1] = s end
      end
      state.data.standing = keep
    end
  end
  next_turn(ctx, state)
end

-- Baobabs now surrounded, then the features the tile completed: ask each controller for a boost.
function M.finish_turn(ctx, state)
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
      local f = map:feature_summary(fid)
      for _, seat in ipairs(M.controllers(ctx, f)) do queue[#queue + 1] = { feature = fid, seat = seat } end
    end
  end
  state.data.queue = queue
  if not ask_next_boost(ctx, state) then award(ctx, state) end
end

function M.moves.boost(ctx, state, seat, move)
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

-- ---- score, stats ------------------------------------------------------------------------

-- The final scoring of unfinished trails and bushes (per seat, by kind) and of markers, with
-- what each feature gave (`features`, for the score table). A complete feature that still holds
-- meeples (only in a map given to `plateau score`: in play they are scored and emptied at once)
-- scores as at the end of a turn, without boosts.
-- What the markers in hand would score at the end, by seat.
function M.marker_parts(ctx, state)
  local S = data(ctx).S
  local markers = {}
  local hand = state:read("markers")
  for seat = 1, state.player_count do markers[seat] = #hand[seat] * S.final_points_per_marker end
  return markers
end

-- What one feature would score at the end, and why (with `explain`).
local function feature_points(ctx, d, f, explain)
  local S = d.S
  if f.complete then
    local sp, birds = species_of(d, f.tally)
    local pts = triangle(S, #sp) + (f.kind == "bush" and birds * S.points_per_bird or 0)
    return pts, explain and string.format("complete: %d species%s", #sp,
                                          f.kind == "bush" and string.format(", %d bird(s)", birds) or "")
  end
  local n = animals_in(d, f.tally, ctx.params.final_birds)
  return n * S.final_points_per_animal,
         explain and string.format("unfinished: %d animal(s)%s", n, ctx.params.final_birds and " (birds included)" or "")
end

-- Each feature's points and controllers, kept by its id while map:feature_version is the same:
-- a bot's candidate placement changes the few features the tile joins, and evaluate reads
-- every occupied feature after each one. Emptied when the parameters or the data change.
local kept, kept_params, kept_data = {}, nil, nil

-- A feature's part of the end-of-game estimate, from its summary (feature_summary or
-- placement_changes): its points, the seats they go to, and whether it is a bush.
function M.feature_entry(ctx, f, version)
  return { version = version, bush = f.kind == "bush", points = feature_points(ctx, data(ctx), f, false),
           who = M.controllers(ctx, f) }
end

-- What the features on the map would score at the end (trails, bushes by seat; with
-- `explain`, each feature's points and why; without, each occupied feature's entry by id).
-- Reads the map, the data and ctx.params only.
function M.feature_parts(ctx, state, map, explain)
  local d = data(ctx)
  local trails, bushes = {}, {}
  for seat = 1, state.player_count do trails[seat], bushes[seat] = 0, 0 end
  if not explain then
    if kept_params ~= ctx.params or kept_data ~= d then kept, kept_params, kept_data = {}, ctx.params, d end
    local entries = {}
    for _, fid in ipairs(map:occupied_features()) do
      local version = map:feature_version(fid)
      local e = kept[fid]
      if not e or e.version ~= version then
        e = M.feature_entry(ctx, map:feature_summary(fid), version)
        kept[fid] = e
      end
      entries[fid] = e
      local pts, into = e.points, e.bush and bushes or trails
      for _, seat in ipairs(e.who) do into[seat] = into[seat] + pts end
    end
    return trails, bushes, entries
  end
  local features = {}
  for _, fid in ipairs(map:occupied_features()) do
    local f = map:feature(fid)
    local pts, why = feature_points(ctx, d, f, true)
    local who = M.controllers(ctx, f)
    for _, seat in ipairs(who) do
      if f.kind == "bush" then bushes[seat] = bushes[seat] + pts else trails[seat] = trails[seat] + pts end
    end
    local tiles = {}
    for _, cell in ipairs(f.tiles) do tiles[#tiles + 1] = string.format("[%d,%d]", cell[1], cell[2]) end
    features[#features + 1] = { feature = f.id, kind = f.kind, tiles = table.concat(tiles, " "), why = why,
                                points = pts, players = who }
  end
  return trails, bushes, features
end

function M.final_parts(ctx, state, map, explain)
  local trails, bushes, features = M.feature_parts(ctx, state, map, explain)
  return trails, bushes, M.marker_parts(ctx, state), explain and features or nil
end

function M.score(ctx, state)
  local map = state:tile_map(MAP)
  local over = state.phase == "over"
  local ft, fb, fm, features
  if over then ft, fb, fm, features = M.final_parts(ctx, state, map, true) end
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

-- Each seat's total as score gives it (the `totals` hook): the points so far during the game,
-- which is all a score line holds before the end; at the end the whole score, final parts and
-- all. Asked after every move by the report's measures of how the game feels.
function M.totals(ctx, state)
  local out = {}
  if state.phase == "over" then
    local lines = M.score(ctx, state)
    for seat = 1, state.player_count do
      local total = 0
      for _, v in pairs(lines[seat].breakdown) do total = total + v end
      out[seat] = total
    end
    return out
  end
  local points = state:read("points")
  for seat = 1, state.player_count do
    local p = points[seat]
    out[seat] = p.trails + p.bushes + p.holes + p.vehicles
  end
  return out
end

function M.stats(ctx, state)
  local t = state:read("tally")
  local map = state:tile_map(MAP)
  local unfinished_trails, unfinished_bushes = 0, 0
  for _, fid in ipairs(map:features()) do
    local f = map:feature_summary(fid)
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

return M
