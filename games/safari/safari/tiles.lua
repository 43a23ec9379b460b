-- Safari: the setup (the start tile, the bag, the markers, the vehicles) and the first step of
-- a turn: where the drawn tile may go and its placement, which captures a vehicle standing on
-- that space (3 points, then the vehicle is set down elsewhere: safari.vehicles).

local D = require("safari.data")
local St = require("safari.state")

local MAP, CORNERS, CORNER_VERTEX = D.MAP, D.CORNERS, D.CORNER_VERTEX
local data, in_variant, key_of, is_free_corner = D.data, D.in_variant, D.key_of, D.is_free_corner
local say, draw_markers, draw_tile, vehicle_at = St.say, St.draw_markers, St.draw_tile, St.vehicle_at

local M = { moves = {} }

function M.setup(ctx, state)
  local d = data(ctx)
  local S, P = d.S, ctx.params
  local closing = { "bush" }
  if P.dead_end_closes_trail then closing[#closing + 1] = "dead_end" end
  -- A bush is complete when no side is open and no empty space lies inside it (the rulebook);
  -- a trail, when both ends are closed or it loops, whatever it loops around.
  local map = state:add_tile_map(MAP, { closing_ends = closing, filled_inside = { "bush" } })
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
  state.data.vehicles, state.data.baobabs, state.data.holes, state.data.standing = vehicles, {}, {}, {}
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

-- Whether placing `tile` at (r, c) would stop a started hole (its corner there not free).
local function blocking(ctx, state, map, tile, r, c, rotation)
  local holes = state:read("holes")
  for _, name in ipairs(CORNERS) do
    local cv = CORNER_VERTEX[name]
    local hole = holes[key_of(r + cv[1], c + cv[2])]
    if hole and not hole.complete and not is_free_corner(ctx, map:tile_corner(tile, rotation, name)) then return true end
  end
  return false
end

-- Every cell and rotation where the drawn tile fits (without those that would stop a started
-- watering hole when tile_may_block_hole is false).
-- Whether some placements are kept from the drawn tile (a started hole they would stop).
local function filtered(ctx, state)
  return not ctx.params.tile_may_block_hole and next(state:read("holes")) ~= nil
end

-- A random player's placement: the one place_moves lists at the draw pick(n), built alone
-- when nothing is filtered out.
function M.pick_place(ctx, state, map, pick)
  if not filtered(ctx, state) then return map:pick_placement(state.data.tile, "place", pick) end
  local moves = M.place_moves(ctx, state, map)
  if #moves == 0 then return nil end
  return moves[pick(#moves)]
end

function M.place_moves(ctx, state, map)
  local moves = map:placements(state.data.tile, "place")
  if filtered(ctx, state) then
    local keep = {}
    for _, m in ipairs(moves) do
      if not blocking(ctx, state, map, state.data.tile, m.cell[1], m.cell[2], m.rotation) then keep[#keep + 1] = m end
    end
    moves = keep
  end
  return moves
end

function M.moves.place(ctx, state, seat, move)
  local map = state:tile_map(MAP)
  local tile = state.data.tile
  local r, c = move.cell[1], move.cell[2]
  if not ctx.params.tile_may_block_hole and blocking(ctx, state, map, tile, r, c, move.rotation) then
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

return M
