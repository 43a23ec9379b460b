-- api-maps: the examples of the tile map, region map and scale sections of the Lua API
-- reference. Each turn a player lays the drawn road tile (a meeple may go on its road; a
-- completed road scores 1 per tile for its majority), or marks a region. Moves that show an
-- error at the script's own line are there for the tests (type "probe").
local game = { api_version = 1 }

function game.setup(ctx, state)
  local map = state:add_tile_map("roads", { closing_ends = { "village" } })
  map:place("field", 0, 0)
  state:add_region_map("world")
  state.data.turn, state.data.points, state.data.tile = 1, { 0, 0 }, "straight"
  state.data.bag = { "end", "curve", "straight", "end", "curve", "straight" }
end

function game.to_move(ctx, state)
  if #state.data.bag == 0 and state.data.tile == nil then return {} end
  return { state.data.turn }
end

function game.legal_moves(ctx, state, seat)
  local map = state:tile_map("roads")
  local moves = map:placements(state.data.tile, "lay")       -- every cell and rotation it fits
  moves[#moves + 1] = { type = "region", region = "middle" }
  if ctx.params.probes then
    for _, p in ipairs({ { "segment", 99 }, { "region", "atlantis" }, { "scale", "height" }, { "rotation", 0 }, { "option", 0 }, { "pick", 0 }, { "frontier", 0 } }) do
      moves[#moves + 1] = { type = "probe", what = p[1], id = p[2] }
    end
  end
  return moves
end

game.moves = {}

local function next_turn(state)
  state.data.turn = 3 - state.data.turn
  local bag = state.data.bag
  state.data.tile = bag[#bag]
  bag[#bag] = nil
end

function game.moves.lay(ctx, state, seat, move)
  local map = state:tile_map("roads")
  local done = map:place(state.data.tile, move.cell[1], move.cell[2], move.rotation)
  local segs = map:segments(move.cell[1], move.cell[2])
  if #segs > 0 and next(map:occupants(segs[1])) == nil then map:occupy(segs[1], seat) end
  for _, id in ipairs(done) do
    local f = map:feature(id)
    for _, s in ipairs(f.majority) do state.data.points[s] = state.data.points[s] + #f.tiles end
    map:vacate(id)
  end
  next_turn(state)
end

function game.moves.region(ctx, state, seat, move)
  local world = state:region_map("world")
  if #world:marks(move.region) > 0 then world:unmark(move.region) else world:mark(move.region, seat) end
  next_turn(state)
end

function game.moves.probe(ctx, state, seat, move)
  if move.what == "segment" then return state:tile_map("roads"):feature(move.id) end
  if move.what == "region" then return state:region_map("world"):neighbors(move.id) end
  if move.what == "scale" then return ctx.scale(move.id) end
  if move.what == "rotation" then return state:tile_map("roads"):place("straight", 5, 5, 45) end
  if move.what == "option" then return state:tile_map("roads"):placement_changes("straight", 5, 5, 0, { held = true }) end
  if move.what == "pick" then return state:tile_map("roads"):pick_placement("straight", "lay", function() return move.id end) end
  if move.what == "frontier" then return state:tile_map("roads"):frontier_cell(move.id) end
end

function game.score(ctx, state)
  return { { breakdown = { roads = state.data.points[1] } }, { breakdown = { roads = state.data.points[2] } } }
end

function game.evaluate(ctx, state, seat, options)
  local care = options and options.care or 1
  return care * state.data.points[seat]
end

-- A random player's move without a table for each placement: the placements, then the region.
function game.random_move(ctx, state, seat, pick)
  if ctx.params.probes then
    local moves = game.legal_moves(ctx, state, seat)
    return moves[pick(#moves)]
  end
  local move, rest = state:tile_map("roads"):pick_placement(state.data.tile, "lay", pick, 1)
  if move then return move end
  if rest == 1 then return { type = "region", region = "middle" } end
end

return game
