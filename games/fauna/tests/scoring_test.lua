-- Fauna's reveal worked by hand from the rulebook's tables on the project's map: every row of
-- the region table (1: 12/8, 2: 10/5, 3-4: 8/4, 5-8: 6/2, 9-16: 4/1, 17+: 3/-), the 16-region
-- cut, neighbours across a sea, a correct piece beside another correct region (and the
-- translator's variant), the scales' 7/3, and pieces returned or lost.
-- g:set_zone("card", nil, {id}) puts the animal in the box.

local function game(card, params, players)
  local g = new_game{ players = players or 2, seed = 1, params = params or {} }
  g:set_zone("card", nil, { card })
  return g
end

-- Plays the placements in order (seat, move), then everyone passes until the reveal.
local function round(g, placements)
  for _, p in ipairs(placements) do g:play(p[1], p[2]) end
  local r = g:stats().rounds
  while g.phase == "place" and g:stats().rounds == r do g:play(g:to_move()[1], { type = "pass" }) end
  return g
end

local function R(name) return { type = "region", region = name } end
local function S(scale, bucket) return { type = "scale", scale = scale, bucket = bucket } end

test("1 region (okapi): correct 12, neighbour 8, across the sea too; scales 7 and 3", function()
  local g = game("okapi", nil, 3)
  round(g, { { 1, R("congo_basin") }, { 2, R("sahel") }, { 3, R("south_atlantic") },
             { 1, S("weight", 10) }, { 2, S("weight", 11) }, { 3, S("height", 12) } })
  expect_score(g, 1, 19, { regions = 12, scales = 7 })
  expect_score(g, 2, 11, { regions = 8, scales = 3 })
  expect_score(g, 3, 8, { regions = 8, scales = 0 })   -- the sea beside the Congo; height 12 is 2 away
  local lost = {}
  for seat = 1, 3 do lost[seat] = g:stats().players[seat].pieces_lost end
  expect_eq(lost, { 0, 0, 1 }, "only the wrong height piece is lost")
end)

test("2 regions (giant otter): correct 10 plus 5 beside the other correct region; neighbour 5", function()
  local g = game("giant_otter")
  round(g, { { 1, R("amazon_basin") }, { 2, R("andes") } })
  expect_score(g, 1, 15, { regions = 15 })
  expect_score(g, 2, 5, { regions = 5 })
end)

test("correct_scores_neighbour = false: a correct piece scores the correct points only", function()
  local g = game("giant_otter", { correct_scores_neighbour = false })
  round(g, { { 1, R("amazon_basin") }, { 2, R("andes") } })
  expect_score(g, 1, 10, { regions = 10 })
  expect_score(g, 2, 5, { regions = 5 })
end)

test("3-4 regions (plains zebra, 4): correct 8 + 4, neighbour 4", function()
  local g = game("plains_zebra")
  round(g, { { 1, R("ethiopian_highlands") }, { 2, R("arabian_sea") } })
  expect_score(g, 1, 12)
  expect_score(g, 2, 4)
end)

test("5-8 regions (giraffe, 5): correct 6 + 2, neighbour 2", function()
  local g = game("giraffe")
  round(g, { { 1, R("sahel") }, { 2, R("arabian_sea") } })
  expect_score(g, 1, 8)
  expect_score(g, 2, 2)
end)

test("9-16 regions (golden eagle, 16): correct 4 + 1, neighbour 1: the last row with neighbours", function()
  local g = game("golden_eagle")
  round(g, { { 1, R("alaska") }, { 2, R("arabian_sea") } })
  expect_score(g, 1, 5)
  expect_score(g, 2, 1)
end)

test("17+ regions (orca, 17): correct 3, a neighbour scores nothing but its piece comes back", function()
  local g = game("orca")
  round(g, { { 1, R("arctic_ocean") }, { 2, R("alaska") }, { 1, R("central_asia") } })
  expect_score(g, 1, 3)
  expect_score(g, 2, 0)
  expect_eq(g:stats().players[1].pieces_lost, 1, "P1's Central Asia piece is lost")
  expect_eq(g:stats().players[2].pieces_lost, 0, "P2's Alaska piece is back")
end)

test("the next round: one piece back from the common supply, then topped up to 3", function()
  local g = game("okapi")
  -- P1 loses 5 pieces (1 left in hand), P2 loses 1 (the Andes are far from the Congo).
  round(g, { { 1, R("alaska") }, { 2, R("andes") }, { 1, R("japan") }, { 2, { type = "pass" } },
             { 1, R("siberia") }, { 1, R("patagonia") }, { 1, R("pampas") } })
  local d = g:data()
  -- P1: 1 in hand, 5 lost; 1 back (2), topped up to 3: 3 in hand, 3 lost. P2: 5 + 1 back.
  expect_eq(d.hand, { 3, 6 })
  expect_eq(d.lost, { 3, 0 })
  expect_eq(d.lion, 2, "the lion goes to the next player")
  expect_eq(g:to_move(), { 2 })
end)

test("height_scale = body_length: a card asking body length and height has both answers on that scale", function()
  -- The brown bear: body length 200 cm (2-3 m, space 10), height 110 cm (1-1.5 m, space 8).
  -- Each measure keeps its answer: a piece on either is correct, one between them is beside.
  local g = game("brown_bear", { height_scale = "body_length" }, 3)
  round(g, { { 1, S("body_length", 10) }, { 2, S("body_length", 8) }, { 3, S("body_length", 9) } })
  expect_score(g, 1, 7, { scales = 7 })   -- right for the body length
  expect_score(g, 2, 7, { scales = 7 })   -- right for the height
  expect_score(g, 3, 3, { scales = 3 })   -- beside both answers: the neighbour points once
  for seat = 1, 3 do expect_eq(g:data().lost[seat], 0, "every piece comes back") end
  -- The spotted hyena: body length 130 cm (space 8), height 80 cm (75 cm-1 m, space 7): each
  -- correct piece is also beside the other answer, as a correct region beside another.
  for _, both in ipairs({ true, false }) do
    local h = game("spotted_hyena", { height_scale = "body_length", correct_scores_neighbour = both }, 3)
    round(h, { { 1, S("body_length", 8) }, { 2, S("body_length", 7) }, { 3, S("body_length", 9) } })
    expect_score(h, 1, both and 10 or 7, { scales = both and 10 or 7 })
    expect_score(h, 2, both and 10 or 7, { scales = both and 10 or 7 })
    expect_score(h, 3, 3, { scales = 3 })
  end
end)

test("height_scale = body_length answers a height card on the body-length scale", function()
  local g = game("okapi", { height_scale = "body_length" })
  local scales = {}
  for _, m in ipairs(g:moves(1)) do
    if m.type == "scale" then scales[m.scale] = true end
  end
  expect_eq(scales, { weight = true, body_length = true })
  round(g, { { 1, S("body_length", 9) }, { 2, S("body_length", 8) } })   -- 160 cm is 1.5-2 m
  expect_score(g, 1, 7, { scales = 7 })
  expect_score(g, 2, 3, { scales = 3 })
end)
