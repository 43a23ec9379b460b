-- The pure functions of the Écosystème base's modules (games/ecosysteme/ecosysteme/*.lua),
-- required straight from the test file: majorities and their tie readings, dense-grid
-- geometry, groups, rows and columns, the solo result and totals. The fixture's game tests
-- (game_test.lua) check the modules that need a game.

local majority = require("ecosysteme.majority")
local grid = require("ecosysteme.grid")
local table_score = require("ecosysteme.score")
local draft = require("ecosysteme.draft")

---------------------------------------------------------------------------------------------
-- Majorities

test("majority: places 1, 2, 3 pay the table; a count of 0 or nil takes no place", function()
  expect_eq(majority.points({ 4, 3, 2, 1 }, 4, { 12, 8, 4 }), { 12, 8, 4, 0 })
  expect_eq(majority.points({ 0, 2, 1 }, 3, { 5, 2 }), { 0, 5, 2 }, "no place for 0, and nobody is pushed down")
  expect_eq(majority.points({ 2, nil, 1 }, 3, { 5, 2 }), { 5, 0, 2 }, "a seat without a count (nil)")
  expect_eq(majority.points({ 0, 0 }, 2, { 5, 2 }), { 0, 0 })
  expect_eq(majority.rank({ 3, 0 }, 2, 2), nil)
end)

test("majority ties, competition (default): tied seats share a place and fill as many", function()
  expect_eq(majority.points({ 5, 5, 3 }, 3, { 12, 8, 4 }), { 12, 12, 4 })
  expect_eq(majority.points({ 5, 5, 5, 3 }, 4, { 12, 8, 4 }), { 12, 12, 12, 0 })
  expect_eq(majority.points({ 5, 3, 3, 1 }, 4, { 12, 8, 4 }, "competition"), { 12, 8, 8, 0 })
  expect_eq(majority.points({ 3, 3, 1, 1 }, 4, { 12, 8, 4 }), { 12, 12, 4, 4 })
  expect_eq(majority.points({ 4, 4, 3 }, 3, { 8, 5 }), { 8, 8, 0 })
end)

test("majority ties, skip_one: after a tie only the one next place goes unpaid", function()
  expect_eq(majority.points({ 5, 5, 5, 3 }, 4, { 12, 8, 4 }, "skip_one"), { 12, 12, 12, 4 })
  expect_eq(majority.points({ 5, 5, 3 }, 3, { 12, 8, 4 }, "skip_one"), { 12, 12, 4 })
  expect_eq(majority.points({ 5, 3, 3, 1 }, 4, { 12, 8, 4 }, "skip_one"), { 12, 8, 8, 0 })
  expect_eq(majority.rank({ 6, 6, 6, 6, 2 }, 5, 5, "skip_one"), 3)
end)

test("majority ties, dense: the next different count takes the next place", function()
  expect_eq(majority.points({ 3, 3, 2, 1 }, 4, { 12, 8, 4 }, "dense"), { 12, 12, 8, 4 })
  expect_eq(majority.points({ 4, 4, 4, 1 }, 4, { 8, 5 }, "dense"), { 8, 8, 8, 5 })
  expect_eq(majority.points({ 4, 3, 3, 2 }, 4, { 8, 5 }, "dense"), { 8, 5, 5, 0 })
end)

test("majority: an unknown tie reading is an error that names it", function()
  expect_error(function() majority.points({ 2, 1 }, 2, { 5, 2 }, "shared") end, "unknown tie reading 'shared'")
end)

---------------------------------------------------------------------------------------------
-- Dense grids

test("grid.shape: orthogonal neighbours in reading order, 0-based rows and columns", function()
  local s = grid.shape(4, 5)
  expect_eq(s.orth[1], { 2, 6 }, "top-left corner: right, down")
  expect_eq(s.orth[7], { 2, 6, 8, 12 }, "(1,1): up, left, right, down")
  expect_eq(s.orth[20], { 15, 19 }, "bottom-right corner: up, left")
  expect_eq({ s.row[7], s.col[7], s.row[20], s.col[20] }, { 1, 1, 3, 4 })
  expect_true(grid.shape(4, 5) == s, "cached per shape")
end)

test("grid.cell_of and down_flags follow a snapshot's frame", function()
  local snap = { rows = 2, cols = 3, min_row = -1, min_col = 2, down = { [2] = true, [6] = true } }
  expect_eq(grid.cell_of(snap, 1), { -1, 2 })
  expect_eq(grid.cell_of(snap, 6), { 0, 4 })
  expect_eq(grid.down_flags(snap, {}), { false, true, false, false, false, true })
end)

-- A 4 x 5 board as dense cells:
--   K K . K K      K krill, T turtle, . anything else
--   . . . . K
--   K T . T .
--   T . . . .
local CELLS = { "K", "K", "x", "K", "K",
                "x", "x", "x", "x", "K",
                "K", "T", "x", "T", "x",
                "T", "x", "x", "x", "x" }

test("grid.members: face-up cells of a set, as a member array and a list", function()
  local down = { [4] = true }
  local member, list = {}, { 99, 98, 97, 96, 95, 94, 93 }   -- stale entries are cleared
  expect_eq(grid.members(CELLS, down, 20, { K = true }, member, list), 5)
  expect_eq(list, { 1, 2, 5, 10, 11 })
  expect_eq({ member[1], member[3], member[4], member[10] }, { true, false, false, true })
  expect_eq(grid.members(CELLS, nil, 20, { K = true }, member, list), 6, "no down flags: all face up")
end)

