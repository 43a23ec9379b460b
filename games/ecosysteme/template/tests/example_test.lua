-- Scenario tests of {{name}}: each test builds a table (board{} for finished grids, new_game
-- for played games) and checks the score table card by card. Run them with
-- `plateau test {{id}}`. ecosysteme/testing.lua (the base's test helpers) builds boards and
-- checks whole score lines; add one test per card, with the points worked out by hand.

local testing = require("ecosysteme.testing")

local M = "meadow"
-- Checks the meadow row (and that the total is the sum of the rows). A row it does not list,
-- a card or a bonus row you add, counts in the total as it is, so this test holds while you
-- add cards. testing.line_checker() with no list checks every row, the unlisted ones at 0.
local expect_line = testing.line_checker({ "meadow" })

test("meadow: each connected group scores 1 / 3 / 6 / 10 for 1 / 2 / 3 / 4+ cards", function()
  local g = board{
    { name = "pair", grid = { { M, M } } },
    { name = "corner", grid = { { M, M }, { M } } },
    { name = "full", grid = testing.filled(M) },
  }
  expect_line(g, "pair", { meadow = 3 })      -- one group of 2
  expect_line(g, "corner", { meadow = 6 })    -- one group of 3
  expect_line(g, "full", { meadow = 10 })     -- one group of 20, capped at 10
end)

-- These two hold whatever the cards: they check the draft and the score table, not a card.
test("a played 2-player game: full grids, totals that add up, the neutral seat unscored", function()
  local g = new_game{ players = 2, seed = 1 }
  g:play_random()
  expect_eq(g:to_move(), {})
  local s = g:score()
  for seat = 1, 2 do
    expect_true(testing.full_grid(g, seat), "grid " .. seat .. " is full")
    expect_eq(s[seat].total, testing.line_sum(s[seat]), "seat " .. seat .. ": total = sum of the breakdown")
  end
  expect_eq(#g:zone("pile", 3), 20, "one neutral card per pick")
  expect_eq(s[3], nil, "the neutral seat is not scored")
end)

test("solo: Robot's grid is scored, and the result follows the margin and the targets", function()
  local g = testing.solo_scripted(1)
  expect_eq(g:score()[2].name, "Robot")
  testing.check_solo_targets(function(params) return testing.solo_scripted(1, params) end, 5, 10, 15)
end)
