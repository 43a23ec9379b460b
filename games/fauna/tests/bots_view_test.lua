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
  -- In between, the estimate is the blend (each part rounded to 2^-24, so sums are exact in any
  -- order: evaluate_moves relies on it); without options the bot knows half.
  local half = right:evaluate(1, { knowledge = 0.5 })
  local blend = 0.5 * right:evaluate(1, { knowledge = 1 }) + 0.5 * right:evaluate(1, { knowledge = 0 })
  expect_true(math.abs(half - blend) < 1e-6, string.format("%.17g is not the blend %.17g", half, blend))
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

test("each move says what it does, with a region's neighbours, and its group for choosing in steps", function()
  local g = game("okapi")
  g:play(1, { type = "region", region = "sahel" })
  local text, group, picture = g:describe(2, { type = "region", region = "congo_basin" })
  expect_eq(text, "a piece on Congo Basin (land, Africa)")
  expect_eq(group, { "a piece on a region of the map", "Africa" })
  expect_eq(picture, "borders: Sahel [P1], West African Forests, East African Savanna, Southern African Savanna, "
                     .. "South Atlantic Ocean")
  text = g:describe(2, { type = "region", region = "south_atlantic" })
  expect_eq(text, "a piece on South Atlantic Ocean (sea, Atlantic Ocean)")
  text, group = g:describe(2, { type = "scale", scale = "weight", bucket = 10 })
  expect_eq(text, "a piece on Weight: 100–300 kg")
  expect_eq(group, { "a piece on a scale", "Weight (kg)" })
  text, group = g:describe(2, { type = "pass" })
  expect_eq(text, "pass for the rest of the round")
  expect_eq(group, {})
  -- No move names a region or a scale by its id (plateau play wraps the neighbours to 120 columns).
  for _, m in ipairs(g:moves(2)) do
    local t = g:describe(2, m)
    expect_true(t:find("_", 1, true) == nil, "an id in: " .. t)
  end
end)

test("the view: the visible half, the map by continent and ocean, the asked scales, the players", function()
  local g = game("okapi", 3)
  g:play(1, { type = "region", region = "congo_basin" }):play(2, { type = "scale", scale = "weight", bucket = 10 })
  local v = g:view(3)
  local function has(piece) expect_true(v:find(piece, 1, true) ~= nil, "the view shows: " .. piece .. "\n" .. v) end
  has("Round 1. The card shows: Okapi / Okapi (Okapia johnstoni), a mammal; lives in 1 region(s); asks: weight, height")
  has("  Africa: Maghreb and Atlas Mountains; Sahara; Sahel; West African Forests; Congo Basin [P1];")
  has("  Atlantic Ocean: North Atlantic Ocean;")
  has("Scale: Weight, in kg\n  1 under 10 g | 2 10–30 g |")
  has("10 100–300 kg [P2]")
  has("Scale: Height (shoulder or standing), in cm\n  1 under 10 cm |")
  has("P1: 0 points (regions 0, scales 0), 5 piece(s) to place, 0 in the common supply, has the lion")
  has("P3 to play")
  expect_true(v:find("tail", 1, true) == nil, "the okapi card does not ask for the tail")
  -- The whole table is the game's: none of the host's internal lines (its zones' names).
  expect_true(v:find("box [", 1, true) == nil and v:find("card [", 1, true) == nil and v:find("phase ", 1, true) == nil, v)
  for line in v:gmatch("[^\n]+") do expect_true(#line <= 120, "over 120 columns: " .. line) end
  -- With height_scale = body_length the card says where its height is answered.
  local h = new_game{ players = 3, seed = 1, params = { height_scale = "body_length" } }
  h:set_zone("card", nil, { "okapi" })
  local joined = h:view(1):gsub("\n%s+", " ")
  expect_true(joined:find("asks: weight, height (on the Length (body without tail) scale)", 1, true) ~= nil, joined)
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
