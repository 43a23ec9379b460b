-- Scoring tests of Ecosystem: one test or more per card type on hand-made 4 x 5 boards (row 0
-- is the top row), the stream and wolf majorities with their tie readings, and the gaps bonus
-- at every threshold with the 6+ penalty parameter. Every expected number is worked out by
-- hand in the comments next to the board, and every test pins the whole breakdown.
--
-- Filler: deer (D) is the quietest card: no other card looks at it, and a deer in every row
-- and column scores 18 (4 rows + 5 columns, x 2). A one-player board ranks first for streams
-- (8) and wolves (12) as soon as it has one. With 9 or more zero-scoring types the gaps score
-- -6, the default penalty.

local testing = require("ecosysteme.testing")   -- games/ecosysteme/ecosysteme/testing.lua

local M, S = "meadow", "stream"
local Be, Bz, T, E, R = "bear", "bee", "trout", "eagle", "rabbit"
local Dr, F, D, W = "dragonfly", "fox", "deer", "wolf"

local CATEGORIES = { "meadow", "stream", "bear", "bee", "trout", "eagle", "rabbit", "dragonfly",
                     "fox", "deer", "wolf", "gaps" }

-- The seat's whole line: every category not listed is 0 (`gaps` must be given), and the total
-- is their sum.
local expect_line = testing.line_checker(CATEGORIES, { "gaps" })

local copy = testing.copy_grid

---------------------------------------------------------------------------------------------
-- Card by card

test("meadow: each connected group scores 0 / 3 / 6 / 10 / 15 for 1 / 2 / 3 / 4 / 5+ cards", function()
  local g = board{
    { name = "groups of 1, 2, 3 and 4", grid = {
      { M, D, M, M, D },
      { D, D, D, D, M },
      { M, M, M, D, M },
      { D, D, M, D, M } } },
    { name = "two capped groups", grid = {
      { M, M, M, M, M },
      { D, D, D, D, D },
      { M, M, M, M, D },
      { M, M, D, D, D } } },
  }
  -- First: (0,0) alone = 0; (0,2)-(0,3) = 3; (1,4)-(2,4)-(3,4) = 6 ((0,3) and (1,4) only touch
  -- diagonally); (2,0)-(2,1)-(2,2)-(3,2) = 10. Meadow 19. Deer in rows 0-3 and columns 0-4 = 18.
  -- Zero-scoring types: 9 -> gaps -6.
  expect_line(g, "groups of 1, 2, 3 and 4", { meadow = 19, deer = 18, gaps = -6 })
  -- Second: the top row of 5 = 15; the 6-card group (2,0)-(2,3), (3,0), (3,1) = 15 (capped).
  -- Deer: rows 1, 2, 3 (row 0 has none) and all 5 columns (row 1) = 16.
  expect_line(g, "two capped groups", { meadow = 30, deer = 16, gaps = -6 })
end)

test("bear: 2 per orthogonally adjacent trout or bee; diagonal ones do not count", function()
  local g = board{
    { name = "A", grid = {
      { T,  Be, Bz, D, D },
      { D,  T,  Be, D, D },
      { Be, D,  D,  D, D },
      { Bz, D,  D,  D, D } } },
  }
  -- Bear (0,1): trout (0,0), bee (0,2), trout (1,1) = 3 -> 6.
  -- Bear (1,2): bee (0,2) above, trout (1,1) left (shared with the first bear) = 2 -> 4.
  -- Bear (2,0): bee (3,0) below = 1 -> 2; the trout (1,1) is diagonal and does not count.
  -- Bear 12. Trout (no stream, no dragonfly) 0, bees (no meadow) 0.
  -- Deer: rows 0-3; columns 0 (1,0), 1 (2,1), 2 (2,2), 3, 4 = 18. Gaps: 9 zero types -> -6.
  expect_line(g, "A", { bear = 12, deer = 18, gaps = -6 })
end)

test("bee: 3 per orthogonally adjacent meadow; two bees may share a meadow", function()
  local g = board{
    { name = "A", grid = {
      { M,  Bz, M, D,  D },
      { Bz, M,  D, D,  D },
      { D,  D,  D, Bz, D },
      { D,  D,  D, D,  D } } },
  }
  -- Bee (0,1): meadows (0,0), (0,2), (1,1) = 3 -> 9. Bee (1,0): meadows (0,0), (1,1) -> 6.
  -- Bee (2,3): none -> 0. Bee 15. The three meadows are single cards (bees between them) -> 0.
  -- Deer: rows 0-3; columns 0 (2,0), 1 (2,1), 2 (1,2), 3, 4 = 18. Gaps -6.
  expect_line(g, "A", { bee = 15, deer = 18, gaps = -6 })
end)

