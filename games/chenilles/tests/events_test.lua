-- Chenilles scenario tests: the event cards. Permanent: drought (the alternate costs),
-- insurer (5 copper; a death in transformation refunds the purchase price), mafia racket
-- (a d6 before playing; on a 1 pay 1 copper or skip the turn). One-shot: the detour by the
-- market (sell at purchase price), double income, the hi-tech vivarium, the buyback of the
-- most evolved caterpillar, the broken lamps (the moult-3 column dies, uninsured).

-- Helpers shared by every test file: games/chenilles/chenilles/testing.lua; its new_game makes
-- every game with the numbers these tests were written against (chenilles/test_numbers.lua).
local t = require("chenilles.testing")
local GOLD, DROMEDARY, KAMIKAZE = t.GOLD, t.DROMEDARY, t.KAMIKAZE
local find_move, play, res, viv, caterpillar = t.find_move, t.play, t.res, t.viv, t.caterpillar
local count_species, evolve, finish_turn, finish_round = t.count_species, t.evolve, t.finish_turn, t.finish_round
local stats = t.stats

-- Plays round 1 with `take` and reveals `event` at the start of round 2 (an event space).
local function reveal_in_round_2(g, event, take)
  g:force_deck("events", { event })
  finish_round(g, take)
  expect_eq(g:zone("events_shown"), { event })
  expect_eq(g:score().extra.rounds, 2)
end

test("drought (permanent): costs switch to the drought table", function()
  local g = t.new_game{ players = 2, seed = 1 }
  expect_eq(find_move(g, 1, "evolve"), nil, "the dromedary's resource first")
  play(g, 1, "dromedary", { resource = "water" })
  expect_eq(find_move(g, 1, "evolve", { caterpillar = 1 }).args.cost, "1 water + 1 leaf")
  finish_turn(g, 1)
  reveal_in_round_2(g, "drought")
  play(g, 1, "dromedary", { resource = "water" })
  local m = find_move(g, 1, "evolve", { caterpillar = 1 })
  expect_eq(m.args.cost, "2 water + 1 leaf")
  local water = res(g, 1, "water")
  g:play(1, m)
  expect_eq(res(g, 1, "water"), water - 2)
  expect_true(g:view():find("Permanent events: drought"), "the view lists the permanent event")
  g:force_deck("events", { "double_income" })
  finish_round(g)
  finish_round(g)
  play(g, 1, "dromedary", { resource = "leaf" })
  expect_eq(find_move(g, 1, "evolve", { caterpillar = 2 }).args.cost, "2 water + 1 leaf", "still in force later")
end)

test("insurer (permanent): pay 5 copper; a caterpillar dying in a transformation refunds its price", function()
  local g = t.new_game{ players = 2, seed = 1, params = { failures_to_die = 1 } }
  reveal_in_round_2(g, "insurer", "copper")                -- 6 copper each
  expect_eq(g:moves(1), { { type = "insure", args = { cost = "5 copper" } }, { type = "done", args = { step = "insure" } } },
            "step 2, the event's action, comes before the powers")
  play(g, 1, "insure")
  expect_eq(res(g, 1, "copper"), 1)
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 1)
  evolve(g, 1, 1, 2)                                       -- dies (failures_to_die = 1)
  expect_eq(caterpillar(g, 1, 1), nil)
  expect_eq(res(g, 1, "copper"), 1 + 6, "the gold-moult caterpillar's price, 6 copper")
  finish_turn(g, 1)
  play(g, 2, "done", { step = "insure" })                  -- P2 declines
  expect_eq(g:moves(2)[1].type, "dromedary")
  finish_turn(g, 2)
  expect_eq(g:moves(1)[1].type, "dromedary", "insurance_offer = reveal_round: no offer after the visit")
  local p = stats(g).players
  expect_eq({ p[1].insured, p[1]["insurance payouts"], p[2].insured }, { 1, 1, 0 })
end)

test("insurance_offer = every_turn: the insurer stays available", function()
  local g = t.new_game{ players = 2, seed = 1, params = { insurance_offer = "every_turn" } }
  reveal_in_round_2(g, "insurer", "copper")
  play(g, 1, "done", { step = "insure" })
  finish_turn(g, 1)
  finish_turn(g, 2)
  expect_eq(g:moves(1)[1].type, "insure", "offered again in round 3")
end)

