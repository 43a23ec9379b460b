-- Safari: the two ranger vehicles. Where one may go (vehicle_destination), the captured
-- vehicle set down at once after the tile that took its space, and the turn's action that
-- moves one instead of placing a meeple (not in a turn that captured one).

local St = require("safari.state")
local scoring = require("safari.scoring")

local vehicle_at = St.vehicle_at
local finish_turn = scoring.finish_turn

local M = { moves = {} }

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

M.vehicle_cells = vehicle_cells

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
