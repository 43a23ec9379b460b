-- The tile map, region map and scale examples of scripting/README.md, run.

test("tiles fit by their edges, and a road between a curve and a village completes", function()
  local g = new_game{ seed = 1 }
  g:set_data("tile", "end")
  -- The field at (0, 0) shows field on every side: the dead end fits around it with its road
  -- pointing away (3 rotations on each of the 4 sides).
  local lays = 0
  for _, m in ipairs(g:moves(1)) do
    if m.type == "lay" then lays = lays + 1 end
  end
  expect_eq(lays, 12)
  g:play(1, { type = "lay", cell = { 1, 0 }, rotation = 180 })   -- road to the south, village north
  g:set_data("tile", "end")
  g:play(2, { type = "lay", cell = { 2, 0 }, rotation = 0 })     -- road north, village south: closed
  local map = g:tile_map("roads")
  local road = map.features[1]
  expect_eq(road.kind, "road")
  expect_eq(road.complete, true)
  expect_eq(road.tiles, { { 1, 0 }, { 2, 0 } })
  expect_score(g, 1, 2, { roads = 2 })     -- P1's meeple was first: 1 point per tile
  expect_eq(road.occupants, {}, "vacated after scoring")
end)

test("a segment, a region or a scale that does not exist is the script's error at its line", function()
  local g = new_game{ seed = 1, params = { probes = true } }
  local ok, message = g:try_play(1, { type = "probe", what = "segment", id = 99 })
  expect_eq(ok, false)
  expect_true(message:find("rules.lua:61: bad argument #1 to 'feature' (no segment 99 on this map (it has 0))", 1, true) ~= nil, message)
  ok, message = g:try_play(1, { type = "probe", what = "region", id = "atlantis" })
  expect_true(message:find("rules.lua:62: bad argument #1 to 'neighbors' (unknown region 'atlantis')", 1, true) ~= nil, message)
  ok, message = g:try_play(1, { type = "probe", what = "scale", id = "height" })
  expect_true(message:find("rules.lua:63: bad argument #1 to 'scale' (unknown scale 'height' (scales: weight))", 1, true) ~= nil, message)
  ok, message = g:try_play(1, { type = "probe", what = "rotation", id = 0 })
  expect_true(message:find("rules.lua:64: bad argument #4 to 'place' (rotation 45 is not 0, 90, 180 or 270)", 1, true) ~= nil, message)
  ok, message = g:try_play(1, { type = "probe", what = "option", id = 0 })
  expect_true(message:find("rules.lua:65: bad argument #5 to 'placement_changes' (unknown option (the one option is occupied = true|false))", 1, true) ~= nil, message)
  ok, message = g:try_play(1, { type = "probe", what = "pick", id = 0 })
  expect_eq(ok, false)
  expect_true(message:find("rules.lua:66: pick_placement: pick(4) gave 0, not a place in 1..4", 1, true) ~= nil, message)
  ok, message = g:try_play(1, { type = "probe", what = "frontier", id = 0 })
  expect_eq(ok, false)
  expect_true(message:find("rules.lua:67: bad argument #1 to 'frontier_cell' (the frontier has 4 cells: k is 1..4)", 1, true) ~= nil, message)
end)

test("region marks are saved with the state", function()
  local g = new_game{ seed = 1 }
  g:play(1, { type = "region", region = "middle" })
  local copy = load_game(g:save())
  expect_eq(copy:hash(), g:hash())
  expect_true(g:save():find('"region_maps":{"world":{"marks":{"middle":[0]}}}', 1, true) ~= nil)
end)