test("trout: 2 per orthogonally adjacent dragonfly or stream", function()
  local g = board{
    { name = "A", grid = {
      { S, T, Dr, D, D },
      { D, S, D,  D, D },
      { T, D, D,  D, D },
      { D, D, D,  D, D } } },
  }
  -- Trout (0,1): stream (0,0), dragonfly (0,2), stream (1,1) = 3 -> 6. Trout (2,0): none -> 0.
  -- Streams (0,0) and (1,1) touch only diagonally: largest stream 1, first of one -> 8.
  -- The dragonfly (0,2) touches no stream -> 0. Deer: rows 0-3; columns 0 (1,0), 1 (2,1),
  -- 2 (1,2), 3, 4 = 18. Nonzero: trout, stream, deer -> 8 gaps -> -6.
  expect_line(g, "A", { trout = 6, stream = 8, deer = 18, gaps = -6 })
end)

test("eagle: 2 per rabbit or trout among the 12 cells within Manhattan distance 2", function()
  local g = board{
    { name = "centre", grid = {
      { R, T, D, R, D },
      { D, R, E, D, D },
      { D, R, D, D, T },
      { T, D, R, D, R } } },
    { name = "corner", grid = {
      { E, D, R, D, D },
      { D, R, D, D, D },
      { R, D, D, D, D },
      { D, D, D, D, E } } },
  }
  -- Centre, eagle (1,2). Counted: rabbit (1,1) orthogonal; trout (0,1), rabbits (0,3) and (2,1)
  -- diagonal; rabbit (3,2) two cells straight down = 5 -> 10. Not counted: rabbit (0,0) and
  -- trout (2,4) (one row and two columns away: distance 3), trout (3,0) and rabbit (3,4)
  -- (distance 4). Rabbits 6 -> 6. Trout (no stream, no dragonfly) 0.
  -- Deer: rows 0-3; columns 0 (1,0), 1 (3,1), 2 (0,2), 3 (1,3), 4 (0,4) = 18. Gaps: 8 -> -6.
  expect_line(g, "centre", { eagle = 10, rabbit = 6, deer = 18, gaps = -6 })
  -- Corner, eagle (0,0): rabbit (1,1) diagonal, rabbits (0,2) and (2,0) two cells away = 3 -> 6.
  -- Eagle (3,4): nothing within 2 -> 0 (an eagle is no prey). Rabbits 3. Deer: rows 0-3;
  -- columns 0 (1,0), 1 (0,1), 2 (1,2), 3, 4 = 18. Gaps -6.
  expect_line(g, "corner", { eagle = 6, rabbit = 3, deer = 18, gaps = -6 })
end)

test("rabbit: 1 each", function()
  local g = board{
    { name = "A", grid = {
      { R, D, D, D, R },
      { D, R, D, D, D },
      { D, D, R, D, D },
      { D, D, D, R, D } } },
  }
  -- 5 rabbits -> 5. Deer: rows 0-3; columns 0 (1,0), 1, 2, 3, 4 (1,4) = 18. Gaps -6.
  expect_line(g, "A", { rabbit = 5, deer = 18, gaps = -6 })
end)

