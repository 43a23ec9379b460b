-- Chenilles scenario tests: the round and turn structure (youngest first, the time token, the
-- recap order), dromedary income, simple evolutions, transformations with forced dice
-- (success, failure, death on the second failure, the immune kamikaze), the gold-moult
-- refund, the kamikaze attack, the end-of-turn income, the caps and the points grid.

-- Helpers shared by every test file: games/chenilles/chenilles/testing.lua; its new_game makes
-- every game with the numbers these tests were written against (chenilles/test_numbers.lua).
local t = require("chenilles.testing")
local GOLD, DROMEDARY, KAMIKAZE = t.GOLD, t.DROMEDARY, t.KAMIKAZE
local find_move, play, res, caterpillar = t.find_move, t.play, t.res, t.caterpillar
local count_species, evolve, finish_turn, finish_round = t.count_species, t.evolve, t.finish_turn, t.finish_round
local time_space, stats = t.time_space, t.stats

test("seat 1, the youngest player, starts; round 1 moved the time token onto space 2", function()
  local g = t.new_game{ players = 3, seed = 4 }
  expect_eq(g:to_move(), { 1 })
  expect_eq(g:score().extra.rounds, 1)
  expect_eq(time_space(g), 2, "the token starts on space 1; round 1 moves it once")
  expect_true(g:view():find("P1 %(youngest%)"), "the view names seat 1 as the youngest")
  expect_eq({ #g:zone("resource_deck"), #g:zone("hazard_deck"), #g:zone("events") }, { 25, 12, 8 },
            "the decks of the data: 25 resource cards, 12 hazard cards, 8 events")
  finish_turn(g, 1)
  expect_eq(g:to_move(), { 2 })
  finish_turn(g, 2)
  expect_eq(g:to_move(), { 3 })
end)

test("every round starts by moving the time token one space on the circular board", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "double_income", "market_detour", "hitech", "insurer" })
  for round = 1, 9 do
    expect_eq(g:score().extra.rounds, round)
    expect_eq(time_space(g), round % 8 + 1, "round " .. round)
    finish_round(g)
  end
  expect_eq(time_space(g), 3, "round 10: after space 8 the token wrapped to space 1, then 2, then 3")
  expect_eq(#g:zone("events_shown"), 5, "event spaces 1, 3, 5, 7 and 3 again revealed five cards")
end)

test("a turn follows the recap order: powers, then nature or market, then evolutions, then income", function()
  local g = t.new_game{ players = 2, seed = 1 }
  -- step 3: the dromedary's resource comes first, alone
  local first = g:moves(1)
  expect_eq(first[1].type, "dromedary")
  expect_eq(#first, 4, "water or one of the three foods")
  play(g, 1, "dromedary", { resource = "leaf" })
  -- steps 3 (kamikaze attack), 4 (nature/market day: nature or the market), 5 and 6 are offered
  local kinds = {}
  for _, m in ipairs(g:moves(1)) do kinds[m.type] = true end
  expect_eq(kinds, { attack = true, nature = true, buy = true, trade = true, evolve = true, ["end"] = true })
  -- an evolution closes steps 3 and 4
  evolve(g, 1, 1)
  kinds = {}
  for _, m in ipairs(g:moves(1)) do kinds[m.type] = true end
  expect_eq(kinds, { evolve = true, ["end"] = true })
  expect_eq(find_move(g, 1, "attack"), nil)
  play(g, 1, "end", { take = "copper" })
  expect_eq(g:to_move(), { 2 })
end)

test("dromedary: one resource of the player's choice per dromedary at the start of the turn", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "fruit", left = 1 })
  expect_eq(res(g, 1, "fruit"), 2)
  -- the forest lot "three dromedaries" (d6 = 5) makes four
  play(g, 1, "nature")
  g:force_dice("d6", 5):force_deck("hazard_deck", { "phasmid" })
  play(g, 1, "roll")
  expect_eq(count_species(g, 1, DROMEDARY), 4)
  finish_turn(g, 1)
  g:force_deck("events", { "double_income" })
  finish_turn(g, 2)
  for left = 4, 1, -1 do
    local m = g:moves(1)
    expect_eq(m[1].type, "dromedary")
    expect_eq(m[1].args.left, left)
    play(g, 1, "dromedary", { resource = "flower" })
  end
  expect_eq(res(g, 1, "flower"), 5)
  expect_true(g:moves(1)[1].type ~= "dromedary", "four dromedaries, four resources")
