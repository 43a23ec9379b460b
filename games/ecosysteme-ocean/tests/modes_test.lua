-- Game-mode tests of Écosystème – Océan: the 2-player neutral hand (dealing, rotation, its
-- plankton in the comparison), the solo mode against Tim (grid order, draw schedule, the
-- 55/70/80 result), 6 players and hand_size, the plankton_ties parameter on played games, and
-- illegal moves.

local C, P = "coral", "plankton"
local IDS = { "coral", "krill", "plankton", "grouper", "clownfish", "crab", "moray_eel", "shark", "whale",
              "sea_turtle", "octopus" }

local testing = require("ecosysteme.testing")   -- games/ecosysteme/ecosysteme/testing.lua
local counts, sorted, without = testing.counts, testing.sorted, testing.without
local full_grid, line_sum = testing.full_grid, testing.line_sum

-- Face-up plankton of a finished grid ("(plankton)" is a face-down one).
local function face_up_plankton(g, seat)
  local n = 0
  for _, row in ipairs(g:grid(seat)) do
    for _, c in ipairs(row) do if c == P then n = n + 1 end end
  end
  return n
end

-- Answers every question open now with its first option (octopus: skip; whales: the first
-- neighbour), and stops at the next draft pick or at the end of the game.
local answer_rest = testing.answer_questions

---------------------------------------------------------------------------------------------
-- Two players: the neutral seat