test("dragonfly: the size of each adjacent stream group, each group once per dragonfly", function()
  local g = board{
    { name = "three groups", grid = {
      { S,  S,  Dr, S, D },
      { Dr, S,  D,  S, D },
      { D,  Dr, D,  S, D },
      { D,  S,  D,  D, Dr } } },
    { name = "one group", grid = {
      { S, S,  S, Dr, D },
      { D, Dr, D, D,  D },
      { D, D,  D, D,  D },
      { D, D,  D, D,  Dr } } },
    { name = "no stream", grid = {
      { Dr, D, D, D, D },
      { D,  D, D, D, D },
      { D,  D, D, D, D },
      { D,  D, D, D, D } } },
  }
  -- Three groups: G1 = (0,0), (0,1), (1,1) (3); G2 = (0,3), (1,3), (2,3) (3); G3 = (3,1) (1).
  -- Dragonfly (0,2): G1 and G2 = 6. Dragonfly (1,0): G1 twice ((0,0) and (1,1)), once = 3.
  -- Dragonfly (2,1): G1 and G3 = 4. Dragonfly (3,4): no stream = 0. Dragonfly 13.
  -- The stream majority: "three groups" and "one group" both have a largest stream of 3: tied
  -- first, 8 each. Deer: rows 0-3; columns 0, 2, 3, 4 (column 1 has none) = 16. Gaps -6.
  expect_line(g, "three groups", { stream = 8, dragonfly = 13, deer = 16, gaps = -6 })
  -- One group (0,0)-(0,2) of 3: dragonflies (0,3) and (1,1) touch it = 3 + 3; (3,4) = 0.
  -- Deer: rows 0 (0,4), 1, 2, 3; columns 0 (1,0), 1 (2,1), 2, 3 (1,3), 4 = 18. Gaps -6.
  expect_line(g, "one group", { stream = 8, dragonfly = 6, deer = 18, gaps = -6 })
  -- No stream: the dragonfly scores 0, and so does the stream majority. Deer 18. Gaps: 10 -> -6.
  expect_line(g, "no stream", { deer = 18, gaps = -6 })
end)

test("fox: 3 unless orthogonally adjacent to a bear or a wolf", function()
  local g = board{
    { name = "A", grid = {
      { F, D, F, Be, D },
      { D, D, D, D,  D },
      { F, W, D, F,  D },
      { D, D, F, D,  Be } } },
  }
  -- Fox (0,0): deer only -> 3. Fox (0,2): bear (0,3) -> 0. Fox (2,0): wolf (2,1) -> 0.
  -- Fox (2,3): bear (3,4) is diagonal -> 3. Fox (3,2): wolf (2,1) is diagonal -> 3. Fox 9.
  -- One wolf, the only player -> 12. Bears (no trout, no bee) 0. Deer: rows 0-3; columns 0
  -- (1,0), 1, 2 (1,2), 3 (1,3), 4 = 18. Nonzero: fox, wolf, deer -> 8 gaps -> -6.
  expect_line(g, "A", { fox = 9, wolf = 12, deer = 18, gaps = -6 })
end)

test("deer: 2 per row and 2 per column holding at least one deer", function()
  -- Bear filler: no trout, bee or fox, so bears score 0.
  local g = board{
    { name = "L shape", grid = {
      { D, D, Be, Be, Be }, { D, Be, Be, Be, Be }, { Be, Be, Be, Be, Be }, { Be, Be, Be, Be, Be } } },
    { name = "single", grid = {
      { Be, Be, Be, Be, Be }, { Be, Be, Be, Be, Be }, { Be, Be, D, Be, Be }, { Be, Be, Be, Be, Be } } },
    { name = "spread", grid = {
      { D, Be, Be, Be, Be }, { Be, D, Be, Be, Be }, { Be, Be, D, Be, Be }, { Be, Be, Be, D, D } } },
    { name = "none", grid = {
      { Be, Be, Be, Be, Be }, { Be, Be, Be, Be, Be }, { Be, Be, Be, Be, Be }, { Be, Be, Be, Be, Be } } },
  }
  -- L shape: rows 0, 1 and columns 0, 1 -> 8 (three deer, two rows, two columns).
  expect_line(g, "L shape", { deer = 8, gaps = -6 })
  -- Single: one row and one column -> 4.
  expect_line(g, "single", { deer = 4, gaps = -6 })
  -- Spread: rows 0-3 and columns 0-4 -> 18.
  expect_line(g, "spread", { deer = 18, gaps = -6 })
  -- None: every type scores 0 (11 gaps) -> -6.
  expect_line(g, "none", { gaps = -6 })
end)

---------------------------------------------------------------------------------------------
-- Streams: the largest connected stream is compared, 8 for the largest, 5 for the second.

-- A deer grid whose top row starts with `n` streams (n <= 4): largest stream n, deer 18.
local function streams(n)
  return testing.with_first(testing.filled(D), n, S)
end