end)

test("simple evolution: pay the stage's cost and advance one space, without a roll", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "fruit" })
  local m = find_move(g, 1, "evolve", { caterpillar = 1 })
  expect_eq(m.args, { caterpillar = 1, species = "gold", from = "birth", to = "grow_1", cost = "1 water + 1 leaf" })
  g:play(1, m)
  expect_eq(caterpillar(g, 1, 1), { 1, GOLD, 2, 0, 0 })
  expect_eq({ res(g, 1, "water"), res(g, 1, "leaf"), res(g, 1, "flower") }, { 1, 0, 1 })
  expect_eq(g:moves(1)[1].type ~= "roll", true, "no roll for a simple evolution")
end)

test("transformation: pay, then 2d6 at or over the threshold succeeds; a gold moult refunds its resources in copper", function()
  local g = t.new_game{ players = 2, seed = 1 }
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 1)                                          -- birth -> grow_1: 1 water + 1 leaf
  local m = find_move(g, 1, "evolve", { caterpillar = 1 })
  expect_eq(m.args.to, "moult_1")
  expect_eq(m.args.cost, "1 water + 1 leaf + 1 flower")
  expect_eq(m.args.needs, "2d6>=5")
  expect_eq(m.args.odds, "83%")
  g:play(1, m)
  expect_eq({ res(g, 1, "water"), res(g, 1, "leaf"), res(g, 1, "flower") }, { 0, 0, 0 }, "paid before the roll")
  expect_eq(g:moves(1), { { type = "roll", args = { dice = "2d6", needs = "2d6>=5", caterpillar = 1, to = "moult_1" } } })
  g:force_dice("2d6", 5)
  play(g, 1, "roll")
  expect_eq(caterpillar(g, 1, 1), { 1, GOLD, 3, 0, 0 }, "the next 2d6 is 5: the moult succeeds")
  expect_eq(res(g, 1, "copper"), 4 + 3, "3 resources spent on the moult come back as 3 copper")
end)

test("a failed transformation loses the resources; the second failure of that transformation kills", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "double_income" })
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 1)
  evolve(g, 1, 1, 4)                                       -- needs 5, rolled 4
  expect_eq(caterpillar(g, 1, 1), { 1, GOLD, 2, 1, 1 }, "still grow_1, one failure")
  expect_eq({ res(g, 1, "water"), res(g, 1, "leaf"), res(g, 1, "flower"), res(g, 1, "copper") }, { 0, 0, 0, 4 },
            "the resources are lost and nothing is refunded")
  expect_eq(find_move(g, 1, "evolve", { caterpillar = 1 }), nil, "nothing left to pay a second try")
  g:force_deck("resource_deck", { "feast" })
  play(g, 1, "end", { take = "card" })
  finish_turn(g, 2)
  play(g, 1, "dromedary", { resource = "fruit" })
  local m = find_move(g, 1, "evolve", { caterpillar = 1 })
  expect_eq(m.args.failures, 1, "the move shows the earlier failure")
  evolve(g, 1, 1, 3)
  expect_eq(caterpillar(g, 1, 1), nil, "the second failure kills the caterpillar")
  local p = stats(g).players[1]
  expect_eq({ p["death:moult_1"], p.failures, p["reached:moult_1"] }, { 1, 2, 0 })
end)

