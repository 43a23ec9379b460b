-- Chenilles scenario tests: nature/market days. The forest board (one lot per d6 face), the
-- six hazard cards, "nature excludes the market" and its "empty-handed" exception, buying
-- caterpillars, exchanging resources at the market's rates, never selling caterpillars there,
-- and the 5-per-species cap on caterpillars.

-- Helpers shared by every test file: games/chenilles/chenilles/testing.lua; its new_game makes
-- every game with the numbers these tests were written against (chenilles/test_numbers.lua).
local t = require("chenilles.testing")
local GOLD, DROMEDARY, KAMIKAZE = t.GOLD, t.DROMEDARY, t.KAMIKAZE
local find_move, play, res, caterpillar = t.find_move, t.play, t.res, t.caterpillar
local count_species, evolve, finish_turn, finish_round = t.count_species, t.evolve, t.finish_turn, t.finish_round
local stats = t.stats

-- P1 goes to nature on round 1 (a nature/market day) with the d6 and the hazard card forced.
local function nature(g, roll, hazard)
  play(g, 1, "nature")
  expect_eq(g:moves(1), { { type = "roll", args = { dice = "d6", on = "the forest board" } } })
  g:force_dice("d6", roll):force_deck("hazard_deck", { hazard })
  play(g, 1, "roll")
end

local function species_counts(g, seat)
  return { count_species(g, seat, GOLD), count_species(g, seat, DROMEDARY), count_species(g, seat, KAMIKAZE) }
end

test("nature: the d6 picks the forest lot", function()
  local lots = {
    [1] = { 1, 1, 1 },          -- empty-handed
    [2] = { 2, 2, 2 },          -- one of each
    [3] = { 1, 1, 2 },          -- one kamikaze
    [4] = { 3, 1, 1 },          -- two gold-moult
    [5] = { 1, 4, 1 },          -- three dromedaries
    [6] = { 2, 2, 1 },          -- one gold-moult and one dromedary
  }
  for roll = 1, 6 do
    local g = t.new_game{ players = 2, seed = 1 }
    play(g, 1, "dromedary", { resource = "water" })
    nature(g, roll, "phasmid")
    expect_eq(species_counts(g, 1), lots[roll], "d6 = " .. roll)
    local found = stats(g).players[1]
    expect_eq(found["found:gold"] + found["found:dromedary"] + found["found:kamikaze"],
              lots[roll][1] + lots[roll][2] + lots[roll][3] - 3)
    expect_eq(caterpillar(g, 1, 7) and caterpillar(g, 1, 7)[3] or 1, 1, "found caterpillars start at birth")
    expect_eq(found["hazard:phasmid"], 1)
    local ids = { "empty_handed", "one_of_each", "one_kamikaze", "two_gold", "three_dromedary", "gold_and_dromedary" }
    expect_eq(found["forest:" .. ids[roll]], 1)
  end
end)

test("nature excludes the market: no purchase or exchange after the forest", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 3, "phasmid")
  for _, m in ipairs(g:moves(1)) do
    expect_true(m.type == "evolve" or m.type == "end", "only evolutions and the end of the turn: " .. m.type)
  end
  expect_illegal(g, 1, { type = "buy", args = { species = "kamikaze", price = "3 copper" } })
end)

test("the empty-handed lot still draws a hazard card and lets the player go to the market", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 1, "phasmid")
  expect_eq(g:zone("hazard_discard"), { "phasmid" })
  expect_eq(res(g, 1, "copper"), 8)
  expect_eq(find_move(g, 1, "nature"), nil, "one trip to nature per turn")
  play(g, 1, "buy", { species = "gold" })
  expect_eq(count_species(g, 1, GOLD), 2)
  expect_eq(res(g, 1, "copper"), 2)
  -- the next nature day offers nature again
  g:force_deck("events", { "double_income" })
  finish_turn(g, 1)
  finish_turn(g, 2)
  finish_round(g)
  for _ = 1, 1 do play(g, 1, "dromedary", { resource = "water" }) end
  expect_true(find_move(g, 1, "nature"), "round 3: nature is open again")