test("stream: the largest connected stream counts, not the number of streams", function()
  local g = board{
    { name = "A", grid = streams(4) },
    { name = "B", grid = {
      { S, S, S, D, D },
      { D, D, D, D, D },
      { S, S, S, D, D },
      { D, D, D, D, D } } },
    { name = "C", grid = streams(2) },
  }
  -- A: one stream of 4 -> first, 8. B: 6 streams, but in two groups of 3 -> second, 5.
  -- C: 2 -> third, nothing. Deer 18 everywhere; gaps -6 everywhere.
  expect_line(g, "A", { stream = 8, deer = 18, gaps = -6 })
  expect_line(g, "B", { stream = 5, deer = 18, gaps = -6 })
  expect_line(g, "C", { deer = 18, gaps = -6 })
end)

-- The stream points of each seat for the largest streams `sizes`, with `params`.
local function stream_points(sizes, params)
  local grids = {}
  for k, n in ipairs(sizes) do grids[k] = streams(n) end
  return testing.category_by_seat(grids, "stream", params)
end

test("stream ties, the simulator's reading: a tie for first pays 8 to all and no 5; a tie for second pays 5 to all", function()
  expect_eq(stream_points({ 4, 4, 3 }), { 8, 8, 0 }, "tie for first: no second place")
  expect_eq(stream_points({ 4, 4, 4, 1 }), { 8, 8, 8, 0 }, "three tied for first")
  expect_eq(stream_points({ 4, 3, 3 }), { 8, 5, 5 }, "tie for second")
  expect_eq(stream_points({ 3, 4, 2, 1 }), { 5, 8, 0, 0 }, "no tie")
  expect_eq(stream_points({ 2, 0, 0 }), { 8, 0, 0 }, "no stream, no place")
  expect_eq(stream_points({ 0, 0, 0 }), { 0, 0, 0 }, "nobody has a stream")
  expect_eq(stream_points({ 4, 4, 3 }, { stream_ties = "competition" }), { 8, 8, 0 }, "the default by name")
end)

test("stream_ties = dense: after a tie the next size still takes the next place", function()
  local dense = { stream_ties = "dense" }
  expect_eq(stream_points({ 4, 4, 3 }, dense), { 8, 8, 5 })
  expect_eq(stream_points({ 4, 4, 4, 1 }, dense), { 8, 8, 8, 5 })
  expect_eq(stream_points({ 4, 3, 3, 2 }, dense), { 8, 5, 5, 0 })
  expect_eq(stream_points({ 2, 0, 0 }, dense), { 8, 0, 0 })
  -- The wolf reading is a separate parameter.
  expect_eq(stream_points({ 4, 4, 3 }, { wolf_ties = "dense" }), { 8, 8, 0 })
end)

---------------------------------------------------------------------------------------------
-- Wolves: the wolf count is compared, 12 / 8 / 4 for the most / second / third.

-- A deer grid whose top row starts with `n` wolves (n <= 4): deer 18, nothing else.
local function wolves(n)
  return testing.with_first(testing.filled(D), n, W)
end

local function wolf_points(counts, params)
  local grids = {}
  for k, n in ipairs(counts) do grids[k] = wolves(n) end
  return testing.category_by_seat(grids, "wolf", params)
end

test("wolves: 12 / 8 / 4 for the most, second and third most wolves", function()
  local g = board{ { name = "A", grid = wolves(3) }, { name = "B", grid = wolves(2) },
                   { name = "C", grid = wolves(1) }, { name = "D", grid = wolves(0) } }
  expect_line(g, "A", { wolf = 12, deer = 18, gaps = -6 })
  expect_line(g, "B", { wolf = 8, deer = 18, gaps = -6 })
  expect_line(g, "C", { wolf = 4, deer = 18, gaps = -6 })
  expect_line(g, "D", { deer = 18, gaps = -6 })
end)