test("failure counting is a parameter: failures_to_die and failure_scope", function()
  local g = t.new_game{ players = 2, seed = 1, params = { failures_to_die = 1 } }
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 1)
  evolve(g, 1, 1, 2)
  expect_eq(caterpillar(g, 1, 1), nil, "failures_to_die = 1: the first failure kills")
  -- a mortal kamikaze fails moult_1 once, succeeds, then fails moult_2 once: dead only when
  -- failures count over the whole life
  for _, scope in ipairs({ "transformation", "life" }) do
    local l = t.new_game{ players = 2, seed = 1, params = { failure_scope = scope, kamikaze_immune = false } }
    l:force_deck("events", { "double_income" })
    play(l, 1, "dromedary", { resource = "leaf" })
    evolve(l, 1, 3, 5)
    evolve(l, 1, 3, 6)
    expect_eq(caterpillar(l, 1, 3), { 3, KAMIKAZE, 2, 0, 1 }, "a success resets the transformation's failures only")
    l:force_deck("resource_deck", { "feast" })
    play(l, 1, "end", { take = "card" })
    finish_turn(l, 2)
    play(l, 1, "dromedary", { resource = "water" })
    evolve(l, 1, 3)                                        -- grow_1
    evolve(l, 1, 3, 6)                                     -- moult_2 needs 7
    if scope == "life" then
      expect_eq(caterpillar(l, 1, 3), nil, "second failure in its life")
    else
      expect_eq(caterpillar(l, 1, 3), { 3, KAMIKAZE, 3, 1, 2 }, "first failure of moult_2")
    end
  end
end)

test("the kamikaze never dies from failed transformations (unless kamikaze_immune is off)", function()
  for _, immune in ipairs({ true, false }) do
    local g = t.new_game{ players = 2, seed = 1, params = { kamikaze_immune = immune } }
    play(g, 1, "dromedary", { resource = "leaf" })
    local m = find_move(g, 1, "evolve", { caterpillar = 3 })
    expect_eq({ m.args.to, m.args.cost, m.args.needs }, { "moult_1", "1 water + 1 leaf", "2d6>=6" })
    evolve(g, 1, 3, 5)
    evolve(g, 1, 3, 5)
    if immune then
      expect_eq(caterpillar(g, 1, 3), { 3, KAMIKAZE, 1, 2, 2 }, "two failures and alive")
    else
      expect_eq(caterpillar(g, 1, 3), nil, "a mortal kamikaze dies at the second failure")
    end
  end
end)

test("kamikaze attack: costs column + 1 copper, destroys column food of the target, and dies", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "double_income" })
  play(g, 1, "dromedary", { resource = "leaf" })
  local m = find_move(g, 1, "attack")
  expect_eq(m.args, { kamikaze = 3, stage = "birth", target = "P2", cost = "2 copper", destroys = "1 food" })
  g:play(1, m)
  expect_eq(res(g, 1, "copper"), 2)
  expect_eq(caterpillar(g, 1, 3), nil, "the attack kills the kamikaze")
  expect_eq({ res(g, 2, "leaf"), res(g, 2, "flower"), res(g, 2, "fruit"), res(g, 2, "water") }, { 0, 1, 1, 2 },
            "one food destroyed (the largest stock, ties in data order); water is not food")
  expect_eq(find_move(g, 1, "attack"), nil, "one attack per turn")
  finish_turn(g, 1)
  -- P2's kamikaze reaches moult_1 (column 2): next turn it costs 3 copper and destroys 2 food
  play(g, 2, "dromedary", { resource = "leaf" })
  evolve(g, 2, 6, 6)
  expect_eq(caterpillar(g, 2, 6), { 6, KAMIKAZE, 2, 0, 0 })
  play(g, 2, "end", { take = "copper" })
  finish_turn(g, 1, "card", "fruit")
  play(g, 2, "dromedary", { resource = "water" })
  local before = { res(g, 1, "leaf"), res(g, 1, "flower"), res(g, 1, "fruit") }
  m = find_move(g, 2, "attack", { kamikaze = 6 })
  expect_eq({ m.args.stage, m.args.cost, m.args.destroys }, { "moult_1", "3 copper", "2 food" })
  local copper = res(g, 2, "copper")
  g:play(2, m)
  expect_eq(res(g, 2, "copper"), copper - 3)
  local after = { res(g, 1, "leaf"), res(g, 1, "flower"), res(g, 1, "fruit") }
  expect_eq((before[1] + before[2] + before[3]) - (after[1] + after[2] + after[3]), 2)
  expect_eq(stats(g).counts["kamikaze attacks"], 2)
  expect_eq(stats(g).players[2]["kamikaze attacks"], 1)
end)

