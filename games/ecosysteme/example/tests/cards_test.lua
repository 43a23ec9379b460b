-- Scenario tests of {{name}}: one per card, the points worked out by hand.
local testing = require("ecosysteme.testing")
local M, R, I, E, W, C = "meadow", "marmot", "ibex", "eagle", "edelweiss", "chamois"
-- Checks the card rows; a row it does not list (harmony) counts in the total as it is.
local expect_line = testing.line_checker({ "meadow", "marmot", "ibex", "eagle", "edelweiss", "chamois" })

test("marmot: 2 per meadow next to it", function()
  local g = board{ { name = "A", grid = { { M, R, M }, { R, M, R } } } }
  -- Marmot (0,1): meadows (0,0), (0,2), (1,1) = 6; marmots (1,0) and (1,2): 2 meadows, 4 each.
  -- Meadows: three groups of one = 3.
  expect_line(g, "A", { meadow = 3, marmot = 14 })
end)

test("eagle: turns the meadows next to it face down, 1 each; they feed no marmot", function()
  local g = board{ { name = "A", grid = { { R, M, E }, { M, M, M } } } }
  -- Eagle (0,2) turns (0,1) and (1,2) over: eagle 2. Marmot (0,0): (0,1) is down, (1,0) up = 2.
  -- Face-up meadows: (1,0), (1,1) form one group of 2 = 3.
  expect_line(g, "A", { meadow = 3, marmot = 2, eagle = 2 })
end)

test("ibex: the most ibexes 8, the second most 4", function()
  -- One grid per seat, scored together; the ibex row seat by seat. Three ibexes, two, one,
  -- none: 8, 4, nothing, nothing.
  expect_eq(testing.category_by_seat({ { { I, I, I } }, { { I, I } }, { { I } }, { { M } } }, "ibex"), { 8, 4, 0, 0 })
end)

test("edelweiss: 2 per row and per column holding one", function()
  local g = board{ { name = "A", grid = { { W, M, W }, { M, W, M } } } }
  -- Edelweiss in rows 0 and 1, columns 0, 1 and 2: 5 lines = 10. Meadows: three groups of one = 3.
  expect_line(g, "A", { meadow = 3, edelweiss = 10 })
end)

test("chamois: 5 per chamois alone in its row", function()
  local g = board{ { name = "A", grid = { { C, M, C }, { C, M, M } } } }
  -- Row 0 holds two chamois (neither alone), row 1 one: 5. Meadows (0,1), (1,1), (1,2): a group of 3 = 6.
  expect_line(g, "A", { meadow = 6, chamois = 5 })
end)

test("harmony: 3 per card row worth 4 or more, majority points included", function()
  local g = board{ { name = "A", grid = { { R, M, R }, { M, I, I } } }, { name = "B", grid = { { M, I } } } }
  local expect_all = testing.line_checker()   -- every row, harmony included
  -- A: meadows (0,1) and (1,0), two groups of 1 = 2; marmots 2 x 2 + 2 x 1 = 6; ibexes: the
  -- most, 8. Rows of 4 or more: marmot, ibex = 6. B: meadow 1, ibex second = 4: harmony 3.
  expect_all(g, "A", { meadow = 2, marmot = 6, ibex = 8, harmony = 6 })
  expect_all(g, "B", { meadow = 1, ibex = 4, harmony = 3 })
end)
