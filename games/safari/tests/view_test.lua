-- What a person reads in `plateau play safari`: the map (edges, animals on their features,
-- meeples, baobabs, vehicles, watering holes, where the tile fits, row and column labels), the
-- tile to place drawn in its rotations, every player's points, the meeples on features, the
-- watering holes named by their corners as the moves name them, whose turn it is, what the last
-- scoring gave and why; each move's words and its group for choosing in steps; a finished
-- 2-player map within 120 columns and 50 lines.

local T = require("safari.testing")
local place = T.place

local function game()
  local g = new_game{ players = 2, seed = 1 }
  g:set_data("markers", { { "lion" }, { "zebra" } })
  return g
end

local function has(text, piece) expect_true(text:find(piece, 1, true) ~= nil, "the view shows: " .. piece .. "\n" .. text) end

local function lines_of(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = line end
  return out
end

test("the start: the map with labels, the vehicles, where the tile fits, the tile in its rotations, the scores", function()
  local g = game()
  g:set_data("tile", "CS26-EG")
  local v = g:view(1)
  has(v, "The map after 3 tiles ([row, column]; 71 tile(s) left in the bag):\n       -2   -1   0    1    2\n")
  has(v, "   -1        ()   ()   ()\n")               -- where CS26 fits: above the start, below it and
  has(v, "           +----+----+####+\n")             -- on both vehicles; the start's north edges: CSS3's bush
  has(v, "    0  (V1)|e   |G   |M   =(V2)\n")        -- an elephant in CSS1's bush, giraffe and monkey on trails
  has(v, "           +####+-==-+----+\n")             -- CSS1's bush and CSS2's trail south
  has(v, "    1        ()   ()   ()\n")
  has(v, "Scores after 3 tiles:\n  P1 (you): 0 points (trails 0, bushes 0, holes 0, vehicles 0); 6 meeples; markers: lion\n"
         .. "  P2: 0 points")
  has(v, "P1 (you) to place CS26-EG: a trail W (elephant), a bush N-E (giraffe, 2 birds).\n  Its rotations where it fits:")
  -- Turned 0°: the bush N-E, the trail W; 90°: the trail N, the bush E-S; and so on.
  has(v, "      +####+   +-==-+   +----+   +####+\n      =Eg  #   |Eg  #   #Eg  =   #Eg  |\n"
         .. "      +----+   +####+   +####+   +-==-+")
  -- The view is the whole table: none of the host's own lines.
  expect_true(v:find("phase ", 1, true) == nil, v)
  for _, line in ipairs(lines_of(v)) do expect_true(#line <= 120, "over 120 columns: " .. line) end
end)

test("meeples, baobabs, holes and the last scoring are on the map and listed, corners named as in the moves", function()
  local g = game()
  place(g, 1, "CS18-EL", 1, 0)            -- trail N (elephant) into its bush E (lion)
  g:play(1, { type = "meeple", segment = 2 })
  place(g, 2, "CS1", -1, 0)
  g:play(2, { type = "hole", cell = { 0, 0 }, corner = "NW", species = "zebra" })
  place(g, 1, "CS6-M", -1, -1, 90)        -- a trail curving N-W, a baobab
  g:play(1, { type = "baobab" })
  local v = g:view(2)
  has(v, "   -1   () =*1M |*   |\n")          -- P1 lies on CS6's baobab; CS1's baobab; CS12 fits west
  has(v, "           +----o----+####+\n")       -- the hole at (0, 0), the NW corner of [0, 0]
  has(v, "    1           |El1 #\n")             -- CS18: the elephant's trail, P1 on the lion's bush
  has(v, "Meeples on trails and bushes:\n  the bush on [1, 0]: P1; lion, 0 birds; 1 open side")
  has(v, "Watering holes (o on the map, O complete):\n  1 of 4: zebra at the NW corner of [0, 0] (P2, with a meeple)")
  has(v, "  P2 (you): 3 points (trails 0, bushes 0, holes 3, vehicles 0)")
  has(v, "Last turn:\n  P1 lies a meeple on the baobab: 2 marker(s)")
  expect_eq(g:describe(2, { type = "extend", cell = { -1, -1 }, corner = "SE", species = "zebra" }),
            "extend the watering hole at the SE corner of [-1, -1] with a zebra")
end)

test("each move in words, grouped for choosing in steps: a cell then its rotations drawn, an action then its target", function()
  local g = game()
  g:set_data("tile", "CS4-M")
  local text, group, picture = g:describe(1, { type = "place", cell = { 0, 2 }, rotation = 0 })
  expect_eq(text, "place CS4-M at [0, 2] turned 0°: a trail E-W (monkey), a baobab; captures vehicle 2: +3")
  expect_eq(group, { "place the tile at [0, 2] (captures vehicle 2: +3)" })
  expect_eq(picture, "+----+\n=*M  =\n+----+")
  text, group, picture = g:describe(1, { type = "place", cell = { -1, 0 }, rotation = 90 })
  expect_eq(text, "place CS4-M at [-1, 0] turned 90°: a trail N-S (monkey), a baobab")
  expect_eq(picture, "+-==-+\n|*M  |\n+-==-+")
  expect_eq(group, { "place the tile at [-1, 0]" })
  place(g, 1, "CS18-EL", 1, 0)
  text, group = g:describe(1, { type = "meeple", segment = 1 })
  expect_eq(text, "a meeple on the trail N (elephant, giraffe): complete, scores this turn")
  expect_eq(group, { "put a meeple on this tile" })
  expect_eq(g:describe(1, { type = "meeple", segment = 2 }), "a meeple on the bush E (lion, 0 birds): 1 open side")
  expect_eq(g:describe(1, { type = "baobab" }), "a meeple lying on the baobab: 2 markers now, 2 more when 8 tiles surround it")
  text, group = g:describe(1, { type = "hole", cell = { 0, 0 }, corner = "NW", species = "lion" })
  expect_eq(text, "start a watering hole at the NW corner of [0, 0] with a lion and a meeple: +3")
  expect_eq(group, { "start a watering hole (a marker and a meeple: +3)", "on the tile at [0, 0]" })
  text, group = g:describe(1, { type = "vehicle", vehicle = 1, cell = { 1, 1 } })
  expect_eq(text, "move vehicle 1 to [1, 1]")
  expect_eq(group, { "move a vehicle (no points)", "vehicle 1" })
  expect_eq(g:describe(1, { type = "relocate", vehicle = 2, cell = { 1, 1 } }), "set vehicle 2 down at [1, 1]")
  expect_eq(g:describe(1, { type = "pass" }), "no action")
  expect_eq(g:describe(1, { type = "boost", feature = 1 }), "no boost")
  expect_eq(g:describe(1, { type = "boost", feature = 1, species = "lion" }),
            "boost with a lion marker (+1 species, for your score only)")
end)

test("a finished 2-player game: its map fits 120 columns and 50 lines, no line of the view is wider", function()
  for seed = 1, 6 do
    local g = new_game{ players = 2, seed = seed }
    g:play_random(nil, seed)
    expect_eq(g.phase, "over")
    local v = g:view()
    local map, in_map = 0, false
    for _, line in ipairs(lines_of(v)) do
      if line:find("^The map after") then in_map = true end
      if line:find("^Edges:") then in_map = false end
      if in_map then map = map + 1 end
      expect_true(#line <= 120, "seed " .. seed .. ": over 120 columns: " .. line)
    end
    expect_true(map <= 50, "seed " .. seed .. ": the map takes " .. map .. " lines")
    has(v, "The game is over: no tile left to draw.")
  end
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