test("racket (permanent): a d6 before playing; on a 1, pay 1 copper or skip the turn", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "racket" })
  finish_turn(g, 1)
  finish_turn(g, 2)
  expect_eq(g:moves(1), { { type = "roll", args = { dice = "d6", on = "the racket", hits_on = "d6<=1" } } },
            "round 2: the turn opens with the racket's d6")
  g:force_dice("d6", 1)                                    -- P1's racket roll at the start of round 2
  play(g, 1, "roll")
  expect_eq(g:moves(1), { { type = "racket", args = { choice = "pay", cost = "1 copper" } },
                          { type = "racket", args = { choice = "skip", cost = "the whole turn" } } })
  local copper = res(g, 1, "copper")
  play(g, 1, "racket", { choice = "skip" })
  expect_eq(g:to_move(), { 2 }, "P1 skipped the whole turn")
  expect_eq(res(g, 1, "copper"), copper, "no income either")
  g:force_dice("d6", 4)                                    -- P2's roll: no racket
  play(g, 2, "roll")
  expect_eq(g:moves(2)[1].type, "dromedary", "a 4: P2 plays normally")
  -- round 3: P1 rolls 1 again and pays
  finish_turn(g, 2)
  g:force_dice("d6", 1)
  play(g, 1, "roll")
  expect_eq(g:moves(1)[1].type, "racket")
  finish_turn(g, 1, "copper")
  local p = stats(g).players[1]
  expect_eq({ p["racket hits"], p["racket paid"], p["racket skips"] }, { 2, 1, 1 })
end)

test("racket: paying 1 copper lets the turn go on; without copper the turn is skipped", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "racket", "double_income" })
  finish_turn(g, 1)
  finish_turn(g, 2)
  g:force_dice("d6", 1)
  play(g, 1, "roll")
  play(g, 1, "racket", { choice = "pay" })
  expect_eq(res(g, 1, "copper"), 4 + 2 - 1)
  expect_eq(g:moves(1)[1].type, "dromedary")
  -- P1 spends its copper at the market on round 3 (a nature day), then rolls a 1 on round 4
  play(g, 1, "dromedary", { resource = "water" })
  play(g, 1, "end", { take = "card" })
  g:force_dice("d6", 6)
  finish_turn(g, 2)
  expect_eq(g:score().extra.rounds, 3)
  g:force_dice("d6", 6)
  play(g, 1, "roll")
  play(g, 1, "dromedary", { resource = "water" })
  play(g, 1, "buy", { species = "dromedary" })
  expect_eq(res(g, 1, "copper"), 0)
  play(g, 1, "end", { take = "card" })
  g:force_dice("d6", 6)
  play(g, 2, "roll")
  play(g, 2, "dromedary", { resource = "water" })
  play(g, 2, "end", { take = "copper" })
  expect_eq(g:score().extra.rounds, 4)
  g:force_dice("d6", 1)                                    -- P1's roll of round 4, with 0 copper
  play(g, 1, "roll")
  expect_eq(g:to_move(), { 2 }, "P1 could not pay: its turn was skipped")
  local p = stats(g).players[1]
  expect_eq({ p["racket hits"], p["racket paid"], p["racket skips"] }, { 2, 1, 1 })
end)

test("racket_rounds limits how long the racket lasts", function()
  local g = t.new_game{ players = 2, seed = 1, params = { racket_rounds = 1 } }
  g:force_deck("events", { "racket" })
  finish_turn(g, 1)
  finish_turn(g, 2)
  g:force_dice("d6", 1)
  play(g, 1, "roll")
  expect_eq(g:moves(1)[1].type, "racket", "round 2, the round it came")
  play(g, 1, "racket", { choice = "pay" })
  finish_turn(g, 1)
  finish_turn(g, 2)
  g:force_dice("d6", 1)
  expect_eq(g:moves(1)[1].type, "dromedary", "round 3: over, no roll")
end)

