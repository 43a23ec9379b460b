-- Scoring tests of Écosystème – Océan on hand-made boards (board{}: finished grids, every card
-- face up, default parameters): one test or more per card type, the plankton majority and its
-- tie rule (neutral seat included), the food-chain groups and bonus, and the whales' flips
-- when no choice was recorded (the best flips for the grid's owner, searched exactly).
-- Fillers: a moray eel with no coral beside it scores nothing and nothing scores it; where a
-- moray would touch a coral, an octopus (3 points, no interaction) fills the cell instead.

local testing = require("ecosysteme.testing")   -- games/ecosysteme/ecosysteme/testing.lua

local C, K, P = "coral", "krill", "plankton"
local G, F, R = "grouper", "clownfish", "crab"
local E, S, W = "moray_eel", "shark", "whale"
local T, O = "sea_turtle", "octopus"
local M = E   -- filler

local CATEGORIES = { "coral", "krill", "plankton", "grouper", "clownfish", "crab", "moray_eel", "shark",
                     "whale", "food_chain_bonus", "sea_turtle", "octopus" }

-- The seat's whole line: every category not listed must be 0, and the total is the sum.
local expect_line = testing.line_checker(CATEGORIES)

local function fillers()
  return testing.filled(M)
end

-- A filler grid holding `n` plankton in its first cells (plankton score nothing by themselves).
local function planktons(n)
  return testing.with_first(fillers(), n, P)
end

---------------------------------------------------------------------------------------------
-- Producers

test("coral: 3 on the bottom row of the ecosystem, nothing anywhere else", function()
  local g = board{ { name = "A", grid = {
    { C, M, M, M, C },
    { M, M, M, M, M },
    { M, M, C, M, M },
    { C, M, M, M, C } } } }
  -- (3,0) and (3,4) are on the bottom row: 6. (0,0), (0,4) and (2,2) are not. The morays
  -- beside corals are fed but have no prey beside them: 0. Producers 6, no prey, no
  -- predators: the food-chain bonus is 0.
  expect_line(g, "A", { coral = 6 })
  expect_eq(g:score().extra.groups.A, { producer = 6, prey = 0, predator = 0 })
end)

test("krill: each connected group scores 1/4/9 for 1/2/3+ cards, at most 9 per group", function()
  local g = board{
    -- the rulebook's example: a group of 2 (4) and a group of 3 (9) = 13 ...
    { name = "two groups", grid = {
      { K, K, M, K, K },
      { M, M, M, M, K },
      { M, M, M, M, M },
      { M, M, M, M, M } } },
    -- ... and one krill joining them makes a single group of 6: 9.
    { name = "joined", grid = {
      { K, K, K, K, K },
      { M, M, M, M, K },
      { M, M, M, M, M },
      { M, M, M, M, M } } },
    { name = "singles", grid = {
      { K, M, K, M, K },
      { M, K, M, K, M },
      { K, M, K, M, K },
      { M, K, M, K, M } } },
  }
  expect_line(g, "two groups", { krill = 13 })
  expect_line(g, "joined", { krill = 9 })
  -- Ten krill touching only diagonally: ten groups of 1.
  expect_line(g, "singles", { krill = 10 })
end)

test("plankton: 12 / 8 / 4 for the most, second and third most; a fourth place scores nothing", function()
  local g = board{ { name = "A", grid = planktons(4) }, { name = "B", grid = planktons(3) },
                   { name = "C", grid = planktons(2) }, { name = "D", grid = planktons(1) } }
  expect_line(g, "A", { plankton = 12 })
  expect_line(g, "B", { plankton = 8 })
  expect_line(g, "C", { plankton = 4 })
  expect_line(g, "D", {})
end)

test("plankton tie for the most (the rulebook's example): both take 12, the next bank takes 4", function()
  local g = board{ { name = "A", grid = planktons(3) }, { name = "B", grid = planktons(3) },
                   { name = "C", grid = planktons(2) }, { name = "D", grid = planktons(1) } }
  expect_line(g, "A", { plankton = 12 })
  expect_line(g, "B", { plankton = 12 })
  expect_line(g, "C", { plankton = 4 })
  expect_line(g, "D", {})
end)

test("plankton tie for second: both take 8 and the third place is not awarded", function()
  local g = board{ { name = "A", grid = planktons(4) }, { name = "B", grid = planktons(2) },
                   { name = "C", grid = planktons(2) }, { name = "D", grid = planktons(1) } }
  expect_line(g, "A", { plankton = 12 })
  expect_line(g, "B", { plankton = 8 })
  expect_line(g, "C", { plankton = 8 })
  expect_line(g, "D", {})
end)

test("plankton: three tied for the most all take 12 and nobody else scores (default 'competition')", function()
  local g = board{ { name = "A", grid = planktons(2) }, { name = "B", grid = planktons(2) },
                   { name = "C", grid = planktons(2) }, { name = "D", grid = planktons(1) } }
  for _, name in ipairs({ "A", "B", "C" }) do expect_line(g, name, { plankton = 12 }) end
  expect_line(g, "D", {})
end)

test("plankton: at least one plankton is needed to rank, and a seat without any blocks nobody", function()
  local g = board{ { name = "none", grid = planktons(0) }, { name = "two", grid = planktons(2) },
                   { name = "one", grid = planktons(1) } }
  expect_line(g, "none", {})
  expect_line(g, "two", { plankton = 12 })
  expect_line(g, "one", { plankton = 8 })
end)

test("plankton with the neutral seat: its pile ranks like a seat but has no score line", function()
  -- Neutral 3 is first: A (2) second, B (1) third.
  local g = board{ { name = "A", grid = planktons(2) }, { name = "B", grid = planktons(1) },
                   neutral = { plankton = 3 } }
  expect_line(g, "A", { plankton = 8 })
  expect_line(g, "B", { plankton = 4 })
  expect_eq(g:score()[3], nil, "the neutral seat is not scored")
  -- Neutral ties A for the most: both rank first, the second place is skipped, B is third.
  g = board{ { name = "A", grid = planktons(2) }, { name = "B", grid = planktons(1) }, neutral = { plankton = 2 } }
  expect_line(g, "A", { plankton = 12 })
  expect_line(g, "B", { plankton = 4 })
  -- The neutral pile's other cards count for nothing; without plankton it takes no rank.
  g = board{ { name = "A", grid = planktons(2) }, { name = "B", grid = planktons(1) },
             neutral = { plankton = 0, coral = 5, krill = 9 } }
  expect_line(g, "A", { plankton = 12 })
  expect_line(g, "B", { plankton = 8 })
end)

---------------------------------------------------------------------------------------------
-- Prey

test("grouper: 3 per orthogonally adjacent krill, nothing for a diagonal one", function()
  local g = board{ { name = "A", grid = {
    { K, G, K, M, M },
    { M, K, M, G, M },
    { M, M, M, K, M },
    { G, M, M, M, M } } } }
  -- (0,1): krill left, right and below = 9. (1,3): the krill below = 3; (0,2) is diagonal.
  -- (3,0): none. Groupers 12. Krill: four single cards = 4 (the grouper splits them).
  -- Producers 4, prey 12, predators 0: bonus 0.
  expect_line(g, "A", { grouper = 12, krill = 4 })
end)

test("clownfish: 2 per adjacent plankton and 2 per adjacent coral", function()
  local g = board{ { name = "A", grid = {
    { P, F, C, P, M },
    { M, P, K, F, M },
    { M, M, M, M, M },
    { F, M, M, M, M } } } }
  -- (0,1): plankton (0,0), coral (0,2), plankton (1,1) = 6. (1,3): plankton (0,3) = 2; the
  -- coral (0,2) is diagonal. (3,0): nothing = 0. Clownfish 8. The coral is not on the bottom
  -- row (0). Three plankton, alone at the table: the most = 12. Krill (1,2) alone = 1.
  expect_line(g, "A", { clownfish = 8, plankton = 12, krill = 1 })
end)

test("crab: 2 per plankton in its row, none for plankton in its column", function()
  local g = board{ { name = "A", grid = {
    { R, P, P, M, R },
    { M, M, M, M, M },
    { R, M, M, M, M },
    { P, M, M, M, M } } } }
  -- (0,0) and (0,4): two plankton in row 0 = 4 each. (2,0): row 2 has none; (3,0) is in its
  -- column only = 0. Crabs 8; plankton 12 (most).
  expect_line(g, "A", { crab = 8, plankton = 12 })
end)

---------------------------------------------------------------------------------------------
-- Predators

test("moray eel: 4 per adjacent prey, only while adjacent to a coral (a diagonal coral does not count)", function()
  local g = board{ { name = "A", grid = {
    { G, E, F, O, M },
    { O, C, O, E, R },
    { M, C, M, M, M },
    { E, R, O, C, M } } } }
  -- (0,1): grouper and clownfish beside it, coral (1,1) below = 8.
  -- (1,3): the crab (1,4) beside it but no coral = 0.
  -- (3,0): the crab (3,1) beside it, the coral (2,1) only diagonal = 0.
  -- The other morays touch a coral but no prey, or prey but no coral = 0.
  -- Coral (3,3) is on the bottom row = 3; (1,1) and (2,1) are not. Octopuses 4 x 3 = 12.
  -- Producers 3, prey 0 (no krill, plankton), predators 8: bonus 0.
  expect_line(g, "A", { moray_eel = 8, coral = 3, octopus = 12 })
end)

test("shark: 2 per prey in its row and 2 per prey in its column; sharks share prey", function()
  local g = board{ { name = "A", grid = {
    { S, G, M, F, M },
    { R, M, M, M, M },
    { M, M, S, M, M },
    { G, M, F, M, S } } } }
  -- (0,0): row 0 grouper + clownfish, column 0 crab + grouper = 8.
  -- (2,2): row 2 nothing, column 2 the clownfish (3,2) = 2.
  -- (3,4): row 3 grouper + clownfish = 4, column 4 nothing. Sharks 14. The prey themselves
  -- score nothing here (no krill, plankton or coral).
  expect_line(g, "A", { shark = 14 })
  expect_eq(g:score().extra.groups.A, { producer = 0, prey = 0, predator = 14 })
end)

test("whale: 2 per krill in the ecosystem, after flipping a neighbour that costs nothing", function()
  local g = board{ { name = "A", grid = {
    { W, M, M, M, M },
    { M, M, K, M, M },
    { M, M, M, M, K },
    { M, M, M, M, M } } } }
  -- The whale must flip (0,1) or (1,0): two morays worth nothing. The first in reading order
  -- is kept among equals. Whale 2 x 2 krill = 4; krill 1 + 1.
  expect_line(g, "A", { whale = 4, krill = 2 })
  expect_eq(g:score().extra.whale_flips.A,
            { { whale = { 0, 0 }, cell = { 0, 1 }, card = "moray_eel", by = "search" } })
end)

test("whale without a recorded choice: the flip that maximises the total, even a krill that splits a group", function()
  local g = board{ { name = "A", grid = {
    { W, K, K, K, K },
    { O, K, M, M, M },
    { M, M, M, M, M },
    { M, M, M, M, M } } } }
  -- Five krill in one group = 9, whale 2 x 5 = 10, octopus 3: the whale must flip the krill
  -- (0,1) or the octopus (1,0).
  --   octopus: krill 9 + whale 10 = 19;
  --   krill (0,1): groups (1,1) = 1 and (0,2)-(0,4) = 9 -> krill 10, whale 2 x 4 = 8,
  --   octopus 3 = 21. The krill is the better flip.
  expect_line(g, "A", { krill = 10, whale = 8, octopus = 3 })
  expect_eq(g:score().extra.whale_flips.A,
            { { whale = { 0, 0 }, cell = { 0, 1 }, card = "krill", by = "search" } })
end)

test("whale: a flipped card is ignored by every scoring, the plankton comparison included", function()
  local g = board{
    { name = "A", grid = {
      { W, P, M, M, M },
      { P, M, M, M, P },
      { M, M, M, M, M },
      { M, M, M, M, M } } },
    { name = "B", grid = planktons(2) },
  }
  -- A's whale has only plankton beside it: one of A's three plankton is turned face down, so
  -- A has 2 face-up plankton and ties B for the most: 12 each. The whale has no krill: 0.
  expect_line(g, "A", { plankton = 12 })
  expect_line(g, "B", { plankton = 12 })
end)

test("two whales: the search tries every pair of flips (Eden's grid)", function()
  local g = board{ { name = "Eden", grid = {
    { K, K, K, W, O },
    { G, F, P, G, K },
    { K, P, R, W, C },
    { C, C, F, S, R } } } }
  -- Whale (0,3) may flip the krill (0,2) (-5 krill, -4 whales), the octopus (0,4) (-3) or the
  -- grouper (1,3) (-3 grouper, -3 bonus). Whale (2,3) may flip the grouper (1,3), the crab
  -- (2,2) (-2, -2 bonus), the coral (2,4) (off the bottom row, touching no clownfish or
  -- moray: -0) or the shark (3,3) (-6). Best: octopus and coral.
  -- Then: coral (3,0), (3,1) = 6 (bottom row); krill (0,0)-(0,2) = 9, (1,4) = 1, (2,0) = 1
  -- -> 11; plankton 2, alone at the table = 12; groupers (1,0): krill (0,0), (2,0) = 6,
  -- (1,3): krill (1,4) = 3 -> 9; clownfish (1,1): plankton (1,2), (2,1) = 4, (3,2): coral
  -- (3,1) = 2 -> 6; crab (2,2): plankton (2,1) in row 2 = 2, crab (3,4): none; shark (3,3):
  -- row 3 clownfish + crab, column 3 grouper = 6; whales 2 x 2 x 5 krill = 20.
  -- Producers 29, prey 17, predators 26: bonus 17. Total 29 + 17 + 26 + 17 = 89.
  expect_line(g, "Eden", { coral = 6, krill = 11, plankton = 12, grouper = 9, clownfish = 6, crab = 2,
                           shark = 6, whale = 20, food_chain_bonus = 17 })
  expect_eq(g:score().extra.whale_flips.Eden, {
    { whale = { 0, 3 }, cell = { 0, 4 }, card = "octopus", by = "search" },
    { whale = { 2, 3 }, cell = { 2, 4 }, card = "coral", by = "search" },
  })
end)

---------------------------------------------------------------------------------------------
-- Cards of no group

test("sea turtle: 2 per row and 2 per column holding one (the rulebook's 3 turtles on 2 columns and 3 rows = 10)", function()
  local g = board{
    { name = "example", grid = {
      { T, M, M, M, M },
      { M, M, T, M, M },
      { T, M, M, M, M },
      { M, M, M, M, M } } },
    { name = "spread", grid = {
      { T, M, M, M, M },
      { M, T, M, M, M },
      { M, M, T, M, M },
      { M, M, M, T, T } } },
    { name = "one line", grid = {
      { T, T, T, T, T },
      { M, M, M, M, M },
      { M, M, M, M, M },
      { M, M, M, M, M } } },
  }
  expect_line(g, "example", { sea_turtle = 10 })
  expect_line(g, "spread", { sea_turtle = 18 })     -- 4 rows + 5 columns
  expect_line(g, "one line", { sea_turtle = 12 })   -- 1 row + 5 columns
end)

test("octopus: 3 each", function()
  local g = board{ { name = "A", grid = {
    { O, M, M, M, M },
    { M, M, M, M, M },
    { M, M, O, M, M },
    { M, M, M, M, O } } } }
  expect_line(g, "A", { octopus = 9 })
end)

---------------------------------------------------------------------------------------------
-- Food chain

test("food chain: the bonus is the lowest of the producers, prey and predators totals", function()
  local g = board{ { name = "A", grid = {
    { K, K, K, G, M },
    { M, M, M, S, M },
    { M, M, M, M, M },
    { M, M, M, R, M } } } }
  -- Producers: krill group of 3 = 9. Prey: grouper beside the krill (0,2) = 3, crab 0.
  -- Predators: shark (1,3), column 3 grouper + crab = 4. Bonus = min(9, 3, 4) = 3.
  expect_line(g, "A", { krill = 9, grouper = 3, shark = 4, food_chain_bonus = 3 })
  expect_eq(g:score().extra.groups.A, { producer = 9, prey = 3, predator = 4 })
end)

test("food chain: sea turtles and octopuses belong to no group, and a missing group makes the bonus 0", function()
  local g = board{
    { name = "with turtles", grid = {
      { K, K, K, G, T },
      { M, M, M, S, M },
      { O, M, M, M, M },
      { M, M, M, R, M } } },
    { name = "no predators", grid = {
      { K, K, K, G, M },
      { M, M, M, M, M },
      { M, M, M, M, M },
      { M, M, M, R, M } } },
  }
  -- Same groups as above (the turtle (0,4) is not a prey for the shark's row 1 or column 3):
  -- bonus 3; turtle 4 and octopus 3 add only to the total.
  expect_line(g, "with turtles", { krill = 9, grouper = 3, shark = 4, food_chain_bonus = 3, sea_turtle = 4, octopus = 3 })
  expect_line(g, "no predators", { krill = 9, grouper = 3 })
end)

test("a one-player board has no solo result", function()
  local g = board{ { name = "alone", grid = planktons(1) } }
  expect_line(g, "alone", { plankton = 12 })
  expect_eq(g:score().extra.solo, nil, "no solo result without Tim")
end)