test("grid.label_groups and group_points: orthogonal groups, points capped at the last entry", function()
  local member, list, label, size = {}, {}, {}, {}
  grid.members(CELLS, nil, 20, { K = true }, member, list)
  local groups = grid.label_groups(member, list, 4, 5, label, size)
  -- (0,0)-(0,1) = 2; (0,3)-(0,4)-(1,4) = 3; (2,0) = 1.
  expect_eq(groups, 3)
  expect_eq({ size[1], size[2], size[3] }, { 2, 3, 1 })
  expect_eq({ label[1], label[2], label[4], label[5], label[10], label[11] }, { 1, 1, 2, 2, 2, 3 })
  expect_eq(grid.group_points(size, groups, { 1, 4, 9 }), 4 + 9 + 1)
  expect_eq(grid.group_points(size, groups, { 1, 3 }), 3 + 3 + 1, "a group past the table takes its last entry")
end)

test("grid.adjacent_groups: each group next to a cell once, with its size", function()
  local member, list, label, size = {}, {}, {}, {}
  grid.members(CELLS, nil, 20, { K = true }, member, list)
  grid.label_groups(member, list, 4, 5, label, size)
  local s = grid.shape(4, 5)
  expect_eq({ grid.adjacent_groups(member, label, size, s, 3) }, { 2, 2 + 3 }, "(0,2): both top groups")
  expect_eq({ grid.adjacent_groups(member, label, size, s, 9) }, { 1, 3 }, "(1,3): the 3-group twice, once")
  expect_eq({ grid.adjacent_groups(member, label, size, s, 18) }, { 0, 0 }, "(3,2): none")
end)

test("grid.line_counts: per row and per column, and how many hold one", function()
  local member, list, rows, cols = {}, {}, {}, {}
  grid.members(CELLS, nil, 20, { T = true }, member, list)
  -- turtles at (2,1), (2,3), (3,0): rows 2, 3 and columns 0, 1, 3
  expect_eq({ grid.line_counts(list, 4, 5, rows, cols) }, { 2, 3 })
  expect_eq({ rows[0], rows[1], rows[2], rows[3] }, { 0, 0, 2, 1 })
  expect_eq({ cols[0], cols[1], cols[2], cols[3], cols[4] }, { 1, 1, 0, 1, 0 })
  expect_eq({ grid.line_counts({}, 4, 5, rows, cols) }, { 0, 0 }, "none")
end)

---------------------------------------------------------------------------------------------
-- Scores and the draft's constants

test("score.solo_result: reaching a target exactly counts", function()
  local p = { solo_target_easy = 55, solo_target_normal = 75, solo_target_hard = 85 }
  expect_eq(table_score.solo_result(85, p), "hard win")
  expect_eq(table_score.solo_result(84, p), "normal win")
  expect_eq(table_score.solo_result(75, p), "normal win")
  expect_eq(table_score.solo_result(55, p), "easy win")
  expect_eq(table_score.solo_result(54, p), "loss")
  expect_eq(table_score.solo_result(-10, p), "loss")
end)

test("score.total: the listed categories only, a missing one counting 0", function()
  expect_eq(table_score.total({ a = 3, b = 4, c = 100 }, { "a", "b", "d" }), 7)
end)

test("draft: the 4 x 5 frame in 2 rounds and the rulebooks' solo schedule", function()
  expect_eq({ draft.ROWS, draft.COLS, draft.ROUNDS }, { 4, 5, 2 })
  expect_eq({ draft.SOLO_HAND, draft.SOLO_DRAW, draft.SOLO_DRAW_ON_ROW }, { 10, 1, 5 })
end)

---------------------------------------------------------------------------------------------
-- Mistakes a variant makes with card ids are errors at the variant's own line (here, this
-- file's), followed by the base line that found them (ecosysteme.check).

local cards = require("ecosysteme.cards")

-- A ctx with only the card data these helpers read (the test VM has no game).
local CTX = { data = { cards = { ["$file"] = "games/t/data/cards.json", cards = {
  { id = "lion", kind = "animal", count = 3 }, { id = "gnu", kind = "animal", count = 2 },
  { id = "grass", kind = "terrain" },
} } } }

test("cards.without: an id not in the list is an error at the caller's line", function()
  expect_eq(cards.without({ "lion", "gnu" }, "gnu"), { "lion" })
  local ok, e = pcall(function() return cards.without({ "lion", "gnu" }, "lino") end)
  expect_eq(ok, false)
  expect_true(e:find("^games/ecosysteme%-base/tests/helpers_test%.lua:%d+: cards%.without: 'lino' is not in the list %(it holds lion, gnu%)"), e)
  expect_true(e:find("(found by games/ecosysteme/ecosysteme/cards.lua:", 1, true), e)
end)

test("cards.by_field: a field no card has, and a value no card has, are errors naming what exists", function()
  local by, none = cards.by_field(CTX, "kind")
  expect_eq(by.animal, { "lion", "gnu" })
  expect_eq(none, {})
  expect_error(function() return by.animl end, "cards.by_field: no card has kind 'animl' (the values: animal, terrain)")
  expect_error(function() return cards.by_field(CTX, "kidn") end,
               "helpers_test.lua:" )
  expect_error(function() return cards.by_field(CTX, "kidn") end,
               "cards.by_field: no card of games/t/data/cards.json has a field 'kidn'")
end)

test("cards.deck: a card without a count is refused naming the file and the card's JSON path", function()
  expect_error(function() return cards.deck(CTX) end, "games/t/data/cards.json: at /cards/2: card 'grass' has no count")
end)