end)

test("hazard: the clearing gives 2 of each food", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 3, "clearing")
  expect_eq({ res(g, 1, "water"), res(g, 1, "leaf"), res(g, 1, "flower"), res(g, 1, "fruit") }, { 3, 3, 3, 3 })
end)

test("hazard: the rare stick insect sells for 4 copper", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 3, "phasmid")
  expect_eq(res(g, 1, "copper"), 8)
end)

test("hazard: a newborn kamikaze from the houseplant joins the vivarium", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 4, "houseplant")
  expect_eq(species_counts(g, 1), { 3, 1, 2 })
  expect_eq(caterpillar(g, 1, 9), { 9, KAMIKAZE, 1, 0, 0 })
end)

test("hazard: the predator eats the most evolved caterpillar", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "double_income" })
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 2)                                          -- the dromedary grows: the most evolved
  finish_turn(g, 1)
  finish_turn(g, 2)
  finish_round(g)                                          -- round 2 (event), round 3 is a nature day
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 3, "predator")
  expect_eq(caterpillar(g, 1, 2), nil, "the grown dromedary was eaten")
  expect_eq(species_counts(g, 1), { 1, 0, 2 })
  expect_eq(stats(g).players[1]["lost:hazard"], 1)
  -- among equals, the oldest caterpillar counts as the most evolved
  local e = t.new_game{ players = 2, seed = 1 }
  play(e, 1, "dromedary", { resource = "water" })
  play(e, 1, "nature")
  e:force_dice("d6", 3):force_deck("hazard_deck", { "predator" })
  play(e, 1, "roll")
  expect_eq(caterpillar(e, 1, 1), nil)
end)

test("hazard: the stream takes 1 water and 1 of each food", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "fruit" })
  nature(g, 3, "stream")
  expect_eq({ res(g, 1, "water"), res(g, 1, "leaf"), res(g, 1, "flower"), res(g, 1, "fruit") }, { 1, 0, 0, 1 })
end)

test("hazard: sick from the rain, no copper and no resource card at the end of the turn", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 3, "rain")
  local ends = {}
  for _, m in ipairs(g:moves(1)) do
    if m.type == "end" then ends[#ends + 1] = m.args.take end
  end
  expect_eq(ends, { "nothing" })
  local copper, deck = res(g, 1, "copper"), #g:zone("resource_deck")
  play(g, 1, "end", { take = "nothing" })
  expect_eq({ res(g, 1, "copper"), #g:zone("resource_deck") }, { copper, deck })
  expect_illegal(g, 2, { type = "end", args = { take = "nothing", gain = "nothing (sick)" } })
  play(g, 2, "dromedary", { resource = "water" })
  expect_true(find_move(g, 2, "end", { take = "copper" }), "the rain made P1 sick for that turn only")
end)

test("market: buy caterpillars with copper; they start at birth", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  local m = find_move(g, 1, "buy", { species = "kamikaze" })
  expect_eq(m.args.price, "3 copper")
  expect_eq(find_move(g, 1, "buy", { species = "dromedary" }), nil, "5 copper: too expensive with 4")
  expect_eq(find_move(g, 1, "buy", { species = "gold" }), nil, "6 copper: too expensive with 4")
  g:play(1, m)
  expect_eq(res(g, 1, "copper"), 1)
  expect_eq(caterpillar(g, 1, 7), { 7, KAMIKAZE, 1, 0, 0 })
  expect_eq(find_move(g, 1, "nature"), nil, "the market excludes nature")
  expect_eq(stats(g).players[1]["bought:kamikaze"], 1)
  expect_eq(stats(g).counts["market visits"], 1)
end)

test("market: exchange resources and copper at the rates", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  local buy = find_move(g, 1, "trade", { resource = "leaf", deal = "buy" })
  expect_eq(buy.args, { resource = "leaf", deal = "buy", give = "2 copper", get = "1 leaf" })
  g:play(1, buy)
  expect_eq({ res(g, 1, "copper"), res(g, 1, "leaf") }, { 2, 2 })
  play(g, 1, "trade", { resource = "water", deal = "sell" })
  expect_eq({ res(g, 1, "copper"), res(g, 1, "water") }, { 3, 2 })
end)

test("market: caterpillars can never be sold for copper there", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  play(g, 1, "trade", { resource = "water", deal = "sell" })
  for _, m in ipairs(g:moves(1)) do expect_true(m.type ~= "sell", "no sale of caterpillars") end
  expect_illegal(g, 1, { type = "sell", args = { caterpillar = 1, species = "gold", stage = "birth", price = "6 copper" } })
end)

test("at most 5 caterpillars per species: the extra ones are lost and counted; none is sold over the cap", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "double_income" })
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 5, "phasmid")                                  -- 1 + 3 dromedaries
  finish_turn(g, 1)
  finish_round(g)                                          -- P2, then round 2
  finish_round(g)
  play(g, 1, "dromedary", { resource = "water" })          -- round 3, a nature day
  play(g, 1, "dromedary", { resource = "water" })
  play(g, 1, "dromedary", { resource = "water" })
  play(g, 1, "dromedary", { resource = "water" })
  nature(g, 5, "phasmid")
  expect_eq(count_species(g, 1, DROMEDARY), 5)
  local p = stats(g).players[1]
  expect_eq({ p["found:dromedary"], p["caterpillars lost to cap:dromedary"] }, { 4, 2 })
  -- round 5, the next nature day: the market offers no sixth dromedary
  g:force_deck("events", { "insurer" })
  finish_turn(g, 1)
  finish_round(g)
  finish_round(g)
  for _ = 1, 5 do play(g, 1, "dromedary", { resource = "water" }) end
  expect_true(res(g, 1, "copper") >= 5, "enough copper for a dromedary")
  expect_eq(find_move(g, 1, "buy", { species = "dromedary" }), nil)
  expect_true(find_move(g, 1, "buy", { species = "kamikaze" }), "other species are still for sale")