test("wolf ties, the simulator's reading (competition ranking)", function()
  -- Two tied for first: both 12, second place skipped, the next count takes 4.
  expect_eq(wolf_points({ 3, 3, 2, 1 }), { 12, 12, 4, 0 })
  -- Three or more tied for first: only 12s.
  expect_eq(wolf_points({ 2, 2, 2, 1 }), { 12, 12, 12, 0 })
  expect_eq(wolf_points({ 2, 2, 2, 2, 1, 1 }), { 12, 12, 12, 12, 0, 0 })
  -- One first and a tie for second: the tied players take 8, nobody takes 4.
  expect_eq(wolf_points({ 3, 2, 2, 1 }), { 12, 8, 8, 0 })
  -- A tie for third: both take 4.
  expect_eq(wolf_points({ 4, 3, 1, 1 }), { 12, 8, 4, 4 })
  -- Two tied for first and two tied at the next count: those take 4.
  expect_eq(wolf_points({ 3, 3, 1, 1 }), { 12, 12, 4, 4 })
  -- No wolves: 0, whatever the others have, and no place is taken.
  expect_eq(wolf_points({ 2, 0, 0 }), { 12, 0, 0 })
  expect_eq(wolf_points({ 0, 0, 0 }), { 0, 0, 0 })
  expect_eq(wolf_points({ 1, 1, 0 }), { 12, 12, 0 })
end)

test("wolf_ties = dense: the next different count takes the next place", function()
  local dense = { wolf_ties = "dense" }
  expect_eq(wolf_points({ 3, 3, 2, 1 }, dense), { 12, 12, 8, 4 })
  expect_eq(wolf_points({ 2, 2, 2, 1 }, dense), { 12, 12, 12, 8 })
  expect_eq(wolf_points({ 3, 2, 2, 1 }, dense), { 12, 8, 8, 4 })
  expect_eq(wolf_points({ 4, 3, 1, 1 }, dense), { 12, 8, 4, 4 })
  expect_eq(wolf_points({ 2, 0, 0 }, dense), { 12, 0, 0 })
  -- The stream reading is a separate parameter.
  expect_eq(wolf_points({ 3, 3, 2, 1 }, { stream_ties = "dense" }), { 12, 12, 4, 0 })
end)

---------------------------------------------------------------------------------------------
-- Gaps: the number of card types scoring 0 (absent types included), after the majorities.
-- 0-2 gaps -> 12, 3 -> 7, 4 -> 3, 5 -> 0, 6+ -> gap_penalty_6plus (-6 by default).

-- A one-player grid where all 11 types score:
--   meadow (0,0)-(0,1) = 3; streams (1,4)-(2,4), first of one = 8; bear (0,3): bee (0,2) and
--   trout (0,4) = 4; bee (0,2): meadow (0,1) = 3; trout (0,4): stream (1,4) = 2; eagle (1,2):
--   rabbit (2,2) (trout (0,4) is one row and two columns away: no) = 2; rabbit 1; dragonfly
--   (1,3): the stream group of 2 = 2; fox (1,1): meadow, deer, eagle around = 3; deer in rows
--   1-3 and columns 0-3 = 14; one wolf, first of one = 12. 54 points, no gap -> 12: 66.
local G0 = {
  { M, M, Bz, Be, T },
  { D, F, E,  Dr, S },
  { D, D, R,  D,  S },
  { D, D, D,  D,  W },
}
-- Each next grid replaces cards of the one before with deer.
local G1 = copy(G0); G1[2][2] = D              -- fox (1,1) -> deer: fox 0 (deer still 14)
local G2 = copy(G1); G2[2][4] = D              -- dragonfly (1,3) -> deer: dragonfly 0
local G3 = copy(G2); G3[4][5] = D              -- wolf (3,4) -> deer: wolf 0, deer column 4: 16
local G4 = copy(G3); G4[1][1] = D              -- meadow (0,0) -> deer: the last meadow is alone
                                               -- (0); deer row 0: 18; the bee keeps (0,1): 3
local G5 = copy(G4); G5[1][5] = D              -- trout (0,4) -> deer: trout 0, bear only has
                                               -- the bee: 2
local G6 = copy(G5); G6[2][5] = D; G6[3][5] = D   -- streams -> deer: stream 0
local G8 = copy(G6); G8[3][3] = D              -- rabbit -> deer: rabbit 0 and eagle 0

test("gaps: 0, 1 or 2 zero-scoring types -> 12", function()
  local g = board{ { name = "G0", grid = G0 } }
  expect_line(g, "G0", { meadow = 3, stream = 8, bear = 4, bee = 3, trout = 2, eagle = 2, rabbit = 1,
                         dragonfly = 2, fox = 3, deer = 14, wolf = 12, gaps = 12 })
  g = board{ { name = "G1", grid = G1 } }
  expect_line(g, "G1", { meadow = 3, stream = 8, bear = 4, bee = 3, trout = 2, eagle = 2, rabbit = 1,
                         dragonfly = 2, deer = 14, wolf = 12, gaps = 12 })
  g = board{ { name = "G2", grid = G2 } }
  expect_line(g, "G2", { meadow = 3, stream = 8, bear = 4, bee = 3, trout = 2, eagle = 2, rabbit = 1,
                         deer = 14, wolf = 12, gaps = 12 })
end)

