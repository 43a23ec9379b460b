-- Safari: what a person reads. `describe` says each move in words and puts it in a group for a
-- person choosing among many (a cell, then a rotation; an action, then its tile, then the
-- corner), with a picture of the turned tile for a placement. `view` draws the map: each tile is
-- 5 columns by 2 lines, the edge line above it (a + at each grid point, o where a watering hole
-- lies) and the line inside it, with the edge it shares with its west neighbour; below the map,
-- the tile to place in its rotations, the players' points, the meeples on trails and bushes,
-- the watering holes, whose turn it is and what the last turn scored.
--
-- Edges: savanna ---- and |, trail -==- and =, bush #### and #. Inside a tile: animals on a
-- trail in capitals, animals in a bush in small letters, * a baobab, a player's number after
-- the feature (or the baobab) their meeple is on. V1 and V2: the vehicles; (): a space where the
-- tile to place fits ((V2) when a vehicle stands there), or where a captured vehicle may go.

local D = require("safari.data")
local St = require("safari.state")

local MAP = D.MAP
local data, a, species_of = D.data, D.a, D.species_of
local vehicle_at = St.vehicle_at
local vehicle_cells = require("safari.vehicles").vehicle_cells

local M = {}

local H_EDGE = { savanna = "----", trail = "-==-", bush = "####" }
local V_EDGE = { savanna = "|", trail = "=", bush = "#" }

local function cell_name(r, c) return string.format("[%d, %d]", r, c) end

