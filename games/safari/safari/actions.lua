-- Safari: whose turn it is, what may be played at each step of a turn (the placement, the
-- captured vehicle's new space, the action), and the actions that put a meeple down: on a
-- trail or bush of the tile just placed that nobody holds yet, or lying on its baobab (2
-- markers at once); or no action at all. The other actions are in safari.holes and
-- safari.vehicles.

local D = require("safari.data")
local St = require("safari.state")
local tiles = require("safari.tiles")
local holes = require("safari.holes")
local vehicles = require("safari.vehicles")
local scoring = require("safari.scoring")

local MAP, data = D.MAP, D.data
local say, draw_markers = St.say, St.draw_markers
local place_moves, relocate_moves = tiles.place_moves, vehicles.relocate_moves
local hole_moves, hole_move_count = holes.hole_moves, holes.hole_move_count
local vehicle_moves, vehicle_cell_count = vehicles.vehicle_moves, vehicles.vehicle_cell_count
local finish_turn = scoring.finish_turn

local M = { moves = {} }

function M.to_move(ctx, state)
  if state.phase == "over" then return {} end
  return { state.data.turn }
end

-- The action step's first moves: a meeple on each free feature of the tile, on its baobab.
local function meeple_moves(ctx, state, seat, map)
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
  return moves
end

-- The action step's moves: those above, the vehicles, and no action.
local function action_moves(ctx, state, seat)
  local map = state:tile_map(MAP)
  local moves = meeple_moves(ctx, state, seat, map)
  hole_moves(ctx, state, seat, map, moves)
  vehicle_moves(ctx, state, map, moves)
  moves[#moves + 1] = { type = "pass" }
  return moves
end

function M.legal_moves(ctx, state, seat)
  if seat ~= state.data.turn or state.phase == "over" then return {} end
  local step = state.data.step
  local map = state:tile_map(MAP)
  if step == "place" then
    return place_moves(ctx, state, map)
  elseif step == "relocate" then
    return relocate_moves(ctx, state, map)
  end
  return action_moves(ctx, state, seat)
end

-- A random player's move, the one legal_moves would list at the same draw, without listing
-- the vehicle moves (two for each empty space: most of an action's list, and a random game's
-- time when every one was a table).
function M.random_move(ctx, state, seat, pick)
  if seat ~= state.data.turn or state.phase == "over" then return nil end
  local step = state.data.step
  local map = state:tile_map(MAP)
  if step == "place" then return tiles.pick_place(ctx, state, map, pick) end
  local at = state:read("vehicles")
  if step == "relocate" then
    local n, cell_at = vehicle_cell_count(ctx, state, map, at)
    if n == 0 then return nil end
    return { type = "relocate", vehicle = state.data.captured, cell = cell_at(pick(n)) }
  end
  local head = meeple_moves(ctx, state, seat, map)
  local nh, hole_at = hole_move_count(ctx, state, seat, map)
  local n, cell_at = 0, nil
  if state.data.captured == 0 then n, cell_at = vehicle_cell_count(ctx, state, map, at) end
  local nv = #at * n
  local k = pick(#head + nh + nv + 1)
  if k <= #head then return head[k] end
  k = k - #head
  if k <= nh then return hole_at(k) end
  k = k - nh - 1
  if k < nv then return { type = "vehicle", vehicle = k // n + 1, cell = cell_at(k % n + 1) } end
  return { type = "pass" }
end

function M.moves.meeple(ctx, state, seat, move)
  local map = state:tile_map(MAP)
  local placed = state.data.placed
  local seg = map:segment(placed[1], placed[2], move.segment)
  map:occupy(seg, seat, 1)
  -- Where the meeple stands, for the map (the host counts pieces by feature, not by tile).
  if state.data.standing == nil then state.data.standing = {} end  -- a game saved before it was kept
  local standing = state.data.standing
  standing[#standing + 1] = { cell = { placed[1], placed[2] }, segment = move.segment, seat = seat }
  state.data.meeples[seat] = state.data.meeples[seat] - 1
  local kind = map:feature_summary(seg).kind
  local tp = state.data.tally.players[seat]
  tp["meeple:" .. kind] = tp["meeple:" .. kind] + 1
  return finish_turn(ctx, state)
end

function M.moves.baobab(ctx, state, seat, move)
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

function M.moves.pass(ctx, state, seat, move)
  return finish_turn(ctx, state)
end

return M
