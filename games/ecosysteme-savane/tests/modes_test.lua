-- Game-mode tests of Écosystème – Savane: the 2-player neutral hand, the solo mode against
-- Jhay (grid order, draw schedule, result), a 6-player game, illegal moves, the lions' prey
-- question asked after the draft, the elephant_floor parameter, and Jhay's lions and gazelles
-- in solo (the player answers for his lions; his gazelles take part in the majority).
-- Each hook sees the parameters of the game it is called for (ctx.params follows the state).

local testing = require("ecosysteme.testing")   -- games/ecosysteme/ecosysteme/testing.lua
local sorted, without, full_grid, line_sum = testing.sorted, testing.without, testing.full_grid, testing.line_sum

local W, P, T = "waterhole", "prairie", "tree"
local G, Z, Gi = "gazelle", "zebra", "giraffe"
local Ch, L, E, H = "cheetah", "lion", "elephant", "hyena"

-- Both players of a 2-player game make their first legal pick.
local function both_pick(g)
  local picked = testing.first_picks(g, 2)
  return picked[1], picked[2]
end

---------------------------------------------------------------------------------------------
-- Two players: the neutral seat

test("2 players: a third, neutral seat is dealt 11 cards, does not move, and has an empty pile", function()
  local g = new_game{ players = 2, seed = 7 }
  expect_eq(#g:zone("hand", 1), 11)
  expect_eq(#g:zone("hand", 2), 11)
  expect_eq(#g:zone("hand", 3), 11, "neutral hand")
  expect_eq(g:zone("pile", 3), {}, "neutral pile")
  expect_eq(g:to_move(), { 1, 2 })
  expect_eq(g:moves(3), {}, "the neutral seat has no moves")
end)

test("2 players: each pick moves one card of the neutral hand to its pile, and the three hands rotate", function()
  local g = new_game{ players = 2, seed = 7 }
  -- Round 1 passes left: seat 1 -> seat 2 -> neutral -> seat 1.
  local h1, h2, hn = g:zone("hand", 1), g:zone("hand", 2), g:zone("hand", 3)
  local c1, c2 = both_pick(g)
  local pile = g:zone("pile", 3)
  expect_eq(#pile, 1, "one neutral card per pick")
  expect_eq(sorted(g:zone("hand", 3)), without(h2, c2), "seat 2 passed its hand to the neutral seat")
  expect_eq(sorted(g:zone("hand", 1)), without(hn, pile[1]), "the neutral hand, less its card, went to seat 1")
  expect_eq(sorted(g:zone("hand", 2)), without(h1, c1), "seat 1 passed to seat 2")
  -- Finish round 1 (9 more picks of 2 moves): 10 cards in the pile, 3 leftovers discarded.
  g:play_random(18, 3)
  expect_eq(#g:zone("pile", 3), 10)
  expect_eq(#g:zone("discard"), 3, "each of the three hands discards its 11th card")
  -- Round 2 passes right: seat 1 now feeds the neutral seat.
  h1, h2, hn = g:zone("hand", 1), g:zone("hand", 2), g:zone("hand", 3)
  expect_eq({ #h1, #h2, #hn }, { 11, 11, 11 }, "new hands of 11")
  c1, c2 = both_pick(g)
  pile = g:zone("pile", 3)
  expect_eq(#pile, 11)
  expect_eq(sorted(g:zone("hand", 3)), without(h1, c1), "seat 1 passed its hand to the neutral seat")
  expect_eq(sorted(g:zone("hand", 2)), without(hn, pile[11]), "the neutral hand went to seat 2")
  expect_eq(sorted(g:zone("hand", 1)), without(h2, c2), "seat 2 passed to seat 1")
end)

test("2 players: the game ends with both grids full and 20 cards in the neutral pile", function()
  local g = new_game{ players = 2, seed = 21 }
  g:play_random(nil, 5)
  expect_eq(g:to_move(), {}, "nobody left to move (prey questions included)")
  expect_true(full_grid(g, 1) and full_grid(g, 2), "two full 4 x 5 grids")
  expect_eq(#g:zone("pile", 3), 20, "one neutral card for each of the 20 picks")
  expect_eq(#g:zone("hand", 3), 0)
  expect_eq(#g:zone("discard"), 6, "3 leftovers per round")
  local s = g:score()
  expect_true(s[1] and s[2], "both players are scored")
  expect_eq(s[3], nil, "the neutral seat is not scored")
  expect_eq(s[1].total, line_sum(s[1]))
  expect_eq(s[2].total, line_sum(s[2]))
end)

---------------------------------------------------------------------------------------------
-- Solo against Jhay

-- A solo game with a fixed policy (first legal place, then the first card of the sorted hand
-- as the gift); Jhay's lions are left to the score's best choice.
local function solo_scripted(seed, params)
  return testing.solo_scripted(seed, params)
end

test("solo: the player is dealt 10 cards, Jhay is seat 2 and every turn is a place then a give", function()
  local g = new_game{ players = 1, seed = 2 }
  expect_eq(#g:zone("hand", 1), 10)
  expect_eq(g:to_move(), { 1 })
  for _, m in ipairs(g:moves(1)) do expect_eq(m.type, "place") end
  g:play(1, g:moves(1)[1])
  expect_eq(g:to_move(), { 1 }, "still the player's turn")
  local moves = g:moves(1)
  expect_true(#moves > 0)
  for _, m in ipairs(moves) do expect_eq(m.type, "give") end
  expect_eq(g:moves(2), {}, "Jhay never moves")
end)

test("solo: Jhay's grid fills left to right, top to bottom, with the cards given", function()
  local g = new_game{ players = 1, seed = 4 }
  local gifts = {}
  for turn = 1, 3 do
    g:play(1, g:moves(1)[1])
    gifts[turn] = sorted(g:zone("hand", 1))[1]
    g:play(1, { type = "give", card = gifts[turn] })
  end
  expect_eq(g:grid(2), { { gifts[1], gifts[2], gifts[3] } }, "first three gifts on the top row")
  g, gifts = solo_scripted(4)
  local rows = g:grid(2)
  expect_eq(#rows, 4)
  local k = 0
  for r = 1, 4 do
    for c = 1, 5 do
      k = k + 1
      expect_eq(rows[r][c], gifts[k], "Jhay cell " .. r .. "," .. c .. " is gift " .. k)
    end
  end
  expect_true(full_grid(g, 1), "the player's grid is full too")
end)

test("solo: one card is drawn after each gift, five after each row Jhay completes: 41 cards in all", function()
  local g, _, before, after = solo_scripted(9)
  -- A turn takes two cards from the hand (one placed, one given), then draws.
  local draws = testing.solo_draws(before, after)
  expect_eq(draws, { 1, 1, 1, 1, 5, 1, 1, 1, 1, 5, 1, 1, 1, 1, 5, 1, 1, 1, 1 })
  expect_eq(before[1], 10)
  expect_eq(before[20], 3, "the last turn starts with 3 cards: place one, give one, one is left ...")
  expect_eq(after[20], 0, "... and nothing is drawn after Jhay's 20th card")
  local total = 10
  for _, d in ipairs(draws) do total = total + d end
  expect_eq(total, 41, "cards the player sees over the game")
  expect_eq(#g:zone("deck"), 132 - 41, "the deck gave exactly 41 cards")
  expect_eq(#g:zone("hand", 1), 0)
  expect_eq(#g:zone("discard"), 1, "... and discarded at the end")
end)

test("solo: the result in the score's extra follows the margin over Jhay and the three targets", function()
  -- Scripted play does not depend on the targets, so every game has the same grids.
  testing.check_solo_targets(function(params) return solo_scripted(13, params) end, 55, 75, 85)
end)

---------------------------------------------------------------------------------------------
-- Six players

test("6 players: the 132 cards deal exactly, and a random game runs to the end", function()
  local g = new_game{ players = 6, seed = 17 }
  expect_eq(#g:zone("deck"), 132 - 6 * 11)
  g:play_random(nil, 2)
  expect_eq(g:to_move(), {})
  expect_eq(#g:zone("deck"), 0, "6 players x 2 rounds x 11 cards = 132")
  local s = g:score()
  for seat = 1, 6 do
    expect_true(full_grid(g, seat), "grid " .. seat .. " is full")
    expect_eq(s[seat].total, line_sum(s[seat]), "seat " .. seat .. " total is the sum of its breakdown")
  end
end)

test("player counts and hand sizes the deck cannot serve are refused", function()
  expect_error(function() new_game{ players = 7, seed = 1 } end)
  expect_error(function() new_game{ players = 6, seed = 1, params = { hand_size = 12 } } end, "132 cards")
end)

---------------------------------------------------------------------------------------------
-- Illegal moves

test("illegal: a card not in the hand, an occupied cell, a cell that touches nothing, a second pick", function()
  local g = new_game{ players = 2, seed = 5 }
  both_pick(g)
  local card = g:zone("hand", 1)[1]
  expect_illegal(g, 1, { type = "place", card = card, cell = { 0, 0 } }, "already occupied")
  expect_illegal(g, 1, { type = "place", card = card, cell = { 2, 2 } }, "does not touch")
  expect_illegal(g, 1, { type = "place", card = card, cell = { 1, 1 } }, "does not touch")
  local held = testing.counts(g:zone("hand", 1))
  for _, id in ipairs({ W, P, T, G, Z, Gi, Ch, L, E, H, "vulture" }) do
    if not held[id] then
      expect_illegal(g, 1, { type = "place", card = id, cell = { 0, 1 } }, "not in the hand")
      break
    end
  end
  g:play(1, { type = "place", card = card, cell = { 0, 1 } })
  expect_illegal(g, 1, { type = "place", card = g:zone("hand", 1)[1], cell = { 1, 0 } }, "already chosen")
end)

test("illegal: placing outside the 4 x 5 frame, in either direction", function()
  local g = new_game{ players = 2, seed = 6 }
  -- Seat 1 builds a row of five, seat 2 a column of four.
  for k = 0, 4 do
    g:play(1, { type = "place", card = g:zone("hand", 1)[1], cell = { 0, k } })
    g:play(2, { type = "place", card = g:zone("hand", 2)[1], cell = { k < 4 and k or 0, k < 4 and 0 or 1 } })
  end
  local c1, c2 = g:zone("hand", 1)[1], g:zone("hand", 2)[1]
  expect_illegal(g, 1, { type = "place", card = c1, cell = { 0, 5 } }, "wider than 5 columns")
  expect_illegal(g, 1, { type = "place", card = c1, cell = { 0, -1 } }, "wider than 5 columns")
  expect_illegal(g, 2, { type = "place", card = c2, cell = { 4, 0 } }, "taller than 4 rows")
  expect_illegal(g, 2, { type = "place", card = c2, cell = { -1, 0 } }, "taller than 4 rows")
  -- Above the row and below the column are still open.
  expect_true(g:try_play(1, { type = "place", card = c1, cell = { -1, 2 } }), "seat 1 grows upwards")
  expect_true(g:try_play(2, { type = "place", card = c2, cell = { 2, 1 } }), "seat 2 grows sideways")
end)

test("illegal: a 'give' when a 'place' is expected and the other way round", function()
  local g = new_game{ players = 1, seed = 8 }
  local card = g:zone("hand", 1)[1]
  expect_illegal(g, 1, { type = "give", card = card }, "a 'place' move is expected")
  g:play(1, { type = "place", card = card, cell = { 0, 0 } })
  card = g:zone("hand", 1)[1]
  expect_illegal(g, 1, { type = "place", card = card, cell = { 0, 1 } }, "a 'give' move is expected")
  local g2 = new_game{ players = 2, seed = 8 }
  expect_illegal(g2, 1, { type = "give", card = g2:zone("hand", 1)[1] }, "a 'place' move is expected")
  expect_illegal(g2, 1, { type = "eat", grid = 1, cell = { 0, 0 } }, "a 'place' move is expected")
end)

---------------------------------------------------------------------------------------------
-- Steered solo games: the player's grid is laid out exactly as planned, in reading order
-- (testing.steer). Spares for Jhay: terrain first, no lions, gazelles last, so that Jhay's grid
-- asks few questions.

local function steered_solo(layout, params)
  return testing.steer(testing.reading(layout), {
    params = params, max_seed = 60, spare_order = { T, W, P, "vulture", Gi, H, E, Ch, Z, G } })
end

-- Answers every question still open with its first option (Jhay's lions, for instance).
local answer_rest = testing.answer_questions

-- Margot's grid from the rulebook's worked example (see margot_test.lua).
local MARGOT = {
  { Gi, W,  G,  L, H },
  { T,  Ch, P,  P, P },
  { G,  E,  W,  G, Z },
  { E,  T,  Gi, Z, P },
}

test("steering: a solo game lays out Margot's grid exactly", function()
  local g = steered_solo(MARGOT)
  expect_eq(g:grid(1), MARGOT)
  expect_eq(g.phase, "draft_done")
end)

test("lion choice: after the draft the player is asked which face-up prey her lion eats", function()
  local g = steered_solo(MARGOT)
  -- One hungry lion (0,3) next to the prairie (1,3); the cheetah has taken the gazelles (0,2)
  -- and (2,0), so the face-up prey are the gazelle (2,3) and the zebras (2,4) and (3,3).
  expect_eq(g:to_move(), { 1 })
  expect_eq(g:moves(1), {
    { type = "eat", grid = 1, cell = { 2, 3 } },
    { type = "eat", grid = 1, cell = { 2, 4 } },
    { type = "eat", grid = 1, cell = { 3, 3 } },
  })
  -- A hunted gazelle, a card that is no prey, and another seat's question are refused.
  expect_illegal(g, 1, { type = "eat", grid = 1, cell = { 0, 2 } }, "not among")
  expect_illegal(g, 1, { type = "eat", grid = 1, cell = { 1, 2 } }, "not among")
  expect_illegal(g, 2, { type = "eat", grid = 1, cell = { 2, 4 } })
end)

test("lion choice: the prey chosen changes the score, and the hyena's zebra is worth 3 more", function()
  local totals, hyena = {}, {}
  for _, cell in ipairs({ { 2, 3 }, { 2, 4 }, { 3, 3 } }) do
    local g = steered_solo(MARGOT)
    g:play(1, { type = "eat", grid = 1, cell = cell })
    expect_eq(g:data().eaten[1], { grid = 1, cell = cell }, "the choice is recorded")
    answer_rest(g)
    expect_eq(g:to_move(), {})
    local s = g:score()
    expect_eq(s[1].breakdown.lion, 4)
    totals[#totals + 1], hyena[#hyena + 1] = s[1].total, s[1].breakdown.hyena
  end
  -- Gazelle (2,3) or zebra (3,3): the hyena only has the hunted gazelle (0,2). Zebra (2,4): 6.
  expect_eq(hyena, { 3, 6, 3 })
  expect_eq(totals[2] - totals[1], 3)
  expect_eq(totals[2] - totals[3], 3)
  -- Scoring with no answer (before the question is answered) takes the best prey.
  local g = steered_solo(MARGOT)
  expect_eq(g:score()[1].total, totals[2], "unanswered: the best choice")
end)

test("lion choice: no question when every hungry lion has its prey without choosing", function()
  -- Margot's grid with the gazelle (2,3) and the zebra (3,3) turned into terrain: one prey left.
  local grid = {
    { Gi, W,  G,  L, H },
    { T,  Ch, P,  P, P },
    { G,  E,  W,  W, Z },
    { E,  T,  Gi, T, P },
  }
  local g = steered_solo(grid)
  for _, m in ipairs(g:moves(1)) do expect_true(m.grid ~= 1, "no question about the player's own grid") end
  answer_rest(g)
  for _, e in ipairs(g:data().eaten or {}) do expect_true(e.grid ~= 1, "nothing was chosen for the player's grid") end
  local s = g:score()
  expect_eq(s[1].breakdown.lion, 4, "the only prey is eaten")
  expect_eq(s[1].breakdown.hyena, 6, "it is the zebra (2,4)")
end)

---------------------------------------------------------------------------------------------
-- elephant_floor

-- The elephant (1,2) has four face-up animal neighbours that no predator takes:
-- 6 - 4 * 2 = -2 before the floor.
local CROWDED = {
  { P, P,  Gi, P,  P },
  { P, Gi, E,  Ch, P },
  { T, T,  H,  T,  T },
  { W, W,  W,  W,  W },
}

test("elephant_floor: one elephant scores no less than the floor (default 0, -2 lets it go negative)", function()
  local results = {}
  for _, case in ipairs({ { {}, 0 }, { { elephant_floor = -2 }, -2 }, { { elephant_floor = -8 }, -2 },
                          { { elephant_floor = 3 }, 3 } }) do
    local g = steered_solo(CROWDED, case[1])
    expect_eq(g:grid(1), CROWDED)
    answer_rest(g)
    local s = g:score()   -- scored before the next game is created (see the header)
    expect_eq(s[1].breakdown.elephant, case[2], "elephant with floor " .. tostring(case[1].elephant_floor))
    results[#results + 1] = s[1]
  end
  -- Nothing but the elephant changes: every other category and the total follow.
  for k = 2, #results do
    for cat, v in pairs(results[1].breakdown) do
      if cat ~= "elephant" then expect_eq(results[k].breakdown[cat], v, cat) end
    end
    expect_eq(results[k].total - results[1].total, results[k].breakdown.elephant - results[1].breakdown.elephant)
  end
end)

---------------------------------------------------------------------------------------------
-- Solo: Jhay's lions and Jhay's gazelles (README, house rules 4 and 5)
--
-- Forced solo games: before each turn the player's hand is set to exactly the card she places
-- and the card she gives (g:set_zone), so both grids are laid out as planned, Jhay's filling
-- in reading order as the rulebook's solo mode does. (The cards the draws bring are replaced
-- at the next turn; after Jhay's 20th card the hand is empty.)

local V = "vulture"

local function forced_solo(mine, jhay, params)
  local g = new_game{ players = 1, seed = 1, params = params }
  local plan, gifts = testing.reading(mine), testing.reading(jhay)
  for t = 1, #plan do
    g:set_zone("hand", 1, { plan[t].card, gifts[t].card })
    g:play(1, { type = "place", card = plan[t].card, cell = plan[t].cell })
    g:play(1, { type = "give", card = gifts[t].card })
  end
  return g
end

local function eat(grid, r, c) return { type = "eat", grid = grid, cell = { r, c } } end

-- Jhay's grid: one hungry lion (3,0) next to the prairie (3,1), no cheetah, three face-up prey,
-- each worth something different to Jhay once eaten:
--   zebra (1,0):    under the vulture (0,0) in column 0          -> vulture 4
--   gazelle (2,4):  beside the elephant (1,4), which then has no animal neighbour left -> 4 to 6
--   gazelle (3,2):  two cells left of the hyena (3,4)             -> hyena 3
-- The rest: trees in 4 rows and 5 columns 18, one prairie 1, 2 gazelles 4 + the majority 5
-- (the player has none), lion 4, elephant 4 (its one animal neighbour is the gazelle (2,4)).
-- Jhay: 18 + 1 + 9 + 4 + 4 = 36 before the prey, 40 / 38 / 39 after it.
local JHAY_LION = {
  { V, T, T, T, T },
  { Z, T, T, T, E },
  { T, T, T, T, G },
  { L, P, G, T, H },
}
local ONLY_TREES = testing.filled(T)   -- the player: trees only (18), no lion, no gazelle

test("solo, Jhay's lion: the solo player is asked which of Jhay's prey it eats (eat moves on grid 2)", function()
  local g = forced_solo(ONLY_TREES, JHAY_LION)
  expect_eq(g:grid(1), ONLY_TREES)
  expect_eq(g:grid(2), JHAY_LION, "Jhay's grid filled in reading order")
  expect_eq(g.phase, "draft_done")
  -- The player's grid has no lion: the only question is about Jhay's grid, asked to seat 1.
  expect_eq(g:to_move(), { 1 })
  expect_eq(g:moves(1), { eat(2, 1, 0), eat(2, 2, 4), eat(2, 3, 2) })
  expect_eq(g:moves(2), {}, "Jhay never moves")
  expect_illegal(g, 2, eat(2, 1, 0), "it is not")
  expect_illegal(g, 1, eat(2, 0, 0), "not among")   -- the vulture is no prey
  expect_illegal(g, 1, eat(1, 0, 0), "not among")   -- nothing to choose on the player's grid
end)

test("solo, Jhay's lion: the prey the player picks sets Jhay's score; unanswered, Jhay gets his best", function()
  local cases = {
    { eat(2, 1, 0), 40, { vulture = 4, elephant = 4, hyena = 0 } },
    { eat(2, 2, 4), 38, { vulture = 0, elephant = 6, hyena = 0 } },
    { eat(2, 3, 2), 39, { vulture = 0, elephant = 4, hyena = 3 } },
  }
  for _, case in ipairs(cases) do
    local g = forced_solo(ONLY_TREES, JHAY_LION)
    local move, total, carcass = case[1], case[2], case[3]
    g:play(1, move)
    expect_eq(g:data().eaten, { { grid = 2, cell = move.cell } }, "the choice is recorded for grid 2")
    expect_eq(g:to_move(), {}, "one lion, one question")
    local fixed = { tree = 18, prairie = 1, gazelle = 9, lion = 4 }
    for k, v in pairs(carcass) do fixed[k] = v end
    expect_score(g, "Jhay", total, fixed)
    expect_score(g, 1, 18, { tree = 18, gazelle = 0 })
    expect_eq(g:score().extra.margin, 18 - total)
  end
  -- Scored before the answer, Jhay's lion takes the prey best for Jhay (the zebra: 40), so an
  -- unanswered question never overstates the player's margin.
  local g = forced_solo(ONLY_TREES, JHAY_LION)
  expect_score(g, "Jhay", 40, { vulture = 4, elephant = 4, hyena = 0, lion = 4 })
end)

-- The face-up prey of a grid read with g:grid, as eat moves in reading order: zebras, and
-- gazelles on no cheetah's diagonal (the cheetahs' prey is face down before the lions eat).
local function open_prey(rows, grid)
  local moves = {}
  for r = 1, #rows do
    for c = 1, #rows[r] do
      local card = rows[r][c]
      local hunted = false
      if card == G then
        for _, d in ipairs({ { -1, -1 }, { -1, 1 }, { 1, -1 }, { 1, 1 } }) do
          local row = rows[r + d[1]]
          if row and row[c + d[2]] == Ch then hunted = true end
        end
      end
      if card == Z or (card == G and not hunted) then moves[#moves + 1] = eat(grid, r - 1, c - 1) end
    end
  end
  return moves
end

test("solo, Jhay's lions on played games: the question on grid 2 lists his open prey, and his best is an answer", function()
  -- Random solo games stopped after the 40 draft moves; the seeds whose first question is
  -- about Jhay's grid (the player has no choice on her own).
  local found = 0
  for seed = 1, 30 do
    local g = new_game{ players = 1, seed = seed }
    expect_eq(g:play_random(40, seed), 40)
    expect_eq(g.phase, "draft_done")
    local moves = g:moves(1)
    if moves[1] and moves[1].grid == 2 then
      found = found + 1
      expect_eq(g:to_move(), { 1 }, "seed " .. seed .. ": the solo player answers for Jhay")
      expect_eq(g:moves(2), {}, "seed " .. seed .. ": Jhay never moves")
      expect_eq(moves, open_prey(g:grid(2), 2), "seed " .. seed .. ": every open prey of Jhay's grid")
      -- Unanswered, Jhay's lions take his best prey; each first answer gives him at most that
      -- (his other lions, if any, still take their best), and one answer gives exactly that.
      local s0 = g:score()
      local best, player = s0[2].total, s0[1].total
      local seen_best = false
      local saved = g:save()
      for _, m in ipairs(moves) do
        local h = load_game(saved)
        h:play(1, m)
        expect_eq(h:data().eaten[1], { grid = 2, cell = m.cell }, "seed " .. seed)
        local s = h:score()
        expect_true(s[2].total <= best, "seed " .. seed .. ": no answer beats Jhay's best prey")
        expect_eq(s[1].total, player, "seed " .. seed .. ": Jhay's prey does not change the player's score")
        expect_eq(s[2].breakdown.lion, s0[2].breakdown.lion, "seed " .. seed .. ": as many lions eat")
        seen_best = seen_best or s[2].total == best
      end
      expect_true(seen_best, "seed " .. seed .. ": Jhay's best prey is one of the answers")
    end
  end
  expect_true(found >= 3, "at least three seeds ask about Jhay's grid (found " .. found .. ")")
end)

-- Gazelle grids: trees everywhere, the first n cells gazelles (2 each, no other scoring
-- changes with n: trees stay in every row and column).
local function gazelles(n) return testing.with_first(testing.filled(T), n, G) end

test("solo, gazelles: Jhay takes part in the majority; with more gazelles he takes 5 and the player 2", function()
  -- Jhay 4 gazelles, the player 2: Jhay 8 + 5, the player 4 + 2.
  local g = forced_solo(gazelles(2), gazelles(4))
  expect_eq(g:to_move(), {}, "no lion, no question")
  expect_score(g, 1, 18 + 6, { gazelle = 6 })
  expect_score(g, "Jhay", 18 + 13, { gazelle = 13 })
  -- The player's grid alone would have taken the 5.
  local alone = board{ { name = "P1", grid = gazelles(2) } }
  expect_score(alone, "P1", 18 + 9, { gazelle = 9 })
end)

test("solo, gazelles: a tie with Jhay pays both 5, and a seat with no gazelle takes no place", function()
  local cases = {
    { 2, 2, 9, 9 },    -- tied for the most: 4 + 5 each
    { 3, 1, 11, 4 },   -- the player ahead: 6 + 5, Jhay 2 + 2
    { 2, 0, 9, 0 },    -- Jhay has none: the player 4 + 5, Jhay nothing
    { 0, 3, 0, 11 },   -- the player has none: Jhay 6 + 5
  }
  for _, case in ipairs(cases) do
    local g = forced_solo(gazelles(case[1]), gazelles(case[2]))
    local s = g:score()
    expect_eq({ s[1].breakdown.gazelle, s[2].breakdown.gazelle }, { case[3], case[4] },
              "player " .. case[1] .. ", Jhay " .. case[2])
  end
end)

test("solo, gazelles on played games: the player and Jhay are ranked like two players", function()
  local function count(g, seat)
    local n = 0
    for _, row in ipairs(g:grid(seat)) do
      for _, c in ipairs(row) do if c == G then n = n + 1 end end
    end
    return n
  end
  local behind = false
  for seed = 1, 8 do
    local g = solo_scripted(seed)
    local a, b = count(g, 1), count(g, 2)
    local function pts(x, y) return x == 0 and 0 or 2 * x + (x >= y and 5 or 2) end
    local s = g:score()
    expect_eq({ s[1].breakdown.gazelle, s[2].breakdown.gazelle }, { pts(a, b), pts(b, a) }, "seed " .. seed)
    behind = behind or (a > 0 and b > a)
  end
  expect_true(behind, "in some game Jhay has more gazelles and the player only takes the 2")
end)
