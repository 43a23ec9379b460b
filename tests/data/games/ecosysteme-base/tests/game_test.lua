-- The Écosystème base's modules through the fixture game (../rules.lua): the draft table
-- (deal, passing, neutral hand, solo opponent), a score sheet, a majority with the neutral
-- pile and its tie parameter, face-down choices (recorded moves, the best choice searched two
-- ways), the assembled score table (every category, totals, extra, solo result), and the
-- test helpers of ecosysteme/testing.lua.

local testing = require("ecosysteme.testing")

local Mo, Fe, Fr, He, Ot = "moss", "fern", "frog", "heron", "otter"
local expect_line = testing.line_checker({ "moss", "fern", "frog", "heron", "otter" })

---------------------------------------------------------------------------------------------
-- The draft (ecosysteme/draft.lua)

test("draft: 10 cards to each hand, 2 rounds of 10 placed, passed left then right", function()
  local g = new_game{ players = 3, seed = 4 }
  local before = testing.hands(g, 3)
  for seat = 1, 3 do expect_eq(#before[seat], 10) end
  local picked = testing.first_picks(g, 3)
  expect_eq(testing.sorted(g:zone("hand", 2)), testing.without(before[1], picked[1]), "round 1: left")
  for _ = 2, 10 do testing.first_picks(g, 3) end
  before = testing.hands(g, 3)
  picked = testing.first_picks(g, 3)
  expect_eq(testing.sorted(g:zone("hand", 1)), testing.without(before[2], picked[2]), "round 2: right")
  g:play_random()
  for seat = 1, 3 do expect_true(testing.full_grid(g, seat), "grid " .. seat) end
  expect_eq(#g:zone("discard"), 0, "10 dealt, 10 placed")
end)

test("draft: hand_size (the base's parameter) deals more and discards the rest", function()
  local g = new_game{ players = 2, seed = 4, params = { hand_size = 12 } }
  expect_eq(#g:zone("hand", 1), 12)
  g:play_random(nil, 2)
  testing.answer_questions(g)
  expect_eq(#g:zone("discard"), 2 * 3 * 2, "2 leftovers in each of 3 hands, 2 rounds")
end)

test("draft: with 2 players a neutral hand rotates and drops a card on its pile at each pick", function()
  local g = new_game{ players = 2, seed = 7 }
  expect_eq(#g:zone("hand", 3), 10, "neutral hand")
  expect_eq(g:moves(3), {}, "the neutral seat never moves")
  testing.first_picks(g, 2)
  expect_eq(#g:zone("pile", 3), 1)
  g:play_random(nil, 3)
  testing.answer_questions(g)
  expect_eq(#g:zone("pile", 3), 20)
  expect_eq(g:score()[3], nil, "the neutral seat has no score line")
end)

test("draft: in solo, Bot's grid fills in reading order with the cards given", function()
  local g, gifts, before, after = testing.solo_scripted(5)
  expect_eq(g:score()[2].name, "Bot")
  local k = 0
  for _, row in ipairs(g:grid(2)) do
    for _, cell in ipairs(row) do
      k = k + 1
      expect_true(cell == gifts[k] or cell == "(" .. gifts[k] .. ")", "Bot's cell " .. k)
    end
  end
  expect_eq(testing.solo_draws(before, after), { 1, 1, 1, 1, 5, 1, 1, 1, 1, 5, 1, 1, 1, 1, 5, 1, 1, 1, 1 })
end)

---------------------------------------------------------------------------------------------
-- Scoring: the sheet and the assembled table (ecosysteme/scoring.lua, score.lua)

test("sheet: groups and lines, every category present and the total their sum", function()
  local g = board{ { name = "A", grid = {
    { Mo, Mo, Fe, Mo, Mo },
    { Fe, Mo, Fe, Fe, Mo },
    { Mo, Fe, Fe, Fe, Mo },
    { Fe, Fe, Fe, Fe, Mo } } } }
  -- Moss (0,0)-(0,1)-(1,1) = 6; (0,3)-(0,4)-(1,4)-(2,4)-(3,4) = 10 (capped); (2,0) = 1.
  -- Ferns in every row and in columns 0 to 3 (column 4 is all moss): 2 * (4 + 4) = 16. No
  -- animal: 0 each.
  expect_line(g, "A", { moss = 17, fern = 16 })
  local line = g:score()[1]
  expect_eq(line.breakdown, { moss = 17, fern = 16, frog = 0, heron = 0, otter = 0 }, "every category")
  expect_eq(g:score().extra, { eaten = 0 }, "the spec's extra")
end)

-- A fern grid with `n` frogs in its first cells.
local function frogs(n)
  return testing.with_first(testing.filled(Fe), n, Fr)
end

test("majority: 6 and 3 added to the frogs' own points, ties by frog_ties", function()
  expect_eq(testing.category_by_seat({ frogs(3), frogs(2), frogs(1) }, "frog"), { 3 + 6, 2 + 3, 1 })
  expect_eq(testing.category_by_seat({ frogs(3), frogs(3), frogs(1) }, "frog"), { 9, 9, 1 }, "competition")
  local skip = { frog_ties = "skip_one" }
  expect_eq(testing.category_by_seat({ frogs(3), frogs(3), frogs(3), frogs(1) }, "frog", skip), { 9, 9, 9, 1 })
  local dense = { frog_ties = "dense" }
  expect_eq(testing.category_by_seat({ frogs(3), frogs(3), frogs(1) }, "frog", dense), { 9, 9, 1 + 3 })
end)

test("majority: the neutral pile's frogs take a place but score nothing", function()
  local g = board{ { name = "A", grid = frogs(2) }, { name = "B", grid = frogs(1) }, neutral = { frog = 3, moss = 9 } }
  expect_line(g, "A", { fern = 18, frog = 2 + 3 })
  expect_line(g, "B", { fern = 18, frog = 1 })
  expect_eq(g:score()[3], nil)
end)

---------------------------------------------------------------------------------------------
-- Face-down choices (ecosysteme/facedown.lua, draft.ask_next)

-- Two herons and four frogs; an otter shares row 2 with the frog (2,0), two otters share
-- row 3 with the frog (3,1).
local POND = {
  { He, Fr, Mo, Mo, Fr },
  { He, Fe, Fe, Fe, Fe },
  { Fr, Ot, Fe, Fe, Fe },
  { Ot, Fr, Fe, Ot, Fe },
}

test("face down, unchosen: the herons eat the frogs worth most to the otters, both searches agree", function()
  for _, search in ipairs({ "additive", "exact" }) do
    local g = board{ { name = "A", grid = POND }, params = { prey_search = search } }
    -- Frog (3,1): 2 otters in its row = +4; frog (2,0): 1 otter = +2; the top-row frogs: 0.
    -- Eaten: (3,1) and (2,0). Otter (2,1): (2,0) face down = 2; otters (3,0) and (3,3): (3,1)
    -- face down = 2 + 2. Two face-up frogs left: 2 + 6 (alone at the table). Moss (0,2)-(0,3)
    -- = 3. Ferns: rows 1, 2, 3 and columns 1 to 4 = 14.
    expect_line(g, "A", { moss = 3, fern = 14, frog = 8, heron = 8, otter = 6 })
  end
end)

test("face down, chosen: a question after the draft, the answer recorded and scored", function()
  local g = testing.steer(testing.reading(POND), { max_seed = 300, spare_order = { Mo, Fe, Ot } })
  expect_eq(g.phase, "draft_done")
  expect_eq(g:grid(1), POND)
  -- Two herons, four face-up frogs: a choice. Bot's herons (if any) come after the player's.
  local moves = g:moves(1)
  expect_eq(moves[1], { type = "eat", grid = 1, cell = { 0, 1 } })
  expect_eq(#moves, 4)
  expect_illegal(g, 1, { type = "eat", grid = 1, cell = { 1, 1 } }, "not among")
  g:play(1, { type = "eat", grid = 1, cell = { 0, 1 } })
  expect_eq(g:data().eaten, { { grid = 1, cell = { 0, 1 } } })
  -- The second heron: three frogs left to choose from.
  expect_eq(#g:moves(1), 3)
  g:play(1, { type = "eat", grid = 1, cell = { 0, 4 } })
  testing.answer_questions(g)
  expect_eq(g:to_move(), {})
  -- The two top-row frogs eaten: no otter gains; frogs (2,0), (3,1) stay face up.
  local line = testing.line(g, 1)
  expect_eq({ line.breakdown.heron, line.breakdown.otter }, { 8, 0 })
end)

---------------------------------------------------------------------------------------------
-- The solo result (score.add_solo)

test("solo: the margin over Bot and the result follow the targets", function()
  testing.check_solo_targets(function(params) return testing.solo_scripted(11, params) end, 20, 30, 40)
end)

test("a one-player board has no solo result", function()
  local g = board{ { name = "alone", grid = frogs(1) } }
  expect_eq(g:score().extra.solo, nil)
end)
