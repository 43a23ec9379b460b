-- Fauna's round: seven pieces (one on the score track), the compulsory first placement, one
-- piece per region or scale space, a pass that is final for the round, the lion, the end
-- thresholds by player count (strictly more than 120/100/80), shared victory, the decks, and
-- the hidden half of the card.

local function game(params, players, card)
  local g = new_game{ players = players or 2, seed = 1, params = params or {} }
  if card then g:set_zone("card", nil, { card }) end
  return g
end

local function has(moves, kind)
  for _, m in ipairs(moves) do
    if m.type == kind then return true end
  end
  return false
end

local function pass_all(g)
  while g.phase == "place" do
    local seat = g:to_move()[1]
    if not has(g:moves(seat), "pass") then g:play(seat, g:moves(seat)[1]) else g:play(seat, { type = "pass" }) end
    if g:data().passed[1] == false and g:data().passed[2] == false then return end
  end
end

test("six pieces to place each; the first placement of a round is compulsory", function()
  local g = game()
  expect_eq(g:data().hand, { 6, 6 })
  expect_eq(has(g:moves(1), "pass"), false)
  expect_illegal(g, 1, { type = "pass" })
  g:play(1, { type = "region", region = "sahara" })
  expect_eq(has(g:moves(2), "pass"), false)
  g:play(2, { type = "region", region = "sahel" })
  expect_eq(has(g:moves(1), "pass"), true)
end)

test("one piece per region and per scale space, whoever owns it", function()
  local g = game(nil, 2, "okapi")
  g:play(1, { type = "region", region = "sahara" })
  expect_illegal(g, 2, { type = "region", region = "sahara" })
  g:play(2, { type = "scale", scale = "weight", bucket = 5 })
  expect_illegal(g, 1, { type = "scale", scale = "weight", bucket = 5 })
  expect_illegal(g, 1, { type = "region", region = "sahara" })
  expect_illegal(g, 1, { type = "scale", scale = "tail_length", bucket = 3 }, "")  -- the okapi card does not ask it
end)

test("a pass is final for the round: the others go on placing", function()
  local g = game(nil, 3)
  g:play(1, { type = "region", region = "sahara" })
  g:play(2, { type = "region", region = "sahel" })
  g:play(3, { type = "region", region = "japan" })
  g:play(1, { type = "pass" })
  g:play(2, { type = "region", region = "andes" })
  g:play(3, { type = "region", region = "pampas" })
  expect_eq(g:to_move(), { 2 }, "P1 is skipped")
end)

test("the lion: to the next player, or to the last on the score track", function()
  local g = game(nil, 3, "okapi")
  g:play(1, { type = "region", region = "congo_basin" }):play(2, { type = "region", region = "alaska" })
  g:play(3, { type = "region", region = "sahel" })
  pass_all(g)
  expect_eq(g:data().lion, 2)
  local h = game({ lion = "last_on_track" }, 3, "okapi")
  h:play(1, { type = "region", region = "congo_basin" }):play(2, { type = "region", region = "alaska" })
  h:play(3, { type = "region", region = "sahel" })
  pass_all(h)
  expect_eq(h:data().lion, 2, "P2 scored nothing: last on the track")
  expect_eq(h:to_move(), { 2 })
end)

local function near_target(players, target, gain_region)
  local g = game(nil, players, "okapi")
  local pts = {}
  for s = 1, players do pts[s] = { regions = 0, scales = 0 } end
  pts[1].regions = target - 12 + gain_region
  g:set_data("points", pts)
  g:play(1, { type = "region", region = "congo_basin" })
  for s = 2, players do g:play(s, { type = "region", region = ({ "alaska", "japan", "andes", "pampas", "siberia" })[s - 1] }) end
  pass_all(g)
  return g
end

test("the end: more than 120 points with 2-3 players, 100 with 4-5, 80 with 6; reaching it exactly is not enough", function()
  for _, c in ipairs({ { 2, 120 }, { 3, 120 }, { 4, 100 }, { 5, 100 }, { 6, 80 } }) do
    local over = near_target(c[1], c[2], 1)
    expect_eq(over.phase, "over", c[1] .. " players past " .. c[2])
    expect_eq(over:score().extra.ending, "target reached")
    local equal = near_target(c[1], c[2], 0)
    expect_eq(equal.phase, "place", c[1] .. " players at exactly " .. c[2])
  end
end)

test("a tie at the end is a shared victory", function()
  local g = game(nil, 2, "okapi")
  g:set_data("points", { { regions = 110, scales = 0 }, { regions = 110, scales = 0 } })
  g:play(1, { type = "region", region = "congo_basin" }):play(2, { type = "scale", scale = "weight", bucket = 10 })
  g:play(1, { type = "pass" })
  g:play(2, { type = "region", region = "siberia" }):play(2, { type = "region", region = "japan" })
  g:play(2, { type = "pass" })
  expect_eq(g.phase, "over")
  expect_score(g, 1, 122)
  expect_score(g, 2, 117)
  local h = game(nil, 2, "okapi")
  h:set_data("points", { { regions = 110, scales = 0 }, { regions = 115, scales = 0 } })
  h:play(1, { type = "region", region = "congo_basin" }):play(2, { type = "scale", scale = "weight", bucket = 10 })
  h:play(1, { type = "pass" }):play(2, { type = "pass" })
  expect_eq(h:score().extra.winners, { 1, 2 }, "122 each")
end)

test("decks: green, black or mixed", function()
  local function ids(params)
    local g = game(params)
    local all = {}
    for _, id in ipairs(g:zone("box")) do all[id] = true end
    for _, id in ipairs(g:zone("card")) do all[id] = true end
    return all
  end
  local green, black, mixed = ids{ deck = "green" }, ids{ deck = "black" }, ids{}
  expect_eq(green.red_fox, true)
  expect_eq(green.okapi, nil)
  expect_eq(black.okapi, true)
  expect_eq(black.red_fox, nil)
  expect_eq(mixed.okapi and mixed.red_fox, true)
end)

test("the players see only the top half of the card until the reveal", function()
  local g = game(nil, 2, "okapi")
  local v = g:view(1)
  expect_true(v:find("lives in 1 region(s); asks: weight, height", 1, true) ~= nil, v)
  expect_true(v:find("Okapi", 1, true) ~= nil)
  expect_true(v:find("250", 1, true) == nil, "no measure before the reveal")
  expect_true(v:find("The card:", 1, true) == nil)
  g:play(1, { type = "region", region = "congo_basin" }):play(2, { type = "region", region = "sahel" })
  g:play(1, { type = "pass" }):play(2, { type = "pass" })
  v = g:view(1)
  expect_true(v:find("The card: Okapi (Okapia johnstoni), 1 region(s): Congo Basin", 1, true) ~= nil, v)
  expect_true(v:find("weight: 250 kg (100–300 kg)", 1, true) ~= nil, v)
  expect_true(v:find("P1 on Congo Basin: correct: 12", 1, true) ~= nil)
  expect_true(v:find("P2 on Sahel: next to a correct region: 8", 1, true) ~= nil)
end)

test("a save reloads the same round and plays on identically", function()
  local g = game(nil, 3)
  g:play(1, { type = "region", region = "sahara" })
  local copy = load_game(g:save())
  expect_eq(copy:hash(), g:hash())
  g:play_random(30, 2)
  copy:play_random(30, 2)
  expect_eq(copy:hash(), g:hash())
end)
