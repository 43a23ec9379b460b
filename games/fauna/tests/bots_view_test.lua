-- What the bots and the people at the table read: the evaluation with and without knowledge of
-- the card, each move's description, the view, and the report's statistics.

local function game(card, players)
  local g = new_game{ players = players or 2, seed = 1 }
  g:set_zone("card", nil, { card })
  return g
end

test("an expert values a piece on the right region; a novice values every land region alike", function()
  local right = game("okapi"):play(1, { type = "region", region = "congo_basin" })
  local wrong = game("okapi"):play(1, { type = "region", region = "patagonia" })
  local sea = game("okapi"):play(1, { type = "region", region = "arctic_ocean" })
  -- knowledge 1: the Congo scores 12 for sure; Patagonia is lost for sure (2.5).
  expect_eq(right:evaluate(1, { knowledge = 1 }), 12)
  expect_eq(wrong:evaluate(1, { knowledge = 1 }), -2.5)
  -- knowledge 0: both land regions look the same (1 region over the land ones), the sea worse.
  expect_eq(right:evaluate(1, { knowledge = 0 }), wrong:evaluate(1, { knowledge = 0 }))
  expect_true(sea:evaluate(1, { knowledge = 0 }) < wrong:evaluate(1, { knowledge = 0 }), "a mammal is not in the sea")
  -- In between, the estimate is the blend; without options the bot knows half.
  local half = right:evaluate(1, { knowledge = 0.5 })
  expect_eq(half, 0.5 * right:evaluate(1, { knowledge = 1 }) + 0.5 * right:evaluate(1, { knowledge = 0 }))
  expect_eq(right:evaluate(1), half)
  -- The other player's pieces count against: P2 judges P1's sure 12 as a lead.
  expect_eq(right:evaluate(2, { knowledge = 1 }), -12)
end)

test("an expert values the right scale space at 7, the one beside it at 3", function()
  local right = game("okapi"):play(1, { type = "scale", scale = "weight", bucket = 10 })
  local beside = game("okapi"):play(1, { type = "scale", scale = "weight", bucket = 9 })
  local far = game("okapi"):play(1, { type = "scale", scale = "weight", bucket = 2 })
  expect_eq(right:evaluate(1, { knowledge = 1 }), 7)
  expect_eq(beside:evaluate(1, { knowledge = 1 }), 3)
  expect_eq(far:evaluate(1, { knowledge = 1 }), -2.5)
  expect_eq(far:evaluate(1, { knowledge = 0 }), right:evaluate(1, { knowledge = 0 }), "a novice cannot tell the buckets apart")
  local done = game("okapi"):play(1, { type = "region", region = "congo_basin" }):play(2, { type = "region", region = "sahel" })
  done:play(1, { type = "pass" }):play(2, { type = "pass" })
  expect_eq(done:evaluate(1, { knowledge = 1 }), 4, "after the reveal only the scores count: 12 against 8")
end)

test("each move says what it does", function()
  local g = game("okapi")
  expect_eq(g:describe(1, { type = "region", region = "congo_basin" }), "a piece on Congo Basin (land, Africa)")
  expect_eq(g:describe(1, { type = "region", region = "south_atlantic" }), "a piece on South Atlantic Ocean (sea, Atlantic Ocean)")
  expect_eq(g:describe(1, { type = "scale", scale = "weight", bucket = 10 }), "a piece on weight: 100–300 kg")
  expect_eq(g:describe(1, { type = "pass" }), "pass for the rest of the round")
end)

test("the view: the visible half, the map by continent and ocean, the asked scales, the players", function()
  local g = game("okapi", 3)
  g:play(1, { type = "region", region = "congo_basin" }):play(2, { type = "scale", scale = "weight", bucket = 10 })
  local v = g:view(3)
  local function has(piece) expect_true(v:find(piece, 1, true) ~= nil, "the view shows: " .. piece .. "\n" .. v) end
  has("Round 1. The card shows: Okapi / Okapi (Okapia johnstoni), a mammal; lives in 1 region(s); asks: weight, height")
  has("  Africa: Maghreb and Atlas Mountains; Sahara; Sahel; West African Forests; Congo Basin [P1];")
  has("  Atlantic Ocean: North Atlantic Ocean;")
  has("Scale weight (kg): 1:under 10 g")
  has("10:100–300 kg [P2]")
  has("Scale height (cm): 1:under 10 cm")
  has("P1: 0 points (regions 0, scales 0), 5 piece(s) to place, 0 in the common supply, has the lion")
  has("P3 to play")
  expect_true(v:find("tail", 1, true) == nil, "the okapi card does not ask for the tail")
end)

test("stats: rounds, points per round from regions and scales, pieces lost, per player", function()
  local g = game("okapi")
  g:play(1, { type = "region", region = "congo_basin" }):play(2, { type = "region", region = "patagonia" })
  g:play(1, { type = "scale", scale = "weight", bucket = 9 }):play(2, { type = "pass" }):play(1, { type = "pass" })
  local s = g:stats()
  expect_eq(s.rounds, 2, "the second round has begun")
  expect_eq(s.counts["points per round from regions"], 6)     -- 12 over 2 rounds
  expect_eq(s.counts["points per round from scales"], 1.5)    -- 3 over 2
  expect_eq(s.counts["pieces lost per round"], 0.5)
  expect_eq(s.players[1]["points:regions"], 12)
  expect_eq(s.players[1]["correct:region"], 1)
  expect_eq(s.players[1]["correct:scale"], 0)
  expect_eq(s.players[2].pieces_lost, 1)
  expect_eq(s.players[1].pieces_placed, 2)
  expect_eq(s.ending, nil, "not over")
end)