test("detour by the market (one-shot): this round, caterpillars sell at their purchase price", function()
  local g = t.new_game{ players = 2, seed = 1 }
  reveal_in_round_2(g, "market_detour", "card")
  local m = g:moves(1)
  expect_eq(m[1], { type = "sell", args = { caterpillar = 1, species = "gold", stage = "birth", price = "6 copper" } })
  expect_eq(m[#m], { type = "done", args = { step = "sell" } })
  play(g, 1, "sell", { species = "kamikaze" })
  expect_eq(res(g, 1, "copper"), 4 + 3)
  expect_eq(caterpillar(g, 1, 3), nil)
  play(g, 1, "sell", { species = "gold" })
  expect_eq(res(g, 1, "copper"), 10, "7 + 6, capped at 10")
  play(g, 1, "done", { step = "sell" })
  expect_eq(g:moves(1)[1].type, "dromedary")
  finish_turn(g, 1)
  play(g, 2, "sell", { species = "gold" })
  play(g, 2, "sell", { species = "dromedary" })
  play(g, 2, "sell", { species = "kamikaze" })
  expect_eq(viv(g, 2), {}, "P2 sold everything")
  expect_eq(res(g, 2, "copper"), 10)
  local kinds = {}
  for _, move in ipairs(g:moves(2)) do kinds[#kinds + 1] = move.type end
  expect_eq(kinds, { "end", "end" }, "no caterpillar left: no dromedary income, no attack, nothing to evolve")
  finish_turn(g, 2)
  expect_eq(g:moves(1)[1].type, "dromedary", "round 3: no more selling")
  expect_eq(stats(g).players[1]["lost:sold"], 2)
end)

test("double income (one-shot): this round the end-of-turn copper or card counts twice", function()
  local g = t.new_game{ players = 2, seed = 1 }
  reveal_in_round_2(g, "double_income", "card")
  play(g, 1, "dromedary", { resource = "fruit" })
  expect_eq(find_move(g, 1, "end", { take = "copper" }).args.gain, "4 copper")
  play(g, 1, "end", { take = "copper" })
  expect_eq(res(g, 1, "copper"), 8)
  play(g, 2, "dromedary", { resource = "fruit" })
  local water = res(g, 2, "water")
  g:force_deck("resource_deck", { "water_2" })
  play(g, 2, "end", { take = "card" })
  expect_eq(res(g, 2, "water"), water + 4)
  play(g, 1, "dromedary", { resource = "fruit" })
  expect_eq(find_move(g, 1, "end", { take = "copper" }).args.gain, "2 copper", "only that round")
end)

test("hi-tech vivarium (one-shot): each player's two least evolved caterpillars advance for free", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "hitech" })
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 1)                                          -- gold: grow_1
  finish_turn(g, 1)
  local water = res(g, 1, "water")
  finish_turn(g, 2)
  expect_eq(caterpillar(g, 1, 1), { 1, GOLD, 2, 0, 0 }, "the most evolved does not move")
  expect_eq(caterpillar(g, 1, 2), { 2, DROMEDARY, 3, 0, 0 }, "dromedary: birth -> moult_1, past grow_1")
  expect_eq(caterpillar(g, 1, 3), { 3, KAMIKAZE, 2, 0, 0 }, "kamikaze: birth -> moult_1, no roll")
  expect_eq(res(g, 1, "water"), water, "no cost")
  expect_eq({ caterpillar(g, 2, 4)[3], caterpillar(g, 2, 5)[3], caterpillar(g, 2, 6)[3] }, { 1, 3, 2 },
            "among equals the newest count as least evolved")
  expect_eq(stats(g).players[1]["reached:moult_1"], 2)
  -- hitech_advance = next_stage: one space only
  local n = t.new_game{ players = 2, seed = 1, params = { hitech_advance = "next_stage" } }
  reveal_in_round_2(n, "hitech")
  expect_eq({ caterpillar(n, 1, 1)[3], caterpillar(n, 1, 2)[3], caterpillar(n, 1, 3)[3] }, { 1, 2, 2 },
            "dromedary: birth -> grow_1, kamikaze: birth -> moult_1")
end)

test("buyback (one-shot): everyone loses the most evolved caterpillar for twice its purchase price", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "buyback" })
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 3, 6)                                       -- kamikaze: moult_1
  play(g, 1, "end", { take = "card" })
  finish_turn(g, 2, "card")
  expect_eq(caterpillar(g, 1, 3), nil, "P1's kamikaze was the most evolved")
  expect_eq(res(g, 1, "copper"), 4 + 6, "twice 3 copper")
  expect_eq(caterpillar(g, 2, 4), nil, "P2: all at birth, the oldest goes")
  expect_eq(res(g, 2, "copper"), 10, "4 + twice 6, capped")
  local p = stats(g).players
  expect_eq({ p[1]["lost:buyback"], p[2]["lost:buyback"], p[2]["lost to cap:copper"] }, { 1, 1, 6 })
end)

test("broken lamps (one-shot): every caterpillar in the moult-3 column dies; insurance does not pay", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "insurer", "broken_lamps" })
  -- round 1: the kamikaze moults once
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 3, 6)
  play(g, 1, "end", { take = "copper" })
  finish_turn(g, 2)
  -- round 2: insure, grow, moult 2
  play(g, 1, "insure")
  play(g, 1, "dromedary", { resource = "flower" })
  evolve(g, 1, 3)                                          -- grow_1
  evolve(g, 1, 3, 7)                                       -- moult_2
  g:force_deck("resource_deck", { "water_fruit" })
  play(g, 1, "end", { take = "card" })
  finish_turn(g, 2)
  -- round 3 (a nature day): a clearing in the forest, then moult 3 (column 4)
  play(g, 1, "dromedary", { resource = "water" })
  play(g, 1, "nature")
  g:force_dice("d6", 1):force_deck("hazard_deck", { "clearing" })
  play(g, 1, "roll")
  evolve(g, 1, 3, 7)
  expect_eq(caterpillar(g, 1, 3), { 3, KAMIKAZE, 5, 0, 0 })
  finish_turn(g, 1)
  local copper = res(g, 1, "copper")
  finish_turn(g, 2)                                        -- round 4 reveals the broken lamps
  expect_eq(g:zone("events_shown"), { "insurer", "broken_lamps" })
  expect_eq(caterpillar(g, 1, 3), nil, "grilled")
  expect_eq(res(g, 1, "copper"), copper, "insured, but no payout")
  expect_eq(count_species(g, 1, GOLD) + count_species(g, 1, DROMEDARY), 2, "the others are safe")
  expect_eq(stats(g).players[1]["lost:broken_lamps"], 1)
end)