end)

test("market: nothing is offered for sale that the player does not hold", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "water" })
  expect_eq(res(g, 1, "fruit"), 1)
  play(g, 1, "trade", { resource = "fruit", deal = "sell" })
  expect_eq(res(g, 1, "fruit"), 0)
  expect_eq(find_move(g, 1, "trade", { resource = "fruit", deal = "sell" }), nil, "no fruit left to sell")
  expect_true(find_move(g, 1, "trade", { resource = "fruit", deal = "buy" }) ~= nil, "fruit can still be bought")
  expect_illegal(g, 1, { type = "trade", args = { resource = "fruit", deal = "sell", give = "1 fruit", get = "1 copper" } })
end)

test("market: a purchase or sale that the caps would only take away is not offered", function()
  -- water starts at its cap of 10: buying water would only be lost to the cap
  local g = t.new_game{ players = 2, seed = 1, data = { ["chenilles.resources.water.start"] = 10 } }
  play(g, 1, "dromedary", { resource = "leaf" })
  expect_eq(res(g, 1, "water"), 10)
  expect_eq(find_move(g, 1, "trade", { resource = "water", deal = "buy" }), nil, "water is at its cap")
  expect_true(find_move(g, 1, "trade", { resource = "leaf", deal = "buy" }) ~= nil, "leaf is not")
  expect_true(find_move(g, 1, "trade", { resource = "water", deal = "sell" }) ~= nil)
  -- copper starts at its cap: a sale would give copper that the cap takes away
  g = t.new_game{ players = 2, seed = 1, data = { ["chenilles.resources.copper.start"] = 10 } }
  play(g, 1, "dromedary", { resource = "water" })
  expect_eq(res(g, 1, "copper"), 10)
  for _, m in ipairs(g:moves(1)) do
    expect_true(not (m.type == "trade" and m.args.deal == "sell"), "no sale at the copper cap: " .. (m.args.resource or ""))
  end
  expect_true(find_move(g, 1, "trade", { resource = "water", deal = "buy" }) ~= nil, "buying still is")
end)