test("gaps: 3 -> 7, 4 -> 3, 5 -> 0", function()
  local g = board{ { name = "G3", grid = G3 } }
  -- fox, dragonfly, wolf: 3 gaps.
  expect_line(g, "G3", { meadow = 3, stream = 8, bear = 4, bee = 3, trout = 2, eagle = 2, rabbit = 1,
                         deer = 16, gaps = 7 })
  g = board{ { name = "G4", grid = G4 } }
  -- + meadow: 4 gaps.
  expect_line(g, "G4", { stream = 8, bear = 4, bee = 3, trout = 2, eagle = 2, rabbit = 1, deer = 18, gaps = 3 })
  g = board{ { name = "G5", grid = G5 } }
  -- + trout: 5 gaps.
  expect_line(g, "G5", { stream = 8, bear = 2, bee = 3, eagle = 2, rabbit = 1, deer = 18, gaps = 0 })
end)

test("gaps: 6 or more -> gap_penalty_6plus, -6 by default, -5 when set", function()
  local g = board{ { name = "G6", grid = G6 }, { name = "G8", grid = G8 } }
  -- G6: + stream: 6 gaps. G8: + rabbit and eagle: 8 gaps.
  expect_line(g, "G6", { bear = 2, bee = 3, eagle = 2, rabbit = 1, deer = 18, gaps = -6 })
  expect_line(g, "G8", { bear = 2, bee = 3, deer = 18, gaps = -6 })
  g = board{ { name = "G6", grid = G6 }, { name = "G8", grid = G8 }, { name = "G5", grid = G5 },
             params = { gap_penalty_6plus = -5 } }
  expect_line(g, "G6", { bear = 2, bee = 3, eagle = 2, rabbit = 1, deer = 18, gaps = -5 })
  expect_line(g, "G8", { bear = 2, bee = 3, deer = 18, gaps = -5 })
  -- 5 gaps are not affected by the parameter.
  expect_line(g, "G5", { stream = 8, bear = 2, bee = 3, eagle = 2, rabbit = 1, deer = 18, gaps = 0 })
  g = board{ { name = "all bears", grid = {
               { Be, Be, Be, Be, Be }, { Be, Be, Be, Be, Be }, { Be, Be, Be, Be, Be }, { Be, Be, Be, Be, Be } } },
             params = { gap_penalty_6plus = 0 } }
  -- 11 gaps: the whole score is the penalty.
  expect_line(g, "all bears", { gaps = 0 })
end)

test("gaps are counted after the majorities: a stream or a wolf that wins nothing is a gap", function()
  -- wolf_stream(w, s): w wolves at the start of row 0, a stream of s at the start of row 1,
  -- deer elsewhere (rows 0-3 and columns 0-4: 18).
  local function wolf_stream(w, s)
    local grid = streams(0)
    for c = 1, w do grid[1][c] = W end
    for c = 1, s do grid[2][c] = S end
    return grid
  end
  local g = board{ { name = "A", grid = G2 }, { name = "B", grid = wolf_stream(2, 3) },
                   { name = "C", grid = wolf_stream(3, 4) }, { name = "D", grid = wolf_stream(4, 1) } }
  -- Wolves: D 4 -> 12, C 3 -> 8, B 2 -> 4, A 1 -> 0. Streams: C 4 -> 8, B 3 -> 5, A 2 and D 1 -> 0.
  -- A (G2) had 2 gaps (fox, dragonfly); its stream and its wolf now score 0 too: 4 gaps -> 3.
  expect_line(g, "A", { meadow = 3, bear = 4, bee = 3, trout = 2, eagle = 2, rabbit = 1, deer = 14, gaps = 3 })
  expect_line(g, "B", { wolf = 4, stream = 5, deer = 18, gaps = -6 })
  expect_line(g, "C", { wolf = 8, stream = 8, deer = 18, gaps = -6 })
  expect_line(g, "D", { wolf = 12, deer = 18, gaps = -6 })
end)
