-- Safari's actions: the vehicles (a capture scores 3 and the vehicle must move; only one
-- vehicle moves a turn; never both on one space), baobabs (2 markers for the meeple, 2 more
-- and the meeple back when surrounded, no points), watering holes (start 3 with a meeple,
-- extend 4/5/6 with new species, complete 3 per owner), the marker supply's reshuffle, a tile
-- that fits nowhere set aside, and the end of the game.

local T = require("safari.testing")
local game, place, count = T.game, T.place, T.count

test("the vehicles start at both ends of the start tile", function()
  local g = game()
  expect_eq(g:data().vehicles, { { 0, -2 }, { 0, 2 } })
end)

test("a tile on a vehicle's space captures it: 3 points, then it must move, and no other vehicle moves", function()
  local g = game()
  place(g, 1, "CS4-M", 0, 2)              -- trail E-W continues CSS3's trail east, onto vehicle 2
  expect_score(g, 1, 3, { vehicles = 3 })
  local moves = g:moves(1)
  expect_true(#moves > 0 and count(moves, "relocate") == #moves, "only the captured vehicle's relocation")
  for _, m in ipairs(moves) do
    expect_true(not (m.cell[1] == 0 and m.cell[2] == -2), "never onto the other vehicle")
    expect_eq(m.vehicle, 2)
  end
  g:play(1, { type = "relocate", vehicle = 2, cell = { 1, 2 } })
  expect_eq(g:data().vehicles[2], { 1, 2 })
  expect_eq(count(g:moves(1), "vehicle"), 0, "the captured vehicle was this turn's one vehicle move")
  expect_illegal(g, 1, { type = "vehicle", vehicle = 1, cell = { 1, 0 } })
  g:play(1, { type = "meeple", segment = 1 })  -- the action still happens
end)

test("a vehicle moved instead of a meeple scores nothing; both vehicles never share a space", function()
  local g = game()
  place(g, 1, "CS1", -1, 0)
  local moves = g:moves(1)
  expect_true(count(moves, "vehicle") > 0)
  expect_illegal(g, 1, { type = "vehicle", vehicle = 1, cell = { 0, 2 } }, "")
  g:play(1, { type = "vehicle", vehicle = 1, cell = { -2, 0 } })
  expect_eq(g:data().vehicles[1], { -2, 0 })
  expect_score(g, 1, 0)
end)

test("vehicle_destination = next_to_tile: only spaces beside the tile just placed", function()
  local g = game{ vehicle_destination = "next_to_tile" }
  place(g, 1, "CS1", -1, 0)
  for _, m in ipairs(g:moves(1)) do
    if m.type == "vehicle" then
      expect_eq(math.abs(m.cell[1] + 1) + math.abs(m.cell[2]), 1, "next to (-1, 0)")
    end
  end
end)

test("a meeple on a baobab gives 2 markers and no points, and stays while fewer than 8 tiles surround it", function()
  local g = game()
  place(g, 1, "CS1", -1, 0)               -- baobab, 3 of its 8 neighbours filled (the start tile)
  g:play(1, { type = "baobab" })
  expect_eq(#g:data().markers[1], 2)
  expect_eq(g:data().meeples[1], 5)
  expect_score(g, 1, 0)
end)

test("a surrounded baobab (threshold lowered by data to 3) returns its meeple with 2 more markers", function()
  local g = game(nil, { ["safari.baobab_neighbours"] = 3 })
  place(g, 1, "CS1", -1, 0)
  g:play(1, { type = "baobab" })
  expect_eq(#g:data().markers[1], 4, "2 on the meeple, 2 on completion")
  expect_eq(g:data().meeples[1], 6)
  expect_score(g, 1, 0, { trails = 0, bushes = 0 })
end)

test("baobab markers are usable at once by default, and not with baobab_markers_immediate = false", function()
  for _, immediate in ipairs({ true, false }) do
    local g = game({ baobab_markers_immediate = immediate }, { ["safari.baobab_neighbours"] = 1 })
    g:set_data("supply", { "zebra", "zebra", "lion", "lion" })  -- drawn from the end
    place(g, 1, "CS4-E", 1, 0, 90)        -- CSS2's trail continues south (giraffe, elephant)
    g:play(1, { type = "meeple", segment = 1 })
    place(g, 2, "CS1", -1, 0)
    g:play(2, { type = "pass" })
    -- P1 closes its trail into a bush with a baobab tile, lies a meeple on the baobab (2 lions),
    -- and the baobab is surrounded at once (threshold 1): 2 zebras at the end of the turn.
    place(g, 1, "CS14-Mx", 2, 0, 90)
    g:play(1, { type = "baobab" })
    local species = {}
    for _, m in ipairs(g:moves(1)) do species[#species + 1] = m.species or "none" end
    if immediate then
      expect_eq(species, { "none", "lion", "zebra" }, "the completion's zebras may boost at once")
    else
      expect_eq(species, { "none", "lion" }, "the zebras wait for the next turn")
    end
    g:play(1, g:moves(1)[2])              -- boost with a lion: 4 species
    expect_score(g, 1, 10, { trails = 10 })
  end
end)

test("watering hole: start 3 with a meeple, extend 4, 5, 6 with new species, complete 3 to the owner", function()
  local g = game()
  g:set_data("markers", { { "zebra", "lion" }, { "monkey", "giraffe" } })
  place(g, 1, "CS1", -1, 0)
  g:play(1, { type = "hole", cell = { 0, 0 }, corner = "NW", species = "zebra" })
  expect_score(g, 1, 3, { holes = 3 })
  expect_eq(g:data().meeples[1], 5)
  place(g, 2, "CS20-M", -1, -1, 180)      -- savanna south and east, bush to the west
  expect_illegal(g, 2, { type = "extend", cell = { 0, -1 }, corner = "NE", species = "zebra" })
  g:play(2, { type = "extend", cell = { 0, -1 }, corner = "NE", species = "monkey" })
  expect_score(g, 2, 4, { holes = 4 })
  place(g, 1, "CS1", -2, 0)
  g:play(1, { type = "extend", cell = { -1, 0 }, corner = "SW", species = "lion" })
  expect_score(g, 1, 8, { holes = 8 })
  place(g, 2, "CS3-G", 1, 0, 270)         -- anything: CSS2's trail south gets a dead end
  g:play(2, { type = "extend", cell = { -1, -1 }, corner = "SE", species = "giraffe" })
  expect_score(g, 2, 10, { holes = 10 })
  expect_score(g, 1, 11, { holes = 11 })  -- the completion: 3 to the meeple's owner
  expect_eq(g:data().meeples[1], 6, "the meeple is back")
  expect_eq(g:data().holes["0,0"].complete, true)
end)

test("a hole started diagonally opposite another is a new hole: two meeples, same species allowed", function()
  local g = game()
  g:set_data("markers", { { "zebra" }, { "zebra" } })
  place(g, 1, "CS1", -1, 0)
  g:play(1, { type = "hole", cell = { 0, 0 }, corner = "NW", species = "zebra" })
  place(g, 2, "CS20-M", -1, -1, 180)
  -- (-1,-1)'s SE corner is diagonal to (0,0)'s NW corner around the same point: a new start.
  g:play(2, { type = "hole", cell = { -1, -1 }, corner = "SE", species = "zebra" })
  expect_score(g, 2, 3, { holes = 3 })
  expect_eq(#g:data().holes["0,0"].markers, 2)
end)

test("no hole can be started without a meeple", function()
  local g = game()
  g:set_data("markers", { { "zebra" }, {} })
  g:set_data("meeples", { 0, 6 })
  place(g, 1, "CS1", -1, 0)
  expect_eq(count(g:moves(1), "hole"), 0)
end)

test("tile_may_block_hole: a tile whose corner would stop a started hole is allowed, or refused", function()
  for _, allowed in ipairs({ true, false }) do
    local g = game{ tile_may_block_hole = allowed }
    g:set_data("markers", { { "zebra" }, {} })
    place(g, 1, "CS1", 1, 1)                                             -- savanna below CSS3
    g:play(1, { type = "hole", cell = { 0, 1 }, corner = "NE", species = "zebra" })  -- point (0, 2)
    -- CS28-Z turned 90° is a bush over its east and south sides: at (-1, 1) its south joins
    -- CSS3's bush and its SE corner, on the hole's point, is bush.
    g:set_data("tile", "CS28-Z")
    local listed = false
    for _, m in ipairs(g:moves(2)) do
      if m.cell[1] == -1 and m.cell[2] == 1 and m.rotation == 90 then listed = true end
    end
    expect_eq(listed, allowed)
    if allowed then
      g:play(2, { type = "place", cell = { -1, 1 }, rotation = 90 })
    else
      expect_illegal(g, 2, { type = "place", cell = { -1, 1 }, rotation = 90 })
    end
  end
end)

test("a corner inside a trail curve is free for a hole by default (trail_curve_corner_free); one under a bush never", function()
  -- « On considère qu'un coin est libre, lorsque la savane est visible. » A trail is a path
  -- through the tile: the corner it curves around shows savanna. A bush over both sides around
  -- a corner covers that corner.
  local function listed(moves, r, c, corner)
    for _, m in ipairs(moves) do
      if m.type == "hole" and m.cell[1] == r and m.cell[2] == c and m.corner == corner then return true end
    end
    return false
  end
  for _, free in ipairs({ true, false }) do
    local g = game{ trail_curve_corner_free = free }
    g:set_data("markers", { { "zebra" }, { "lion" } })
    place(g, 1, "CS7-E", -1, -1, 180)     -- a trail curving from N to E: NE is inside the curve
    local moves = g:moves(1)
    expect_eq(listed(moves, -1, -1, "NE"), free, "the corner inside the curve")
    expect_eq(listed(moves, -1, -1, "SW"), true, "the corner away from the curve")
    g:play(1, { type = "pass" })
    place(g, 2, "CS28-Z", -1, 1, 90)      -- a bush over E and S: its SE corner is covered
    moves = g:moves(2)
    expect_eq(listed(moves, -1, 1, "SE"), false, "the corner under the bush")
    expect_eq(listed(moves, -1, 1, "NW"), true)
  end
  -- The same reading decides whether a tile stops a started hole (tile_may_block_hole = false).
  for _, free in ipairs({ true, false }) do
    local g = game{ trail_curve_corner_free = free, tile_may_block_hole = false }
    g:set_data("markers", { { "zebra" }, {} })
    place(g, 1, "CS1", 1, 1)
    g:play(1, { type = "hole", cell = { 0, 1 }, corner = "NE", species = "zebra" })  -- point (0, 2)
    -- CS7 turned 90° curves from N to W at (0, 2): its NW corner, inside the curve, is the point.
    g:set_data("tile", "CS7-G")
    local fits = false
    for _, m in ipairs(g:moves(2)) do
      if m.cell[1] == 0 and m.cell[2] == 2 and m.rotation == 90 then fits = true end
    end
    expect_eq(fits, free)
  end
end)

test("the marker supply is reshuffled from the spent markers when it runs out", function()
  local g = game()
  g:set_data("supply", {})
  g:set_data("spent", { "lion", "lion" })
  place(g, 1, "CS1", -1, 0)
  g:play(1, { type = "baobab" })
  expect_eq(g:data().markers[1], { "lion", "lion" })
  expect_eq(#g:data().spent, 0)
end)

test("the next player's tile is drawn from the end of the bag at the end of the turn", function()
  local g = game()
  g:set_data("bag", { "CS1", "CS4-M" })
  place(g, 1, "CS1", -1, 0)
  g:play(1, { type = "pass" })
  expect_eq(g:data().tile, "CS4-M")
  expect_eq(#g:data().bag, 1)
end)

test("the game ends when the next player cannot draw; 5 players are seated", function()
  local g = game(nil, nil, 5)
  expect_eq(g.player_count, 5)
  g:set_data("bag", {})
  place(g, 1, "CS1", -1, 0)
  g:play(1, { type = "pass" })
  expect_eq(g:to_move(), {})
  expect_eq(#g:score().extra.winners, 5, "nobody scored: a five-way shared win")
end)

test("a save reloads the same map and features", function()
  local g = game()
  place(g, 1, "CS18-EL", 1, 0)
  g:play(1, { type = "meeple", segment = 1 })
  place(g, 2, "CS30-G", 1, -1, 90)
  g:play(2, { type = "meeple", segment = 1 })
  local copy = load_game(g:save())
  expect_eq(copy:hash(), g:hash())
  expect_eq(copy:tile_map("savanna"), g:tile_map("savanna"))
  g:play_random(40, 3)
  copy:play_random(40, 3)
  expect_eq(copy:hash(), g:hash(), "the same moves from the reloaded save give the same table")
end)

test("meeples are limited: with none left no meeple, baobab or new hole; with one, all three", function()
  for _, left in ipairs({ 0, 1 }) do
    local g = game()
    g:set_data("markers", { { "zebra" }, {} })
    g:set_data("meeples", { left, 6 })
    place(g, 1, "CS12-Zx", -1, 1, 90)     -- trail E-W and a bush, baobab; its bush joins CSS3's
    local moves = g:moves(1)
    local want = left > 0 and 1 or 0
    expect_eq(count(moves, "baobab"), want, "baobab")
    expect_eq(math.min(count(moves, "meeple"), 1), want, "meeple")
    expect_eq(math.min(count(moves, "hole"), 1), want, "hole")
    expect_true(count(moves, "vehicle") > 0 and count(moves, "pass") == 1, "a vehicle move or nothing is always possible")
  end
end)
