-- Scenario tests of the api-draft-example fixture: the draft configuration, setup on zones,
-- on_place, after_draft with questions, grid reads (in score) and grid writes (the probe
-- move), grid views, and board{} scoring. They check the examples of scripting/README.md.
-- Run: plateau test tests/data/games/api-draft-example

-- Plays the whole draft of a game with random picks (2 rounds of 3 picks per player).
local function draft_all(g, seed)
  local picks = 0
  while g.phase == "draft" do
    g:play_random(1, seed)
    picks = picks + 1
  end
  return picks
end

-- True when no face-up hen of the rows (from g:grid) is orthogonally next to a fox.
local function no_hen_beside_fox(rows)
  for r, row in ipairs(rows) do
    for c, card in ipairs(row) do
      if card == "hen" then
        for _, d in ipairs({ { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }) do
          local other = rows[r + d[1]]
          if other and other[c + d[2]] == "fox" then return false end
        end
      end
    end
  end
  return true
end

test("draft: 2 players get a neutral seat named by neutral_name; hands of `deal` cards", function()
  local g = new_game{ players = 2, seed = 3 }
  expect_eq(g.phase, "draft")
  expect_eq(g:to_move(), { 1, 2 })
  expect_eq(#g:zone("hand", 1), 4)
  expect_eq(#g:zone("hand", "Magpie"), 4, "seats may be named")
  expect_eq(g:moves(3), {}, "the neutral seat never moves")
  for _, m in ipairs(g:moves(1)) do
    expect_eq(m.type, "place")
    expect_eq(m.cell, { 0, 0 }, "the first card of an empty grid goes to {0, 0}")
  end
  local three = new_game{ players = 3, seed = 3, params = { deal = 3 } }
  expect_eq(#three:zone("hand", 1), 3, "ctx.params reaches game.draft")
end)

test("setup: zone handles draw, del, add, count, cards and shuffle", function()
  local z = new_game{ players = 2, seed = 3 }:data().zones
  expect_eq(z.before, 36 - 3 * 4, "three hands of 4 were dealt before setup ran")
  expect_eq(#z.burned, 2)
  expect_eq(z.removed, true)
  expect_eq(z.top_was_back, true, "add puts the card on top: cards() ends with it")
  expect_eq(z.after, z.before - 1)
  expect_eq(z.discard, 1)
  expect_eq(z.hand, 4)
  expect_true(z.hens_in_hand >= 0 and z.hens_in_hand <= 4)
  expect_eq(z.reshuffled, { deck = z.after + 1, discard = 0 }, "reshuffle_into moved the discard into the deck")
end)

test("draft: a solo schedule whose hand runs out is refused when the draft is configured", function()
  expect_error(function() new_game{ players = 1, seed = 1, params = { solo_hand = 5 } } end,
               "game.draft: solo: the hand runs out at turn 6 (hand 5, draw 1, draw_on_row 2)")
  -- The configuration is checked whatever the player count.
  expect_error(function() new_game{ players = 2, seed = 1, params = { solo_hand = 5 } } end, "the hand runs out")
  expect_eq(#new_game{ players = 1, seed = 1, params = { solo_hand = 7 } }:zone("hand", 1), 7)
end)

test("the draft ends after 6 picks each; on_place turned every hen beside a fox face down", function()
  for seed = 1, 12 do
    local g = new_game{ players = 3, seed = seed }
    expect_eq(draft_all(g, seed), 18)
    expect_eq(g.phase, "draft_done")
    for seat = 1, 3 do
      local rows = g:grid(seat)
      expect_eq({ #rows, #rows[1] }, { 2, 3 }, "a full 2 x 3 grid")
      expect_true(no_hen_beside_fox(rows), "seed " .. seed .. ", seat " .. seat)
    end
  end
end)

test("after_draft asks every player; answers use the cell and to fields", function()
  local g = new_game{ players = 2, seed = 5 }
  draft_all(g, 5)
  expect_eq(g:data().phase_after_draft, "draft_done")
  expect_eq(g:to_move(), { 1, 2 }, "both players were asked")
  local moves = g:moves(1)
  expect_eq(moves[1], { type = "keep" })
  expect_eq(moves[2].type, "swap")
  local rows = g:grid(1)
  g:play(1, moves[2])
  g:play(2, { type = "keep" })
  local after = g:grid(1)
  expect_eq({ after[1][1], after[1][2] }, { rows[1][2], rows[1][1] }, "the first two cards swapped")
  expect_eq(g:data().asked_as_answers_ran, { { 2 }, {} },
            "state:asked() as each answer ran: seat 2's answer, kept aside, had not run yet")
  expect_eq(g:to_move(), {}, "to_move returns no seat: the game is over")
end)

test("grid writes: del, move, add, set_face_down, can_place (the probe move)", function()
  local g = new_game{ players = 2, seed = 7, params = { demo = true } }
  draft_all(g, 7)
  g:play(1, { type = "keep" })
  g:play(2, { type = "keep" })
  expect_eq(g:to_move(), { 1 })
  local rows = g:grid(1)
  g:play(1, { type = "probe" })
  local p = g:data().probe
  expect_eq(p.deleted, p.first_two[1])
  expect_eq(p.del_empty, true, "del on an empty cell returns nothing")
  local rel, r0, c0 = p.relocations, p.top_left[1], p.top_left[2]
  expect_eq(rel.first, { type = "octopus", action = "move", cell = { r0, c0 + 1 }, to = { r0, c0 } },
            "the first card in reading order slides into the hole")
  expect_true(rel.count > 1)
  expect_eq(rel.skip, { type = "octopus", action = "skip" })
  expect_eq(rel.count_with_skip, rel.count + 1)
  expect_eq(rel.out_of_range, true)
  expect_true(rel.error:find("relocations needs type", 1, true), rel.error)
  expect_eq(p.can_place_hole, true)
  expect_eq({ p.can_place_above, p.why_not }, { false, "the grid would be taller than 2 rows" })
  expect_eq(p.after, { p.first_two[2], p.first_two[1] })
  expect_true(p.add_error:find("^games/api%-draft%-example/rules%.lua:%d+: cell %[%-?%d+, %-?%d+%] is occupied$"), p.add_error)
  expect_true(p.move_error:find("no card at", 1, true), p.move_error)
  expect_eq(p.far_count, 7, "add does not check the frame")
  expect_eq(p.far_down, true, "add's fifth argument places the card face down")
  expect_eq(p.far_rows, 5, "the snapshot covers the bounding box")
  expect_eq(p.flipped, true)
  expect_true(p.swap_error:find("swap needs two occupied cells", 1, true), p.swap_error)
  expect_true(p.bad_neighbors:find("bad argument #3 to 'neighbors' (invalid option 'knight')", 1, true), p.bad_neighbors)
  expect_true(p.bad_seat:find("bad argument #1 to 'grid' (seat 9 outside 1..3)", 1, true), p.bad_seat)
  expect_true(p.bad_card:find("bad argument #1 to 'count' (unknown card 'wolf' (the known card ids: fox, hen, tree, pond))", 1, true), p.bad_card)
  expect_true(p.far_add:find("cell coordinate %-500%d outside %-4096%.%.4096"), p.far_add)
  local after = g:grid(1)
  expect_eq(after[2], rows[2], "the bottom row is as it was")
  expect_eq({ after[1][1], after[1][2], after[1][3] }, { rows[1][2], rows[1][1], rows[1][3] })
end)

-- Scoring of fixed boards (board{} runs no on_place: every card is face up).
--   Ann: fox  hen  tree     Bob: pond hen  tree
--        tree tree pond          tree pond tree
local ANN = { { "fox", "hen", "tree" }, { "tree", "tree", "pond" } }
local BOB = { { "pond", "hen", "tree" }, { "tree", "pond", "tree" } }

test("score: 2 per face-up hen, 3 per fed fox, largest tree group squared, 2 per tree diagonal to a pond", function()
  local g = board{ { name = "Ann", grid = ANN }, { name = "Bob", grid = BOB }, neutral = { hen = 2 } }
  -- Ann: hen 2; the fox's hen is face up: 0; trees {(1,0),(1,1)} and {(0,2)}: 2 * 2 = 4;
  -- the pond (1,2) has the hen (0,1) diagonal: 0.
  expect_score(g, "Ann", 6, { hen = 2, fox = 0, tree = 4, pond = 0 })
  -- Bob: hen 2; trees {(0,2),(1,2)} and {(1,0)}: 4; pond (1,1) has the tree (0,2) diagonal: 2.
  expect_score(g, "Bob", 8, { hen = 2, fox = 0, tree = 4, pond = 2 })
  local s = g:score()
  expect_eq(s[3], nil, "the neutral seat is not scored")
  expect_eq(s.extra.magpie_pile, 2)
end)

test("grid reads in score: count, bounds, snapshot, placeable, can_place, find, groups, neighbors", function()
  local g = board{ { name = "Ann", grid = ANN }, { name = "Bob", grid = BOB } }
  expect_eq(g:score().extra.grid, {
    count = 6, hens = 1, bounds = { 0, 1, 0, 2 },
    snap = { rows = 2, cols = 3, min_row = 0, min_col = 0, cells = 6 },
    placeable = 0, can_place = false, why_not = "cell is already occupied",
    trees = 3, tree_groups = 2, all_neighbors = 3,
    top_row = { { 0, 0, "fox" }, { 0, 1, "hen" }, { 0, 2, "tree" } },
    last_col = { { 0, 2, "tree" }, { 1, 2, "pond" } },
    corners = { 3, 2 },
  })
end)

-- Ann's grid as a view; dense indices i = r * cols + c + 1:
--   1 fox   2 hen   3 tree
--   4 tree  5 tree  6 pond
test("grid views: every query, the face-down overlay, and the state left untouched", function()
  local v = board{ { name = "Ann", grid = ANN }, { name = "Bob", grid = BOB } }:score().extra.view
  expect_eq(v.size, { 2, 3, 0, 0 })
  expect_eq(v.count, { 3, 2, 0 }, "trees; foxes and hens; face-down hens")
  expect_eq(v.pairs, { 2, 1, 2, 2, 1, 1, 0, 1 },
            "orthogonal, distance2, above, row, col, diagonal, all, below")
  expect_eq(v.touching, 1)
  expect_eq(v.distinct, 2, "the pond sees a hen and two trees: 2 kinds")
  expect_eq(v.groups, { 5, { 1, 2 } }, "1 + 4 points; sizes in order of their first cell")
  expect_eq(v.lines, { 2, 3 })
  expect_eq(v.cells, { 3, 4, 5 })
  expect_eq(v.around, { 2, 1 })
  expect_eq(v.cell, { 1, 2 })
  expect_eq(v.index, { 6 })
  expect_eq(v.get, { "hen", false })
  expect_eq(v.flipped, 1)
  expect_eq(v.get_after, { "hen", true })
  expect_eq(v.eaten_beside_fox, 1)
  expect_eq({ v.trees_up, v.trees_up_again }, { 2, 3 })
  expect_eq(v.grid_hen_down, false, "the view's overlay did not change the state")
  expect_eq(v.fox_down, { 1, 0, 1 }, "a face-down fox: counted by default, not with cards_face 'up', counted with 'down'")
  expect_eq(v.ctx_view, v.grid_view, "ctx.view of the same cells and faces answers as grid:view()")
  expect_true(v.ctx_view_errors[1]:find("cells[2]: unknown card 'wolf'", 1, true), v.ctx_view_errors[1])
  expect_true(v.ctx_view_errors[2]:find("cells[1] must be a card id or false (an empty cell), not a number", 1, true),
              v.ctx_view_errors[2])
  expect_true(v.ctx_view_errors[3]:find("grid views are for grids of at most 256 cells", 1, true), v.ctx_view_errors[3])
  expect_true(v.bad_index:find("bad argument #1 to 'get' (cell index 7 outside 1..6)", 1, true), v.bad_index)
  expect_true(v.bad_adj:find("invalid option 'knight'", 1, true), v.bad_adj)
end)

test("compiled queries: entries with named fields give what the positional ones give", function()
  local q = board{ { name = "Ann", grid = ANN }, { name = "Bob", grid = BOB } }:score().extra.view.query
  expect_eq(q.positional, { 3, 1, 1, 2, 5, 5, 1, 3, 0 },
            "count, pairs, touching, distinct, groups, lines, flip, each, pairs of face-down foxes")
  expect_eq(q.named, q.positional)
  expect_true(q.errors[1]:find("query entry #1 (each): unknown field 'neighbours' (its fields: cards, near, adj, face, base, per, floor, cards_face)", 1, true), q.errors[1])
  expect_true(q.errors[2]:find("query entry #1 (count): write every argument by name or none", 1, true), q.errors[2])
  expect_true(q.errors[3]:find("query entry #1: groups needs a points list", 1, true), q.errors[3])
end)

test("v:run on bit boards answers as v:explain's cell-by-cell walk: every entry, relation and face", function()
  local r = board{ { name = "Ann", grid = ANN }, { name = "Bob", grid = BOB } }:score().extra.view.run_vs_explain
  expect_eq(r.wrong, {}, "the first answers that differ")
  expect_true(r.compared > 25000, "answers compared: " .. r.compared)
end)

test("largest and touching_groups: the largest group's size, the sizes of the groups around each cell", function()
  local v = board{ { name = "Ann", grid = ANN }, { name = "Bob", grid = BOB } }:score().extra.view
  -- Ann's trees: one alone at (0, 2), two together at (1, 0) and (1, 1); her pond at (1, 2)
  -- touches both groups (1 + 2); diagonally it sees only the hen at (0, 1): no group.
  expect_eq(v.group_entries, { 2, 3, 0 }, "largest tree group, groups beside the pond, groups diagonal to it")
end)

test("v:explain: each entry's answer and the cells, groups and lines it counted, flips included", function()
  local q = board{ { name = "Ann", grid = ANN }, { name = "Bob", grid = BOB } }:score().extra.view.query
  local e = q.explained
  for k = 1, #q.positional do expect_eq(e[k].n, q.positional[k], "entry #" .. k .. ": the answer v:run gives") end
  -- {r =, c =, n =} in grid coordinates: each cell of `cards` and what it adds.
  local function cell(r, c, n, size) return { r = r, c = c, n = n, size = size } end
  expect_eq(e[1].items, { cell(0, 2, 1), cell(1, 0, 1), cell(1, 1, 1) }, "count: each tree")
  expect_eq(e[2].items, { cell(0, 0, 1) }, "pairs: the fox sees one tree two cells away")
  expect_eq(e[3].items, { cell(0, 0, 1) }, "touching: the fox touches the hen")
  expect_eq(e[4].items, { cell(1, 2, 2) }, "distinct: the pond sees two kinds")
  expect_eq(e[5].items, { cell(0, 2, 1, 1), cell(1, 0, 4, 2) }, "groups: first cell, points, size")
  expect_eq(e[6].items, { { row = 0, n = 1 }, { row = 1, n = 1 }, { col = 0, n = 1 }, { col = 1, n = 1 }, { col = 2, n = 1 } },
            "lines: rows, then columns")
  expect_eq(e[7].items, { cell(0, 1, 1) }, "flip_touching: the hen turned")
  expect_eq(e[8].items, { cell(0, 0, 3) }, "each: the fox's hen is face down after the flip: 3 - 3 * 0")
end)

test("grid views score like the handle loops (boards and random games)", function()
  local g = board{ { name = "Ann", grid = ANN }, { name = "Bob", grid = BOB } }
  local s = g:score()
  expect_eq(s.extra.by_view, { s[1].breakdown, s[2].breakdown })
  for seed = 1, 6 do
    local r = new_game{ players = 1 + seed % 4, seed = seed }
    r:play_random(nil, seed)
    s = r:score()
    for seat, b in pairs(s.extra.by_view) do expect_eq(b, s[seat].breakdown, "seed " .. seed .. ", seat " .. seat) end
  end
end)

test("solo: the opponent seat fills its grid with the gifts; g:force_deck fixes the next draw", function()
  local g = new_game{ players = 1, seed = 4 }
  expect_eq(g:to_move(), { 1 })
  expect_eq(#g:zone("hand", 1), 6)
  g:play(1, g:moves(1)[1])
  local gift = g:moves(1)[1]
  expect_eq(gift.type, "give")
  g:force_deck("deck", { "pond" })
  local before = g:zone("hand", 1)
  g:play(1, gift)
  expect_eq(g:grid("Robot"), { { gift.card } }, "the first gift is the opponent's first cell")
  local hand = g:zone("hand", 1)
  expect_eq(#hand, #before, "one card given, one drawn")
  expect_eq(hand[#hand], "pond", "the forced card was drawn")
  g:play_random(nil, 2)
  expect_eq(g:to_move(), {})
  local s = g:score()
  expect_eq(s[2].name, "Robot")
end)

test("4 players: every grid fills and every seat is scored", function()
  local g = new_game{ players = 4, seed = 9 }
  g:play_random(nil, 4)
  expect_eq(g:to_move(), {})
  local s = g:score()
  for seat = 1, 4 do
    local b = s[seat].breakdown
    expect_eq(s[seat].total, b.hen + b.fox + b.tree + b.pond, "seat " .. seat)
  end
end)
