-- Safari: what a person reads: each move in words (the `describe` hook) and the table (the
-- `view` hook): the map with its tiles, animals, meeples, baobabs, vehicles and open spaces, the
-- meeples on trails and bushes, the watering holes, each player's supply and the last turn.

local D = require("safari.data")
local St = require("safari.state")

local MAP = D.MAP
local data, a, species_of = D.data, D.a, D.species_of
local vehicle_at = St.vehicle_at

local M = {}

local EDGE = { savanna = ".", trail = "=", bush = "#" }

function M.describe(ctx, state, seat, move)
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
function M.view(ctx, state, seat)
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

return M
