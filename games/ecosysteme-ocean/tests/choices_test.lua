-- The two choices of Écosystème – Océan that are moves: the octopus's move-or-swap, asked when
-- a player places an octopus (before the next pick), and the whales' flips, asked after the
-- draft (one whale at a time; the solo player also chooses for Tim). Most tests use steered
-- solo games, where the player's cards arrive in a planned order (see `steer` below); two use
-- 2-player games found by seed.

local C, K, P = "coral", "krill", "plankton"
local G, F, R = "grouper", "clownfish", "crab"
local E, S, W = "moray_eel", "shark", "whale"
local T, O = "sea_turtle", "octopus"

local testing = require("ecosysteme.testing")   -- games/ecosysteme/ecosysteme/testing.lua

---------------------------------------------------------------------------------------------
-- Steered solo games (testing.steer). `plan` lists the player's placements in order ({card =,
-- cell =}); each must be legal when it is played. The first card comes from the dealt hand
-- (seeds are tried until the hand holds it and no other whale or octopus, so that Tim gets
-- only the cards the test chooses); the others are stacked on the deck in an order the draw
-- schedule (1, or 5 after each of Tim's rows) always brings in time, with spare cards between
-- them to give to Tim.
--   plan[t].answer: the answer to the octopus question after place t (default: skip);
--   plan[t].stop:   return right after place t, with its question still open;
--   opts.params:    game parameters;
--   opts.spares:    the spare cards stacked on the deck, in order (default: harmless ones);
--   opts.give:      card ids given to Tim first, in order of preference;
--   opts.hand_has:  a card the dealt hand must also hold (other whales and octopuses allowed).
-- Returns the game after the last planned turn (place, answer, give).

local HARMLESS = { C, R, P, K, G, F, T, E, S }
local GIVE_ORDER = { C, R, P, K, G, F, T, E, S, O, W }

local function steer(plan, opts)
  opts = opts or {}
  local give_order = {}
  for _, id in ipairs(opts.give or {}) do give_order[#give_order + 1] = id end
  for _, id in ipairs(GIVE_ORDER) do give_order[#give_order + 1] = id end
  return testing.steer(plan, {
    params = opts.params, spares = opts.spares, spare_order = HARMLESS, give_order = give_order,
    hand_ok = function(hand, first)
      if (hand[first] or 0) == 0 then return false end
      if opts.hand_has then return (hand[opts.hand_has] or 0) > (first == opts.hand_has and 1 or 0) end
      return (hand[W] or 0) - (first == W and 1 or 0) == 0 and (hand[O] or 0) - (first == O and 1 or 0) == 0
    end,
  })
end

local reading = testing.reading

local function skip() return { type = "octopus", action = "skip" } end
local function mv(r1, c1, r2, c2) return { type = "octopus", action = "move", cell = { r1, c1 }, to = { r2, c2 } } end
local function sw(r1, c1, r2, c2) return { type = "octopus", action = "swap", cell = { r1, c1 }, to = { r2, c2 } } end
local function flip(grid, r, c) return { type = "flip", grid = grid, cell = { r, c } } end

local function has(list, move)
  for _, m in ipairs(list) do
    local same = m.type == move.type and m.action == move.action and m.grid == move.grid
    for _, f in ipairs({ "cell", "to" }) do
      if (m[f] == nil) ~= (move[f] == nil) or (m[f] and (m[f][1] ~= move[f][1] or m[f][2] ~= move[f][2])) then same = false end
    end
    if same then return true end
  end
  return false
end

---------------------------------------------------------------------------------------------
-- The octopus

test("octopus: placing one asks its owner to skip, move a card or swap two, before anything else", function()
  local g = steer({ { card = C, cell = { 0, 0 } }, { card = O, cell = { 0, 1 }, stop = true } })
  -- Coral (0,0), octopus (0,1). Moves: the coral to an empty cell touching the octopus,
  -- the octopus to an empty cell touching the coral; the one swap. Reading order.
  expect_eq(g:to_move(), { 1 })
  expect_eq(g:moves(1), {
    skip(),
    mv(0, 0, -1, 1), mv(0, 0, 0, 2), mv(0, 0, 1, 1),
    mv(0, 1, -1, 0), mv(0, 1, 0, -1), mv(0, 1, 1, 0),
    sw(0, 0, 0, 1),
  })
  -- The draft waits: the give is not among the answers, and Tim never moves.
  local card = g:zone("hand", 1)[1]
  expect_illegal(g, 1, { type = "give", card = card }, "not among")
  expect_illegal(g, 1, { type = "place", card = card, cell = { 0, 2 } }, "not among")
  expect_eq(g:moves(2), {})
  -- Illegal destinations: occupied, touching nothing but the moving card, touching nothing.
  expect_illegal(g, 1, mv(0, 0, 0, 1), "not among")
  expect_illegal(g, 1, mv(0, 0, 1, 0), "not among")
  expect_illegal(g, 1, mv(0, 0, 2, 2), "not among")
  expect_illegal(g, 1, sw(0, 0, 0, 2), "not among")
end)

test("octopus: an octopus played as the first card has nothing to move: no question", function()
  local g = steer({ { card = O, cell = { 0, 0 } }, { card = C, cell = { 0, 1 }, stop = true } })
  expect_eq(g:grid(1), { { O, C } })
  for _, m in ipairs(g:moves(1)) do expect_eq(m.type, "give", "the turn goes on") end
end)

test("octopus: a move goes to the new cell, the draft goes on from the new layout", function()
  local g = steer({ { card = C, cell = { 0, 0 } }, { card = K, cell = { 0, 1 } },
                    { card = O, cell = { 0, 2 }, answer = mv(0, 0, 1, 1) },
                    { card = P, cell = { 0, 0 } } })
  -- The coral left (0,0) for (1,1), under the krill; the plankton then filled (0,0) again.
  expect_eq(g:grid(1), { { P, K, O }, { false, C, false } })
end)

test("octopus: a swap exchanges two cards, the new octopus included", function()
  local g = steer({ { card = C, cell = { 0, 0 } }, { card = K, cell = { 0, 1 } },
                    { card = O, cell = { 0, 2 }, answer = sw(0, 0, 0, 2) } })
  expect_eq(g:grid(1), { { O, K, C } })
  g = steer({ { card = C, cell = { 0, 0 } }, { card = K, cell = { 0, 1 } },
              { card = O, cell = { 0, 2 }, answer = sw(0, 0, 0, 1) } })
  expect_eq(g:grid(1), { { K, C, O } })
end)

test("octopus: a move must keep the grid connected (octopus_keep_connected, default true)", function()
  local plan = { { card = C, cell = { 0, 0 } }, { card = K, cell = { 0, 1 } }, { card = O, cell = { 0, 2 }, stop = true } }
  local g = steer(plan)
  -- The krill in the middle holds the coral and the octopus together: it cannot move, and
  -- the end cards may only go where they still touch the rest.
  expect_illegal(g, 1, mv(0, 1, 1, 0), "not among")
  expect_illegal(g, 1, mv(0, 1, -1, 1), "not among")
  expect_illegal(g, 1, mv(0, 0, 1, 0), "not among")
  expect_true(has(g:moves(1), mv(0, 0, 1, 1)), "the coral may go under the krill")
  expect_true(has(g:moves(1), mv(0, 0, 0, 3)), "or to the other end")
  -- The literal reading: only the moved card must touch another one.
  local loose = steer(plan, { params = { octopus_keep_connected = false } })
  expect_true(has(loose:moves(1), mv(0, 1, 1, 0)), "the krill may leave the middle")
  loose:play(1, mv(0, 1, 1, 0))
  expect_eq(loose:grid(1), { { C, false, O }, { K, false, false } })
end)

test("octopus: a move must keep every card within 4 rows and 5 columns", function()
  -- Row 0 is full (5 columns); the octopus sits under its first card.
  local g = steer({ { card = C, cell = { 0, 0 } }, { card = K, cell = { 0, 1 } }, { card = P, cell = { 0, 2 } },
                    { card = R, cell = { 0, 3 } }, { card = G, cell = { 0, 4 } }, { card = O, cell = { 1, 0 }, stop = true } })
  local moves = g:moves(1)
  expect_illegal(g, 1, mv(1, 0, 0, 5), "not among")     -- 6 columns
  expect_illegal(g, 1, mv(1, 0, 0, -1), "not among")    -- 6 columns
  expect_true(has(moves, mv(1, 0, 1, 4)), "under the last card")
  expect_true(has(moves, mv(1, 0, -1, 2)), "above the row")
  -- Without the coral (0,0), the rest falls in two parts, the row (0,1)-(0,4) and the octopus
  -- (1,0): only (1,1) touches both. (2,0) touches the octopus only; (0,5) touches the row
  -- only and would make the grid 6 columns wide.
  expect_true(has(moves, mv(0, 0, 1, 1)), "the coral bridges the octopus and the row")
  expect_illegal(g, 1, mv(0, 0, 2, 0), "not among")
  expect_illegal(g, 1, mv(0, 0, 0, 5), "not among")
  -- The last card of the row may go to (0,-1): the columns are then -1..3.
  expect_true(has(moves, mv(0, 4, 0, -1)), "the row may shift left")
end)

test("octopus: 4 rows high, a card cannot go to a fifth row", function()
  local g = steer({ { card = C, cell = { 0, 0 } }, { card = K, cell = { 1, 0 } }, { card = P, cell = { 2, 0 } },
                    { card = R, cell = { 3, 0 } }, { card = O, cell = { 0, 1 }, stop = true } })
  expect_illegal(g, 1, mv(0, 1, 4, 0), "not among")
  expect_illegal(g, 1, mv(0, 1, -1, 0), "not among")
  expect_true(has(g:moves(1), mv(0, 1, 3, 1)), "beside the bottom card")
end)

test("octopus: Tim's octopus asks nothing (his grid fills itself in reading order)", function()
  -- The dealt hand holds an octopus, given to Tim at the first turn: his first card.
  local g = steer({ { card = C, cell = { 0, 0 } } }, { hand_has = O, give = { O } })
  expect_eq(g:grid(2), { { O } })
  expect_eq(g:to_move(), { 1 })
  for _, m in ipairs(g:moves(1)) do expect_eq(m.type, "place", "no question after Tim's octopus") end
end)

test("octopus in a 2-player game: the other player's next pick waits for the answer", function()
  -- Find a seed where seat 1, after a first pick, holds an octopus in the hand it receives.
  for seed = 1, 200 do
    local g = new_game{ players = 2, seed = seed }
    g:play(1, g:moves(1)[1])
    g:play(2, g:moves(2)[1])
    local found = false
    for _, c in ipairs(g:zone("hand", 1)) do found = found or c == O end
    local other
    for _, m in ipairs(g:moves(2)) do
      if m.card ~= O then other = m; break end
    end
    if found and other then
      g:play(1, { type = "place", card = O, cell = { 0, 1 } })
      g:play(2, other)
      expect_eq(g:to_move(), { 1 }, "only the octopus's owner moves")
      expect_eq(g:moves(1)[1], skip())
      expect_eq(#g:moves(1), 8, "skip, 3 + 3 moves, 1 swap (two cards)")
      expect_illegal(g, 2, { type = "place", card = g:zone("hand", 2)[1], cell = { 0, 2 } }, "not P2's turn")
      g:play(1, skip())
      expect_eq(g:to_move(), { 1, 2 }, "the draft goes on")
      return
    end
  end
  error("no seed in 1..200 gives seat 1 an octopus at its second pick")
end)

---------------------------------------------------------------------------------------------
-- The whales

-- Eden's grid (elsa_test.lua): whales at (0,3) and (2,3).
local EDEN = {
  { K, K, K, W, O },
  { G, F, P, G, K },
  { K, P, R, W, C },
  { C, C, F, S, R },
}

test("whales: after the draft each whale asks for one face-up neighbour, in reading order", function()
  local g = steer(reading(EDEN))
  expect_eq(g.phase, "draft_done")
  expect_eq(g:grid(1), EDEN)
  expect_eq(g:to_move(), { 1 })
  -- Whale (0,3): the krill (0,2), the octopus (0,4), the grouper (1,3).
  expect_eq(g:moves(1), { flip(1, 0, 2), flip(1, 0, 4), flip(1, 1, 3) })
  expect_illegal(g, 1, flip(1, 2, 4), "not among")    -- the other whale's neighbour
  expect_illegal(g, 1, flip(1, 0, 3), "not among")    -- the whale itself
  expect_illegal(g, 1, flip(2, 0, 2), "not among")    -- another grid
  g:play(1, flip(1, 0, 4))
  -- Whale (2,3): the grouper (1,3), the crab (2,2), the coral (2,4), the shark (3,3).
  expect_eq(g:moves(1), { flip(1, 1, 3), flip(1, 2, 2), flip(1, 2, 4), flip(1, 3, 3) })
  g:play(1, flip(1, 2, 4))
  expect_eq(g:to_move(), {}, "every whale has flipped: the game is over")
  expect_eq(g:grid(1)[1][5], "(octopus)")
  expect_eq(g:grid(1)[3][5], "(coral)")
  expect_eq(g:data().whale_flips, {
    { grid = 1, whale = { 0, 3 }, cell = { 0, 4 }, card = O, by = "move" },
    { grid = 1, whale = { 2, 3 }, cell = { 2, 4 }, card = C, by = "move" },
  })
end)

test("whales: the flips chosen change the score; unanswered, the score takes the best ones", function()
  -- The best flips (octopus, coral), as in scoring_test.lua; Tim's grid ranks for plankton.
  local best = steer(reading(EDEN))
  local unanswered = best:score()[1]
  best:play(1, flip(1, 0, 4)):play(1, flip(1, 2, 4))
  local s = best:score()
  expect_eq(s[1].total, unanswered.total, "unanswered = the best answers")
  expect_eq(s[1].breakdown, unanswered.breakdown)
  expect_eq(s[1].breakdown.octopus, 0, "the flipped octopus scores nothing")
  -- A poor choice: the krill (0,2) and the shark (3,3). Krill (0,0)-(0,1) = 4, (1,4) = 1,
  -- (2,0) = 1 -> 6 (was 11); whales 2 x 2 x 4 = 16 (was 20); shark 0 (was 6); octopus 3.
  local poor = steer(reading(EDEN))
  poor:play(1, flip(1, 0, 2)):play(1, flip(1, 3, 3))
  local p = poor:score()
  expect_eq({ p[1].breakdown.krill, p[1].breakdown.whale, p[1].breakdown.shark, p[1].breakdown.octopus }, { 6, 16, 0, 3 })
  expect_eq(p.extra.groups.P1.predator, 16)
  -- Producers fall by 5 (krill) and predators by 10 (whales 4, shark 6), so the predators
  -- (16) become the lowest group: bonus 16 instead of 17. The octopus stays: +3.
  expect_eq(p[1].breakdown.food_chain_bonus, 16)
  expect_eq(s[1].total - p[1].total, 5 + 10 + 1 - 3)
end)

-- Whales (1,0), (2,1) and (3,0) around the bottom-left corner.
local CHAIN = {
  { C, T, E, S, F },
  { W, K, C, T, E },
  { P, W, G, S, F },
  { W, R, C, T, E },
}

test("whales: a whale left with one face-up neighbour flips it without a question, with none it flips nothing", function()
  -- Whale (1,0) flips the coral (0,0); whale (2,1) the plankton (2,0): whale (3,0) then has
  -- only the crab (3,1) face up, and flips it at once.
  local g = steer(reading(CHAIN))
  expect_eq(g:moves(1), { flip(1, 0, 0), flip(1, 1, 1), flip(1, 2, 0) })
  g:play(1, flip(1, 0, 0))
  expect_eq(g:moves(1), { flip(1, 1, 1), flip(1, 2, 0), flip(1, 2, 2), flip(1, 3, 1) })
  g:play(1, flip(1, 2, 0))
  expect_eq(g:to_move(), {}, "no question for the last whale")
  expect_eq(g:grid(1)[4][2], "(crab)")
  expect_eq(g:data().whale_flips[3], { grid = 1, whale = { 3, 0 }, cell = { 3, 1 }, card = R, by = "forced" })
  -- Whale (1,0) flips the plankton (2,0), whale (2,1) the crab (3,1): whale (3,0) has no
  -- face-up neighbour left and flips nothing.
  g = steer(reading(CHAIN))
  g:play(1, flip(1, 2, 0)):play(1, flip(1, 3, 1))
  expect_eq(g:to_move(), {})
  expect_eq(#g:data().whale_flips, 2)
  expect_eq(g:grid(1)[4][1], W, "the last whale is still face up")
end)

test("whales: a whale turned face down by an earlier whale still flips (whale_flipped_acts, default true)", function()
  -- Whales (1,0) and (2,0), one above the other: the first may flip the second.
  local layout = {
    { C, T, E, S, F },
    { W, K, C, T, E },
    { W, G, S, F, C },
    { P, R, C, T, E },
  }
  local g = steer(reading(layout))
  expect_eq(g:moves(1), { flip(1, 0, 0), flip(1, 1, 1), flip(1, 2, 0) })
  g:play(1, flip(1, 2, 0))
  -- The face-down whale (2,0) acts: grouper (2,1) or plankton (3,0) (the whale (1,0) above
  -- is face up and may be flipped too).
  expect_eq(g:moves(1), { flip(1, 1, 0), flip(1, 2, 1), flip(1, 3, 0) })
  g:play(1, flip(1, 1, 0))
  expect_eq(g:to_move(), {})
  local s = g:score()
  expect_eq(s[1].breakdown.whale, 0, "both whales are face down")
  -- The other reading: a face-down whale does not act.
  local h = steer(reading(layout), { params = { whale_flipped_acts = false } })
  h:play(1, flip(1, 2, 0))
  expect_eq(h:to_move(), {}, "the flipped whale asks nothing")
  expect_eq(#h:data().whale_flips, 1)
end)

test("whales in solo: the player then chooses for Tim's whales, and Tim's unanswered flips are his best", function()
  -- One whale among the spares, given to Tim as soon as it is drawn.
  local layout = {
    { C, T, E, S, F },
    { K, K, C, T, E },
    { P, G, S, F, C },
    { P, R, C, T, E },
  }
  local g = steer(reading(layout), { spares = { W }, give = { W } })
  local tim = g:grid(2)
  local wr, wc
  for r = 1, 4 do for c = 1, 5 do if tim[r][c] == W then wr, wc = r - 1, c - 1 end end end
  expect_true(wr, "Tim has the whale")
  -- The player has no whale: the question is about Tim's grid (grid = 2), asked to seat 1.
  expect_eq(g:to_move(), { 1 })
  local moves = g:moves(1)
  local expected = {}
  for _, d in ipairs({ { -1, 0 }, { 0, -1 }, { 0, 1 }, { 1, 0 } }) do
    local r, c = wr + d[1], wc + d[2]
    if r >= 0 and r < 4 and c >= 0 and c < 5 then expected[#expected + 1] = flip(2, r, c) end
  end
  expect_eq(moves, expected)
  expect_eq(g:moves(2), {}, "Tim never moves")
  -- Unanswered, Tim's whale takes the flip best for Tim; each answer gives Tim at most that.
  local s0 = g:score()
  local best = s0[2].total
  local seen_best = false
  for _, m in ipairs(moves) do
    local h = steer(reading(layout), { spares = { W }, give = { W } })
    h:play(1, m)
    expect_eq(h:to_move(), {})
    local t = h:score()[2].total
    expect_true(t <= best, "no answer beats Tim's best flip")
    seen_best = seen_best or t == best
  end
  expect_true(seen_best, "the best flip is one of the answers")
  expect_eq(s0.extra.whale_flips.Tim[1].by, "search")
end)

test("whales in a 2-player game: an octopus at the last pick is answered before the whales", function()
  -- Seat 1 plays the first legal pick throughout; find a seed where its last card is an
  -- octopus (with a real question) and its grid holds a whale.
  for seed = 1, 300 do
    local g = new_game{ players = 2, seed = seed }
    for _ = 1, 19 do
      g:play(1, g:moves(1)[1])
      g:play(2, g:moves(2)[1])
      while g:to_move()[1] and g:moves(g:to_move()[1])[1].type == "octopus" do
        local seat = g:to_move()[1]
        g:play(seat, skip())
      end
    end
    local hand = g:zone("hand", 1)
    local whales = 0
    for _, row in ipairs(g:grid(1)) do for _, c in ipairs(row) do if c == W then whales = whales + 1 end end end
    local last2 = g:moves(2)[1]
    if hand[1] == O and whales > 0 and last2.card ~= O then
      g:play(1, g:moves(1)[1])
      g:play(2, last2)
      expect_eq(g.phase, "draft_done")
    end
    -- Seat 2 must have nothing to answer, or seat 1's answer would wait for it.
    if g.phase == "draft_done" and #g:to_move() == 1 and g:to_move()[1] == 1 then
      local q = g:moves(1)
      expect_eq(q[1], skip(), "seat 1 is asked about its octopus first")
      g:play(1, skip())
      -- Then its whales (unless none has a choice).
      local acted = g:data().whale_acted
      expect_true(acted ~= nil, "the whales are being resolved")
      local after = g:moves(1)
      for _, m in ipairs(after) do expect_eq(m.type, "flip") end
      -- Answer everything: the game ends.
      for _ = 1, 20 do
        local seats = g:to_move()
        if #seats == 0 then break end
        g:play(seats[1], g:moves(seats[1])[1])
      end
      expect_eq(g:to_move(), {})
      expect_eq(g:data().whale_acted[1], whales, "every whale of seat 1 has acted")
      return
    end
  end
  error("no seed in 1..300 ends seat 1's draft on an octopus with a whale in its grid")
end)
