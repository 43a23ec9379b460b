-- Scenario tests of {{name}}: each test builds a table (board{} for finished grids, new_game
-- for played games) and checks the score table card by card. Run them with
-- `plateau test {{id}}`. ecosysteme/testing.lua (the base's test helpers) builds boards and
-- checks whole score lines; add one test per card, with the points worked out by hand.

local testing = require("ecosysteme.testing")

local M = "meadow"
-- Every row of the line is checked, the ones a test does not list at 0. A card added later
-- scores 0 on these all-meadow boards, but a row that scores without its own card (a bonus
-- row set in `finish`, docs/modding.md section 5) scores here too: add its points to these
-- lines, or give line_checker the list of rows to check.
local expect_line = testing.line_checker()

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
