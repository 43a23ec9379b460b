-- What a person reads in `plateau play safari`: the map (edges, animals, baobabs, vehicles,
-- open spaces), the meeples on features, the watering holes, each player's pieces, whose turn
-- it is, what the last scoring gave and why, and each move's description.

local T = require("safari.testing")
local place = T.place

local function game()
  local g = new_game{ players = 2, seed = 1 }
  g:set_data("markers", { { "lion" }, { "zebra" } })
  return g
end

local function has(text, piece) expect_true(text:find(piece, 1, true) ~= nil, "the view shows: " .. piece) end

test("the start of the game: the three start squares, both vehicles, open spaces, the pieces", function()
  local g = game()
  g:set_data("tile", "CS1")
  local v = g:view()
  has(v, ".....  .....  .###. ")             -- the top edges of CSS1, CSS2, CSS3 (bush north)
  has(v, ".E    ..G    ..M    =")            -- the middle row: CSS1 elephant, CSS2 giraffe, CSS3 monkey, trail east
  has(v, " [V1]  ")
  has(v, " [V2]  ")
  has(v, "  ( )  ")
  has(v, "P1: 6 meeple(s), markers: lion")
  has(v, "P2: 6 meeple(s), markers: zebra")
  has(v, "P1 to play, place; tile: CS1; 71 tile(s) in the bag")
  has(v, "legend: . savanna  = trail  # bush")
end)

test("meeples on features, holes and the last scoring are listed with their reasons", function()
  local g = game()
  place(g, 1, "CS18-EL", 1, 0)
  g:play(1, { type = "meeple", segment = 1 })
  g:play(1, g:moves(1)[2])                 -- boost with the lion
  local v = g:view()
  has(v, "last turn:")
  has(v, "P1 scores a completed trail: 2 species + 1 by a marker = 6")
  place(g, 2, "CS30-G", 1, -1, 90)
  g:play(2, { type = "meeple", segment = 1 })
  v = g:view()
  has(v, "meeples on trails and bushes:")
  has(v, "bush 1 on [0,-1] [1,-1]: P2 x1; species elephant,giraffe, 1 bird(s); 1 open end(s)")
  place(g, 1, "CS1", -1, 0)
  g:set_data("markers", { { "zebra" }, { "zebra" } })
  g:play(1, { type = "hole", cell = { 0, 0 }, corner = "NW", species = "zebra" })
  v = g:view()
  has(v, "watering holes:")
  has(v, "hole at corner 0,0: zebra by P1 (meeple)")
  has(v, "P1 starts a watering hole with a zebra: +3")
  has(v, "*")                              -- CS1's baobab
end)

test("each move says what it does", function()
  local g = game()
  g:set_data("tile", "CS4-M")
  expect_eq(g:describe(1, { type = "place", cell = { 0, 2 }, rotation = 0 }),
            "place CS4-M at [0, 2] turned 0° (captures vehicle 2: +3)")
  expect_eq(g:describe(1, { type = "place", cell = { -1, 0 }, rotation = 0 }), "place CS4-M at [-1, 0] turned 0°")
  place(g, 1, "CS18-EL", 1, 0)
  expect_eq(g:describe(1, { type = "meeple", segment = 1 }),
            "meeple on the trail (segment 1): 2 species so far, completed: scores this turn")
  expect_eq(g:describe(1, { type = "meeple", segment = 2 }), "meeple on the bush (segment 2): 1 species, 0 bird(s) so far, 1 open edge(s)")
  expect_eq(g:describe(1, { type = "hole", cell = { 0, 0 }, corner = "NW", species = "lion" }),
            "start a watering hole at the NW corner of [0, 0] with a lion and a meeple: +3")
  expect_eq(g:describe(1, { type = "extend", cell = { 0, 0 }, corner = "NW", species = "lion" }),
            "extend the watering hole at the NW corner of [0, 0] with a lion")
  expect_eq(g:describe(1, { type = "vehicle", vehicle = 1, cell = { 1, 1 } }), "move vehicle 1 to [1, 1]")
  expect_eq(g:describe(1, { type = "relocate", vehicle = 2, cell = { 1, 1 } }), "set down vehicle 2 to [1, 1]")
  expect_eq(g:describe(1, { type = "pass" }), "no action")
  expect_eq(g:describe(1, { type = "boost", feature = 1 }), "no boost")
  expect_eq(g:describe(1, { type = "boost", feature = 1, species = "lion" }),
            "boost with a lion marker (+1 species, for your score only)")
end)

test("stats: what the designer's report measures", function()
  local g = game()
  place(g, 1, "CS18-EL", 1, 0)
  g:play(1, { type = "meeple", segment = 1 })
  g:play(1, g:moves(1)[2])
  place(g, 2, "CS4-M", 0, 2)               -- captures vehicle 2
  g:play(2, { type = "relocate", vehicle = 2, cell = { 1, 1 } })
  g:play(2, { type = "pass" })
  local s = g:stats()
  expect_eq(s.counts["trails completed"], 1)
  expect_eq(s.counts["points per completed trail"], 6)
  expect_eq(s.counts["markers used to boost"], 1)
  expect_eq(s.counts["vehicle captures"], 1)
  expect_eq(s.players[1].boosts, 1)
  expect_eq(s.players[1]["scored:trail"], 1)
  expect_eq(s.players[1]["meeple:trail"], 1)
  expect_eq(s.players[2].captures, 1)
  expect_eq(s.players[2]["points:vehicles"], 3)
  expect_eq(s.rounds, 1)
  expect_eq(s.ending, "tiles exhausted")
end)