test("kamikaze_target = next: only the next player can be attacked", function()
  local g = t.new_game{ players = 3, seed = 1, params = { kamikaze_target = "next" } }
  play(g, 1, "dromedary", { resource = "leaf" })
  local targets = {}
  for _, m in ipairs(g:moves(1)) do
    if m.type == "attack" then targets[#targets + 1] = m.args.target end
  end
  expect_eq(targets, { "P2" })
  local any = t.new_game{ players = 3, seed = 1 }
  play(any, 1, "dromedary", { resource = "leaf" })
  targets = {}
  for _, m in ipairs(any:moves(1)) do
    if m.type == "attack" then targets[#targets + 1] = m.args.target end
  end
  expect_eq(targets, { "P2", "P3" })
end)

test("end of turn: take 2 copper or draw a resource card", function()
  local g = t.new_game{ players = 2, seed = 1 }
  finish_turn(g, 1, "copper")
  expect_eq(res(g, 1, "copper"), 6)
  expect_eq(stats(g).players[1]["took copper"], 1)
  play(g, 2, "dromedary", { resource = "fruit" })
  g:force_deck("resource_deck", { "water_2" })
  play(g, 2, "end", { take = "card" })
  expect_eq(res(g, 2, "water"), 4)
  expect_eq(g:zone("resource_discard"), { "water_2" })
end)

test("caps: 10 copper at most; what goes over is lost and counted", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "double_income", "market_detour" })
  finish_round(g, "copper")                                -- 4 + 2
  finish_round(g, "copper")                                -- double income: + 4
  expect_eq(res(g, 1, "copper"), 10)
  finish_round(g, "copper")                                -- + 2: both cut by the cap
  expect_eq(res(g, 1, "copper"), 10)
  expect_eq(stats(g).players[1]["lost to cap:copper"], 2)
  expect_true(g:view():find("copper 10/10"), "the view shows resources against their caps")
end)

test("caps: 10 of each resource; a dromedary's resource over the cap is lost and counted", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "double_income", "market_detour", "hitech", "insurer" })
  for _ = 1, 9 do
    finish_turn(g, 1, "copper", "fruit")
    finish_turn(g, 2, "copper")
  end
  expect_eq(res(g, 1, "fruit"), 10)
  expect_eq(stats(g).players[1]["lost to cap:fruit"], 0)
  finish_turn(g, 1, "copper", "fruit")
  expect_eq(res(g, 1, "fruit"), 10)
  expect_eq(stats(g).players[1]["lost to cap:fruit"], 1)
end)

test("the score is the points grid: points per caterpillar by species and stage", function()
  local g = t.new_game{ players = 2, seed = 1 }
  expect_score(g, 1, 3, { gold = 1, dromedary = 1, kamikaze = 1 })
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 1)                                          -- gold grow_1: 2 points
  evolve(g, 1, 1, 9)                                       -- gold moult_1: 4 points
  expect_score(g, 1, 6, { gold = 4, dromedary = 1, kamikaze = 1 })
  expect_score(g, 2, 3, { gold = 1, dromedary = 1, kamikaze = 1 })
end)

test("the view shows each vivarium by species and space, failures, points and the step to play", function()
  local g = t.new_game{ players = 2, seed = 1 }
  expect_true(g:view(1):find("to play: 3. powers: dromedary income", 1, true), "the step of the turn")
  play(g, 1, "dromedary", { resource = "leaf" })
  play(g, 1, "nature")
  g:force_dice("d6", 4):force_deck("hazard_deck", { "phasmid" })
  play(g, 1, "roll")
  evolve(g, 1, 1)
  evolve(g, 1, 1, 4)
  local v = g:view()
  expect_true(v:find("Last: P1's gold tried moult_1: rolled 4 (2d6>=5), failed", 1, true), "the last roll")
  expect_true(v:find("gold:      birth x2, grow_1 (1 failure) x1", 1, true), "species, spaces, failures, counts")
  expect_true(v:find("P1 (youngest): copper 8/10, water 0/10, leaf 0/10, flower 0/10, fruit 1/10; 6 points", 1, true),
              "resources against caps, points")
  expect_true(v:find("Round 1. Time token on space 2 of 8 (nature/market day); 8 event card(s) left.", 1, true))
  expect_true(v:find("to play: 5. evolutions, then 6. end the turn", 1, true))
  expect_true(v:find("P2: copper 4/10, water 2/10, leaf 1/10, flower 1/10, fruit 1/10; 3 points\n", 1, true), "P2 waits")
end)