-- A tile's edge kinds after rotation, by side 0 N .. 3 W.
local function edges_of(ctx, id, rotation)
  local t
  for _, e in ipairs(ctx.data.tiles.tiles) do
    if e.id == id then t = e end
  end
  local out = {}
  for s = 0, 3 do out[(s + rotation // 90) % 4] = t.edges[s + 1] end
  return out
end

-- The 4 characters inside a tile: the baobab, each feature's animals (capitals on a trail,
-- small letters in a bush) and the seat whose meeple stands on it.
local function inside(ctx, state, id, r, c)
  local d = data(ctx)
  local info = d.tiles[id]
  local text = ""
  if info.baobab then
    text = "*"
    for _, b in ipairs(state:read("baobabs")) do
      if r and b.cell[1] == r and b.cell[2] == c then text = text .. b.seat end
    end
  end
  local standing = state.data.standing or {}
  for i, seg in ipairs(info.segments) do
    for _, animal in ipairs(seg.animals) do
      local l = d.letter[animal] or "?"
      text = text .. (seg.kind == "bush" and l:lower() or l)
    end
    for _, s in ipairs(standing) do
      if r and s.cell[1] == r and s.cell[2] == c and s.segment == i then text = text .. s.seat end
    end
  end
  return string.sub(text .. "    ", 1, 4)
end

-- A tile alone, 3 lines of 6: its four edges closed around what is inside it.
local function tile_picture(ctx, state, id, rotation)
  local e = edges_of(ctx, id, rotation)
  return { "+" .. H_EDGE[e[0]] .. "+", V_EDGE[e[3]] .. inside(ctx, state, id) .. V_EDGE[e[1]], "+" .. H_EDGE[e[2]] .. "+" }
end

-- A tile in words, turned: "a trail E-W (elephant), a bush N (2 birds)".
local SIDE_INDEX, SIDE_LETTER = { N = 0, E = 1, S = 2, W = 3 }, { [0] = "N", "E", "S", "W" }
local function tile_words(ctx, id, rotation)
  local d = data(ctx)
  local parts = {}
  for _, seg in ipairs(d.tiles[id].segments) do
    local turned = {}
    for _, s in ipairs(seg.sides) do turned[#turned + 1] = (SIDE_INDEX[s] + rotation // 90) % 4 end
    table.sort(turned)
    local sides = {}
    for i, s in ipairs(turned) do sides[i] = SIDE_LETTER[s] end
    local what = {}
    for _, animal in ipairs(seg.animals) do what[#what + 1] = animal end
    if seg.birds > 0 then what[#what + 1] = seg.birds .. (seg.birds == 1 and " bird" or " birds") end
    parts[#parts + 1] = string.format("a %s %s%s", seg.kind, table.concat(sides, "-"),
                                      #what > 0 and " (" .. table.concat(what, ", ") .. ")" or "")
  end
  if d.tiles[id].baobab then parts[#parts + 1] = "a baobab" end
  return #parts > 0 and table.concat(parts, ", ") or "savanna only"
end

-- The name of a corner and of the hole on it, the same in moves and in the view.
local function corner_name(corner, r, c) return string.format("the %s corner of %s", corner, cell_name(r, c)) end

-- The cell and corner of a hole's marker (its quarter q around the hole's point).
local QUARTER = { { -1, -1, "SE" }, { -1, 0, "SW" }, { 0, 0, "NW" }, { 0, -1, "NE" } }
local function quarter_corner(v, q)
  local x = QUARTER[q]
  return corner_name(x[3], v[1] + x[1], v[2] + x[2])
end

-- ---- describe -------------------------------------------------------------------------------

function M.describe(ctx, state, seat, move)
  local d = data(ctx)
  local map = state:tile_map(MAP)
  local t = move.type
  if t == "place" then
    local r, c = move.cell[1], move.cell[2]
    local v = vehicle_at(state:read("vehicles"), r, c)
    local capture = v and string.format("captures vehicle %d: +%d", v, d.S.vehicle_capture_points)
    local pic = tile_picture(ctx, state, state.data.tile, move.rotation)
    return string.format("place %s at %s turned %d°: %s%s", state.data.tile, cell_name(r, c), move.rotation,
                         tile_words(ctx, state.data.tile, move.rotation), capture and "; " .. capture or ""),
           "place the tile at " .. cell_name(r, c) .. (capture and " (" .. capture .. ")" or ""),
           table.concat(pic, "\n")
  elseif t == "meeple" then
    local placed = state.data.placed
    local seg = map:segment(placed[1], placed[2], move.segment)
    local f = map:feature(seg)
    local sp, birds = species_of(d, f.tally)
    local open = f.open_edges + f.open_ends + (f.empty_inside or 0)
    return string.format("a meeple on the %s %s (%s%s): %s", f.kind, table.concat(map:sides(seg), "-"),
                         #sp > 0 and table.concat(sp, ", ") or "no animal",
                         f.kind == "bush" and string.format(", %d bird%s", birds, birds == 1 and "" or "s") or "",
                         f.complete and "complete, scores this turn" or (open .. " open side" .. (open == 1 and "" or "s"))),
           "put a meeple on this tile"
  elseif t == "baobab" then
    return string.format("a meeple lying on the baobab: %d markers now, %d more when 8 tiles surround it",
                         d.S.baobab_markers_on_meeple, d.S.baobab_markers_on_completion),
           "put a meeple on this tile"
  elseif t == "hole" then
    return string.format("start a watering hole at %s with %s and a meeple: +%d", corner_name(move.corner, move.cell[1], move.cell[2]),
                         a(move.species), d.S.hole_start_points),
           { string.format("start a watering hole (a marker and a meeple: +%d)", d.S.hole_start_points),
             "on the tile at " .. cell_name(move.cell[1], move.cell[2]) }
  elseif t == "extend" then
    return string.format("extend the watering hole at %s with %s", corner_name(move.corner, move.cell[1], move.cell[2]), a(move.species)),
           { "extend a watering hole (a marker: 4, 5, 6)", "on the tile at " .. cell_name(move.cell[1], move.cell[2]) }
  elseif t == "vehicle" then
    return string.format("move vehicle %d to %s", move.vehicle, cell_name(move.cell[1], move.cell[2])),
           { "move a vehicle (no points)", "vehicle " .. move.vehicle }
  elseif t == "relocate" then
    return string.format("set vehicle %d down at %s", move.vehicle, cell_name(move.cell[1], move.cell[2]))
  elseif t == "boost" then
    if move.species then return "boost with " .. a(move.species) .. " marker (+1 species, for your score only)" end
    return "no boost"
  elseif t == "pass" then
    return "no action"
  end
end

-- ---- view -----------------------------------------------------------------------------------

local function map_lines(ctx, state, seat)
  local map = state:tile_map(MAP)
  local min_r, max_r, min_c, max_c = map:bounds()
  min_r, max_r, min_c, max_c = min_r - 1, max_r + 1, min_c - 1, max_c + 1
  local vehicles = state:read("vehicles")
  local holes = state:read("holes")
  -- Where the tile to place fits (any rotation).
  local fits = {}
  if state.phase ~= "over" and state.data.step == "place" and state.data.tile then
    for _, m in ipairs(map:placements(state.data.tile)) do fits[m.cell[1] .. "," .. m.cell[2]] = true end
  elseif state.phase ~= "over" and state.data.step == "relocate" then
    for _, cell in ipairs(vehicle_cells(ctx, state, map, vehicles)) do fits[cell[1] .. "," .. cell[2]] = true end
  end
  local tile_at, edges = {}, {}
  local function at(r, c)
    local key = r .. "," .. c
    if tile_at[key] == nil then
      local id, rot = map:tile(r, c)
      tile_at[key] = id or false
      if id then edges[key] = edges_of(ctx, id, rot) end
    end
    return tile_at[key], edges[key]
  end
  local lines = {}
  local header = "     "
  for c = min_c, max_c do header = header .. string.format(" %-4s", tostring(c)) end
  lines[#lines + 1] = (" " .. header):gsub("%s+$", "")
  for r = min_r, max_r do
    local top, mid = "      ", string.format(" %4d ", r)
    for c = min_c, max_c do
      local id, e = at(r, c)
      local up, ue = at(r - 1, c)
      local left, le = at(r, c - 1)
      -- The grid point at this cell's NW corner.
      local hole = holes[r .. "," .. c]
      local any = id or up or left or at(r - 1, c - 1)
      top = top .. (hole and (hole.complete and "O" or "o") or (any and "+" or " "))
      top = top .. (id and H_EDGE[e[0]] or up and H_EDGE[ue[2]] or "    ")
      mid = mid .. (id and V_EDGE[e[3]] or left and V_EDGE[le[1]] or " ")
      if id then
        mid = mid .. inside(ctx, state, id, r, c)
      else
        local v = vehicle_at(vehicles, r, c)
        local fit = fits[r .. "," .. c]
        mid = mid .. (v and string.format(fit and "(V%d)" or " V%d ", v) or fit and " () " or "    ")
      end
    end
    if r > min_r then lines[#lines + 1] = (top:gsub("%s+$", "")) end
    lines[#lines + 1] = (mid:gsub("%s+$", ""))
  end
  return lines
end

-- The distinct rotations the tile to place may take somewhere, as pictures side by side.
local function hand_lines(ctx, state)
  local map = state:tile_map(MAP)
  local id = state.data.tile
  local seen, rotations = {}, {}
  for _, m in ipairs(map:placements(id)) do
    if not seen[m.rotation] then
      seen[m.rotation] = true
      rotations[#rotations + 1] = m.rotation
    end
  end
  table.sort(rotations)
  local out = { "", "", "", "" }
  for _, rot in ipairs(rotations) do
    local pic = tile_picture(ctx, state, id, rot)
    -- Padded by hand: "°" is two bytes and one column.
    out[1] = out[1] .. "   " .. rot .. "°" .. string.rep(" ", 5 - #tostring(rot))
    for i = 1, 3 do out[i + 1] = out[i + 1] .. "   " .. pic[i] end
  end
  for i = 1, 4 do out[i] = ("   " .. out[i]):gsub("%s+$", "") end
  return out
end

function M.view(ctx, state, seat)
  local d = data(ctx)
  local map = state:tile_map(MAP)
  local lines = {}
  local over = state.phase == "over"
  lines[#lines + 1] = string.format("The map after %d tiles ([row, column]; %d tile(s) left in the bag):", map:size(),
                                    #state.data.bag)
  for _, l in ipairs(map_lines(ctx, state, seat)) do lines[#lines + 1] = l end
  lines[#lines + 1] = "Edges: ---- | savanna, -==- = trail, #### # bush; + a tile's corner, o a watering hole (O complete)."
  lines[#lines + 1] = "  Inside: ANIMALS on a trail, animals in a bush (m e g l z), * baobab, 1-5 the player whose meeple is on it;"
  lines[#lines + 1] = "  V1 V2 vehicles; () (V1) where the tile fits or the captured vehicle may go."
  -- Points so far, pieces, markers.
  local points = state:read("points")
  local hand = state:read("markers")
  lines[#lines + 1] = string.format("Scores after %d tiles:", map:size())
  for s = 1, state.player_count do
    local p = points[s]
    -- Markers counted by species: a hand of ten stays one short line.
    local count = {}
    for _, sp in ipairs(hand[s]) do count[sp] = (count[sp] or 0) + 1 end
    local markers = {}
    for _, sp in ipairs(d.species) do
      if count[sp] then markers[#markers + 1] = sp .. (count[sp] > 1 and (" x" .. count[sp]) or "") end
    end
    lines[#lines + 1] = string.format("  P%d%s: %d points (trails %d, bushes %d, holes %d, vehicles %d); %d meeple%s; "
                                      .. "markers: %s", s, seat == s and " (you)" or "",
                                      p.trails + p.bushes + p.holes + p.vehicles, p.trails, p.bushes, p.holes, p.vehicles,
                                      state.data.meeples[s], state.data.meeples[s] == 1 and "" or "s",
                                      #markers > 0 and table.concat(markers, ", ") or "none")
  end
  -- Trails and bushes with meeples on them.
  local occupied = {}
  for _, fid in ipairs(map:features()) do
    local f = map:feature(fid)
    if next(f.occupants) ~= nil then
      local who = {}
      for s, n in pairs(f.occupants) do who[#who + 1] = string.format("P%d%s", s, n > 1 and (" x" .. n) or "") end
      table.sort(who)
      local sp, birds = species_of(d, f.tally)
      local where = {}
      for _, cell in ipairs(f.tiles) do where[#where + 1] = cell_name(cell[1], cell[2]) end
      local open = f.open_edges + f.open_ends
      local state_text = f.complete and "complete"
        or (open > 0 and (open .. " open side" .. (open == 1 and "" or "s")) or "")
      if (f.empty_inside or 0) > 0 then
        state_text = (state_text ~= "" and state_text .. ", " or "") .. f.empty_inside .. " empty space"
          .. (f.empty_inside == 1 and "" or "s") .. " inside"
      end
      occupied[#occupied + 1] = string.format("  the %s on %s: %s; %s%s; %s", f.kind, table.concat(where, " "),
                                              table.concat(who, ", "), #sp > 0 and table.concat(sp, ", ") or "no animal",
                                              f.kind == "bush" and string.format(", %d bird%s", birds, birds == 1 and "" or "s") or "",
                                              state_text)
    end
  end
  if #occupied > 0 then
    lines[#lines + 1] = "Meeples on trails and bushes:"
    for _, l in ipairs(occupied) do lines[#lines + 1] = l end
  end
  -- Watering holes, named by their markers' corners as the moves name them.
  -- One line per marker: a hole's four quarters lie on the corners of four tiles.
  local holes = {}
  for _, h in pairs(state:read("holes")) do
    local parts = {}
    for _, m in ipairs(h.markers) do
      parts[#parts + 1] = string.format("%s at %s (P%d%s)", m.species, quarter_corner(h.v, m.q), m.seat,
                                        m.meeple and ", with a meeple" or "")
    end
    holes[#holes + 1] = { key = h.v[1] * 65536 + h.v[2], markers = parts, complete = h.complete }
  end
  table.sort(holes, function(x, y) return x.key < y.key end)
  if #holes > 0 then
    lines[#lines + 1] = "Watering holes (o on the map, O complete):"
    for _, h in ipairs(holes) do
      lines[#lines + 1] = string.format("  %s: %s%s", h.complete and "complete" or (#h.markers .. " of 4"), h.markers[1],
                                        #h.markers > 1 and "," or "")
      for i = 2, #h.markers do
        lines[#lines + 1] = "      " .. h.markers[i] .. (i < #h.markers and "," or "")
      end
    end
  end
  local log = state:read("log")
  if #log > 0 then
    lines[#lines + 1] = "Last turn:"
    for _, l in ipairs(log) do lines[#lines + 1] = "  " .. l end
  end
  if over then
    lines[#lines + 1] = "The game is over: no tile left to draw. Unfinished trails and bushes and the markers left "
                        .. "score now."
  else
    local turn, step = state.data.turn, state.data.step
    local who = string.format("P%d%s", turn, seat == turn and " (you)" or "")
    if step == "place" then
      lines[#lines + 1] = string.format("%s to place %s: %s.", who, state.data.tile, tile_words(ctx, state.data.tile, 0))
      lines[#lines + 1] = "  Its rotations where it fits:"
      for _, l in ipairs(hand_lines(ctx, state)) do lines[#lines + 1] = l end
    elseif step == "relocate" then
      lines[#lines + 1] = string.format("%s to set vehicle %d down (captured with the tile at %s)", who, state.data.captured,
                                        cell_name(state.data.placed[1], state.data.placed[2]))
    else
      lines[#lines + 1] = string.format("%s to choose an action for the tile at %s", who,
                                        cell_name(state.data.placed[1], state.data.placed[2]))
    end
  end
  return table.concat(lines, "\n"), true
end

-- Tests and the CLI name corners with these.
M.corner_name = corner_name

return M