test("2 players: a third, neutral seat is dealt 10 cards, does not move, and has an empty pile", function()
  local g = new_game{ players = 2, seed = 7 }
  expect_eq({ #g:zone("hand", 1), #g:zone("hand", 2), #g:zone("hand", 3) }, { 10, 10, 10 })
  expect_eq(g:zone("pile", 3), {}, "neutral pile")
  expect_eq(g:to_move(), { 1, 2 })
  expect_eq(g:moves(3), {}, "the neutral seat has no moves")
  expect_eq(g:score()[3], nil, "the neutral seat is never scored")
end)

test("2 players: each pick moves one neutral card to its pile, and the three hands rotate", function()
  local g = new_game{ players = 2, seed = 7 }
  -- Round 1 passes left: seat 1 -> seat 2 -> neutral -> seat 1.
  local h1, h2, hn = g:zone("hand", 1), g:zone("hand", 2), g:zone("hand", 3)
  local m1, m2 = g:moves(1)[1], g:moves(2)[1]
  g:play(1, m1):play(2, m2)
  local pile = g:zone("pile", 3)
  expect_eq(#pile, 1, "one neutral card per pick")
  expect_eq(sorted(g:zone("hand", 3)), without(h2, m2.card), "seat 2 passed its hand to the neutral seat")
  expect_eq(sorted(g:zone("hand", 1)), without(hn, pile[1]), "the neutral hand, less its card, went to seat 1")
  expect_eq(sorted(g:zone("hand", 2)), without(h1, m1.card), "seat 1 passed to seat 2")
end)

test("2 players: the game ends with both grids full, 20 neutral cards, nothing discarded", function()
  local g = new_game{ players = 2, seed = 21 }
  g:play_random(nil, 5)
  expect_eq(g:to_move(), {}, "nobody left to move (questions included)")
  expect_true(full_grid(g, 1) and full_grid(g, 2), "two full 4 x 5 grids")
  expect_eq(#g:zone("pile", 3), 20, "one neutral card for each of the 20 picks")
  expect_eq(#g:zone("discard"), 0, "10 dealt, 10 placed: no leftovers")
  expect_eq(#g:zone("deck"), 130 - 60)
  local s = g:score()
  expect_true(s[1] and s[2], "both players are scored")
  expect_eq(s[3], nil, "the neutral seat is not scored")
  expect_eq(s[1].total, line_sum(s[1]))
  expect_eq(s[2].total, line_sum(s[2]))
end)

test("2 players: the neutral pile's plankton take part in the plankton comparison", function()
  -- Played games: each seat's plankton points follow the ranking of the two grids' face-up
  -- plankton and the pile's plankton; over these seeds the pile changes someone's points.
  local points = { 12, 8, 4 }
  local pile_mattered = false
  for seed = 1, 12 do
    local g = new_game{ players = 2, seed = seed }
    g:play_random(nil, seed)
    local n = { face_up_plankton(g, 1), face_up_plankton(g, 2), counts(g:zone("pile", 3)).plankton or 0 }
    local s = g:score()
    for seat = 1, 2 do
      local expected, alone = 0, 0
      if n[seat] > 0 then
        local rank, rank_alone = 1, 1
        for other = 1, 3 do if n[other] > n[seat] then rank = rank + 1 end end
        for other = 1, 2 do if n[other] > n[seat] then rank_alone = rank_alone + 1 end end
        expected, alone = points[rank] or 0, points[rank_alone] or 0
      end
      expect_eq(s[seat].breakdown.plankton, expected, "seed " .. seed .. " seat " .. seat)
      pile_mattered = pile_mattered or expected ~= alone
    end
  end
  expect_true(pile_mattered, "the pile changed someone's plankton points")
end)

---------------------------------------------------------------------------------------------
-- Solo against Tim

-- A solo game with a fixed policy (first legal place, skip octopuses, give the first card of
-- the sorted hand); the whale questions at the end take their first answer.
local function solo_scripted(seed, params)
  return testing.solo_scripted(seed, params, true)
end

test("solo: the player is dealt 10 cards, Tim is seat 2 and every turn is a place then a give", function()
  local g = new_game{ players = 1, seed = 2 }
  expect_eq(#g:zone("hand", 1), 10)
  expect_eq(g:to_move(), { 1 })
  expect_eq(g:score()[2].name, "Tim")
  for _, m in ipairs(g:moves(1)) do expect_eq(m.type, "place") end
  g:play(1, g:moves(1)[1])
  for _, m in ipairs(g:moves(1)) do expect_eq(m.type, "give") end
  expect_eq(g:moves(2), {}, "Tim never moves")
end)

test("solo: Tim's grid fills left to right, top to bottom, with the cards given", function()
  local g, gifts = solo_scripted(4)
  local rows = g:grid(2)
  expect_eq(#rows, 4)
  local k = 0
  for r = 1, 4 do
    for c = 1, 5 do
      k = k + 1
      local cell = rows[r][c]
      -- a card his whale turned face down shows as "(id)"
      expect_true(cell == gifts[k] or cell == "(" .. gifts[k] .. ")", "Tim cell " .. r .. "," .. c .. " is gift " .. k)
    end
  end
  expect_true(full_grid(g, 1), "the player's grid is full too")
end)

test("solo: one card drawn after each gift, five after each row Tim completes: 41 cards in all", function()
  local g, _, before, after = solo_scripted(9)
  local draws = testing.solo_draws(before, after)
  expect_eq(draws, { 1, 1, 1, 1, 5, 1, 1, 1, 1, 5, 1, 1, 1, 1, 5, 1, 1, 1, 1 })
  expect_eq(before[1], 10)
  expect_eq(before[20], 3, "the last turn starts with 3 cards: place one, give one, one is left ...")
  expect_eq(after[20], 0, "... and discarded: nothing is drawn after Tim's 20th card")
  expect_eq(#g:zone("deck"), 130 - 41, "the deck gave exactly 41 cards")
  expect_eq(#g:zone("discard"), 1)
end)

test("solo: the result in the score's extra follows the margin over Tim and the targets 55 / 70 / 80", function()
  -- Scripted play does not depend on the targets, so every game has the same grids.
  testing.check_solo_targets(function(params) return solo_scripted(13, params) end, 55, 70, 80)
end)

test("solo: the player and Tim are compared for plankton like two players", function()
  for seed = 1, 6 do
    local g = solo_scripted(seed)
    local a, b = face_up_plankton(g, 1), face_up_plankton(g, 2)
    local s = g:score()
    local function pts(x, y) return x == 0 and 0 or (x >= y and 12 or 8) end
    expect_eq({ s[1].breakdown.plankton, s[2].breakdown.plankton }, { pts(a, b), pts(b, a) }, "seed " .. seed)
  end
end)

---------------------------------------------------------------------------------------------
-- Six players, hand size

test("6 players: 120 of the 130 cards are dealt, and a random game runs to the end", function()
  local g = new_game{ players = 6, seed = 17 }
  expect_eq(#g:zone("deck"), 130 - 60)
  g:play_random(nil, 2)
  expect_eq(g:to_move(), {})
  expect_eq(#g:zone("deck"), 10)
  local s = g:score()
  for seat = 1, 6 do
    expect_true(full_grid(g, seat), "grid " .. seat .. " is full")
    expect_eq(s[seat].total, line_sum(s[seat]), "seat " .. seat .. " total is the sum of its breakdown")
  end
end)

test("hand_size: 11 cards dealt, 10 placed, the 11th discarded each round", function()
  local g = new_game{ players = 4, seed = 3, params = { hand_size = 11 } }
  expect_eq(#g:zone("hand", 1), 11)
  g:play_random(nil, 3)
  expect_eq(g:to_move(), {})
  expect_eq(#g:zone("discard"), 2 * 4)
end)

test("player counts and hand sizes the deck cannot serve are refused", function()
  expect_error(function() new_game{ players = 7, seed = 1 } end)
  expect_error(function() new_game{ players = 6, seed = 1, params = { hand_size = 11 } } end, "130 cards")
  expect_error(function() new_game{ players = 2, seed = 1, params = { plankton_ties = "dense" } } end, "choices")
end)

---------------------------------------------------------------------------------------------
-- plankton_ties on played games

-- Plankton points of every seat for the face-up counts `n`, by the two readings of the tie
-- rule (README, house rule 3), computed independently of the rules.
local function reference(n, ties)
  local points, out = { 12, 8, 4 }, {}
  -- the distinct counts, highest first, with how many seats have each
  local values, size = {}, {}
  for _, v in ipairs(n) do
    if v > 0 then
      if not size[v] then values[#values + 1] = v; size[v] = 0 end
      size[v] = size[v] + 1
    end
  end
  table.sort(values, function(x, y) return x > y end)
  local rank_of, pos = {}, 1
  for _, v in ipairs(values) do
    rank_of[v] = pos
    if ties == "competition" then pos = pos + size[v] else pos = pos + (size[v] >= 2 and 2 or 1) end
  end
  for seat, v in ipairs(n) do out[seat] = v > 0 and (points[rank_of[v]] or 0) or 0 end
  return out
end

test("plankton_ties: 'competition' and 'skip_one' on played 5-player games, and a game where they differ", function()
  local differ = false
  for seed = 1, 80 do
    local results = {}
    for _, ties in ipairs({ "competition", "skip_one" }) do
      local g = new_game{ players = 5, seed = seed, params = { plankton_ties = ties } }
      g:play_random(nil, seed)
      local n = {}
      for seat = 1, 5 do n[seat] = face_up_plankton(g, seat) end
      local s = g:score()
      local got = {}
      for seat = 1, 5 do got[seat] = s[seat].breakdown.plankton end
      expect_eq(got, reference(n, ties), ties .. ", seed " .. seed)
      results[ties] = got
    end
    for seat = 1, 5 do
      if results.competition[seat] ~= results.skip_one[seat] then
        -- Three or more tied for the most: 'skip_one' still pays the next count 4.
        expect_eq(results.competition[seat], 0)
        expect_eq(results.skip_one[seat], 4)
        differ = true
      end
    end
    if differ and seed >= 10 then break end
  end
  expect_true(differ, "some seed had three or more seats tied for the most plankton")
end)

---------------------------------------------------------------------------------------------
-- Illegal moves

test("illegal: a card not in the hand, an occupied cell, a cell that touches nothing, a second pick", function()
  local g = new_game{ players = 2, seed = 5 }
  local m1 = g:moves(1)[1]
  g:play(1, m1):play(2, g:moves(2)[1])
  answer_rest(g)
  local card = g:zone("hand", 1)[1]
  expect_illegal(g, 1, { type = "place", card = card, cell = { 0, 0 } }, "already occupied")
  expect_illegal(g, 1, { type = "place", card = card, cell = { 2, 2 } }, "does not touch")
  local held = counts(g:zone("hand", 1))
  for _, id in ipairs(IDS) do
    if not held[id] then
      expect_illegal(g, 1, { type = "place", card = id, cell = { 0, 1 } }, "not in the hand")
      break
    end
  end
  g:play(1, { type = "place", card = card, cell = { 0, 1 } })
  expect_illegal(g, 1, { type = "place", card = g:zone("hand", 1)[1], cell = { 1, 0 } }, "already chosen")
end)

test("illegal: placing outside the 4 x 5 frame", function()
  local g = new_game{ players = 1, seed = 6 }
  for k = 0, 4 do
    g:play(1, { type = "place", card = g:zone("hand", 1)[1], cell = { 0, k } })
    answer_rest(g)
    g:play(1, { type = "give", card = g:zone("hand", 1)[1] })
  end
  local card = g:zone("hand", 1)[1]
  expect_illegal(g, 1, { type = "place", card = card, cell = { 0, 5 } }, "wider than 5 columns")
  expect_illegal(g, 1, { type = "place", card = card, cell = { 0, -1 } }, "wider than 5 columns")
  expect_true(g:try_play(1, { type = "place", card = card, cell = { -1, 2 } }), "the grid grows upwards")
end)

test("illegal: moves of the wrong kind: give, flip or octopus when a place is expected, and the reverse", function()
  local g = new_game{ players = 1, seed = 8 }
  local card = g:zone("hand", 1)[1]
  expect_illegal(g, 1, { type = "give", card = card }, "a 'place' move is expected")
  expect_illegal(g, 1, { type = "flip", grid = 1, cell = { 0, 0 } }, "a 'place' move is expected")
  expect_illegal(g, 1, { type = "octopus", action = "skip" }, "a 'place' move is expected")
  g:play(1, { type = "place", card = card, cell = { 0, 0 } })
  answer_rest(g)
  expect_illegal(g, 1, { type = "place", card = g:zone("hand", 1)[1], cell = { 0, 1 } }, "a 'give' move is expected")
  -- After the game, nothing is legal.
  local done = solo_scripted(8)
  expect_eq(done:to_move(), {})
  expect_illegal(done, 1, { type = "flip", grid = 1, cell = { 0, 0 } })
  expect_illegal(done, 1, { type = "place", card = C, cell = { 0, 0 } })
end)
