-- Safari: the two ranger vehicles. Where one may go (vehicle_destination), the captured
-- vehicle set down at once after the tile that took its space, and the turn's action that
-- moves one instead of placing a meeple (not in a turn that captured one).

local scoring = require("safari.scoring")

local finish_turn = scoring.finish_turn

local M = { moves = {} }

-- Where a vehicle may go: an empty space next to a placed tile that holds no vehicle. With
-- vehicle_destination = "next_to_tile", one next to the tile placed this turn, or any when
-- that tile has no empty space left around it.
local function vehicle_cells(ctx, state, map, vehicles)
  -- Every action of every bot walks the whole frontier here (a hundred spaces late in a
  -- game), so the loop calls nothing and keeps its counts.
  local all, n = {}, 0
  local nv = #vehicles
  for _, cell in ipairs(map:frontier()) do
    local r, c = cell[1], cell[2]
    local free = true
    for i = 1, nv do
      local v = vehicles[i]
      if v[1] == r and v[2] == c then
        free = false
        break
      end
    end
    if free then
      n = n + 1
      all[n] = cell
    end
  end
  if ctx.params.vehicle_destination == "next_to_tile" then
    local placed = state.data.placed
    local pr, pc = placed[1], placed[2]
    local near, m = {}, 0
    for i = 1, n do
      local cell = all[i]
      if math.abs(cell[1] - pr) + math.abs(cell[2] - pc) == 1 then
        m = m + 1
        near[m] = cell
      end
    end
    if m > 0 then return near end
  end
  return all
end

M.vehicle_cells = vehicle_cells

-- How many spaces vehicle_cells lists, and a function giving its k-th ({r, c}): under the
-- default vehicle_destination ("frontier") without the list (the frontier's spaces less the
-- vehicles', counted and read one by one from the map), for a random player's draw.
function M.vehicle_cell_count(ctx, state, map, vehicles)
  if ctx.params.vehicle_destination ~= "frontier" then
    local cells = vehicle_cells(ctx, state, map, vehicles)
    return #cells, function(k) return cells[k] end
  end
  local on = {}   -- the vehicles' spaces on the frontier, each once
  for i = 1, #vehicles do
    local v = vehicles[i]
    local seen = false
    for t = 1, #on do
      if on[t][1] == v[1] and on[t][2] == v[2] then seen = true end
    end
    if not seen and map:on_frontier(v[1], v[2]) then on[#on + 1] = v end
  end
  return map:frontier_size() - #on, function(k)
    -- The k-th free space is the frontier's j-th, j = k plus the vehicles' spaces before it.
    local j = k
    for _ = 0, #on do
      local r, c = map:frontier_cell(j)
      local before, here = 0, false
      for t = 1, #on do
        local v = on[t]
        if v[1] < r or (v[1] == r and v[2] <= c) then
          before = before + 1
          if v[1] == r and v[2] == c then here = true end
        end
      end
      if not here and j - before == k then return { r, c } end
      j = k + before
    end
    error("vehicle_cell_count: no free space " .. k .. " on the frontier")
  end
end

-- The moves of the "relocate" step: the captured vehicle to each space it may take.
function M.relocate_moves(ctx, state, map)
  local moves = {}
  local vehicles = state:read("vehicles")
  local v = state.data.captured
  for _, cell in ipairs(vehicle_cells(ctx, state, map, vehicles)) do
    moves[#moves + 1] = { type = "relocate", vehicle = v, cell = cell }
  end
  return moves
end

-- Appends the action's vehicle moves (none in a turn that captured a vehicle).
function M.vehicle_moves(ctx, state, map, moves)
  if state.data.captured ~= 0 then return end
  local vehicles = state:read("vehicles")
  -- Where a vehicle may go does not depend on which vehicle it is: listed once.
  local cells = vehicle_cells(ctx, state, map, vehicles)
  for i = 1, #vehicles do
    for _, cell in ipairs(cells) do
      moves[#moves + 1] = { type = "vehicle", vehicle = i, cell = cell }
    end
  end
end

function M.moves.relocate(ctx, state, seat, move)
  state.data.vehicles[move.vehicle] = { move.cell[1], move.cell[2] }
  state.data.step = "action"
end

function M.moves.vehicle(ctx, state, seat, move)
  state.data.vehicles[move.vehicle] = { move.cell[1], move.cell[2] }
  local t = state.data.tally
  t.vehicle_moves = t.vehicle_moves + 1
  t.players[seat].vehicle_moves = t.players[seat].vehicle_moves + 1
  return finish_turn(ctx, state)
end

return M
