-- Chenilles scenario tests: the corners of the powers and the caps that the other files leave
-- out. The gold-moult refund (moults only by default, none for the chrysalis or the butterfly;
-- under the drought it refunds the drought cost actually paid), what the insurance does not
-- cover (the predator, the kamikaze's sacrifice, the buyback), a butterfly reached through the
-- hi-tech vivarium ends the game (the spaces it jumps count as reached), kamikaze_attacks_per_turn
-- above 1, and the 10-unit caps of water and of each food (the excess is lost and counted as
-- "lost to cap:<resource>").

-- Helpers shared by every test file: games/chenilles/chenilles/testing.lua; its new_game makes
-- every game with the numbers these tests were written against (chenilles/test_numbers.lua).
local t = require("chenilles.testing")
local GOLD, KAMIKAZE = t.GOLD, t.KAMIKAZE
local find_move, play, res, viv, caterpillar = t.find_move, t.play, t.res, t.viv, t.caterpillar
local count_species, evolve, finish_turn, finish_round = t.count_species, t.evolve, t.finish_turn, t.finish_round
local stats = t.stats

local FOODS = { "leaf", "flower", "fruit" }
local GOODS = { "water", "leaf", "flower", "fruit" }

local function lost_to_cap(g, seat)
  local p, lost = stats(g).players[seat], {}
  for _, r in ipairs({ "copper", "water", "leaf", "flower", "fruit" }) do lost[r] = p["lost to cap:" .. r] end
  return lost
end

-- The id of seat's first caterpillar of a species.
local function first_of(g, seat, species)
  for _, c in ipairs(viv(g, seat)) do
    if c[2] == species then return c[1] end
  end
end

-- ---------------------------------------------------------------------------------------
-- 1. The gold-moult refund.

-- P1's gold-moult caterpillar (id 1) goes from birth to the butterfly, every roll a 12: the
-- moults, the chrysalis in round 1, the butterfly in round 2. The copper cap is raised to 30
-- and copper starts at 0 so that no refund is ever cut by the cap; the goods start at 10.
-- Returns P1's copper and "gold refunds" tally after the moults, the chrysalis and the butterfly.
local function gold_to_butterfly(refund_on)
  local g = t.new_game{ players = 2, seed = 1, params = { gold_refund_on = refund_on },
                      data = { ["chenilles.resources.copper.start"] = 0, ["chenilles.resources.copper.cap"] = 30,
                               ["chenilles.resources.water.start"] = 10, ["chenilles.resources.leaf.start"] = 10,
                               ["chenilles.resources.flower.start"] = 10, ["chenilles.resources.fruit.start"] = 10 } }
  g:force_deck("events", { "double_income" })              -- round 2's event changes nothing here
  local out = {}
  play(g, 1, "dromedary", { resource = "water" })
  evolve(g, 1, 1)                                          -- grow_1
  evolve(g, 1, 1, 12)                                      -- moult_1: 3 units
  evolve(g, 1, 1)                                          -- grow_2
  evolve(g, 1, 1, 12)                                      -- moult_2: 4 units
  evolve(g, 1, 1)                                          -- grow_3
  evolve(g, 1, 1, 12)                                      -- moult_3: 5 units
  expect_eq(caterpillar(g, 1, 1), { 1, GOLD, 7, 0, 0 }, "moult_3 reached")
  out.moults = { res(g, 1, "copper"), stats(g).players[1]["gold refunds"] }
  local m = find_move(g, 1, "evolve", { caterpillar = 1 })
  expect_eq({ m.args.to, m.args.cost }, { "chrysalis", "3 water + 2 leaf + 2 flower" })
  evolve(g, 1, 1, 12)                                      -- chrysalis: 7 units
  expect_eq(caterpillar(g, 1, 1), { 1, GOLD, 8, 0, 0 }, "chrysalis reached")
  out.chrysalis = { res(g, 1, "copper"), stats(g).players[1]["gold refunds"] }
  g:force_deck("resource_deck", { "water_2" })
  play(g, 1, "end", { take = "card" })
  finish_turn(g, 2)
  play(g, 1, "dromedary", { resource = "water" })
  m = find_move(g, 1, "evolve", { caterpillar = 1 })
  expect_eq({ m.args.to, m.args.cost }, { "butterfly", "3 water + 1 leaf + 2 flower + 3 fruit" })
  evolve(g, 1, 1, 12)                                      -- butterfly: 9 units
  expect_eq(caterpillar(g, 1, 1), { 1, GOLD, 9, 0, 0 }, "butterfly reached")
  out.butterfly = { res(g, 1, "copper"), stats(g).players[1]["gold refunds"] }
  return out
end

test("gold refund (default gold_refund_on = moults): the chrysalis and the butterfly refund nothing", function()
  local r = gold_to_butterfly("moults")
  expect_eq(r.moults, { 12, 12 }, "the three moults refund 3 + 4 + 5 copper")
  expect_eq(r.chrysalis, { 12, 12 }, "the successful chrysalis (7 units spent) refunds no copper")
  expect_eq(r.butterfly, { 12, 12 }, "the successful butterfly (9 units spent) refunds no copper")
end)

test("gold refund with gold_refund_on = transformations: the chrysalis and the butterfly refund too", function()
  local r = gold_to_butterfly("transformations")
  expect_eq(r.moults, { 12, 12 }, "the moults refund as with the default")
  expect_eq(r.chrysalis, { 12 + 7, 19 }, "the chrysalis refunds its 7 units")
  expect_eq(r.butterfly, { 19 + 9, 28 }, "the butterfly refunds its 9 units")
end)

test("gold refund under the drought: a moult refunds the drought cost actually paid (4, not 3)", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "drought" })
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 1)                                          -- grow_1 before the drought: 1 water + 1 leaf
  g:force_deck("resource_deck", { "fruit_2" })
  play(g, 1, "end", { take = "card" })                     -- copper stays at 4
  finish_turn(g, 2)
  expect_eq(g:zone("events_shown"), { "drought" }, "round 2 revealed the drought")
  play(g, 1, "dromedary", { resource = "water" })
  expect_eq({ res(g, 1, "copper"), res(g, 1, "water"), res(g, 1, "leaf"), res(g, 1, "flower") }, { 4, 2, 1, 1 })
  local m = find_move(g, 1, "evolve", { caterpillar = 1 })
  expect_eq({ m.args.to, m.args.cost }, { "moult_1", "2 water + 1 leaf + 1 flower" },
            "the drought cost of moult_1: one more water than the normal 1 water + 1 leaf + 1 flower")
  evolve(g, 1, 1, 12)
  expect_eq(caterpillar(g, 1, 1), { 1, GOLD, 3, 0, 0 })
  expect_eq({ res(g, 1, "water"), res(g, 1, "leaf"), res(g, 1, "flower") }, { 0, 0, 0 }, "4 units paid")
  expect_eq(res(g, 1, "copper"), 4 + 4, "the refund is the 4 units spent under the drought")
  expect_eq(stats(g).players[1]["gold refunds"], 4)
end)

-- ---------------------------------------------------------------------------------------
-- 2. What the insurance does not cover (README, house rule 6).

test("insurance does not pay for the kamikaze's sacrifice, the predator or the buyback", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "insurer", "buyback" })         -- insurer on round 2, buyback on round 4
  finish_round(g, "copper")                                -- P1: 6 copper, 3 water
  -- round 2: P1 insures
  expect_eq(g:zone("events_shown"), { "insurer" })
  play(g, 1, "insure")
  expect_eq(res(g, 1, "copper"), 1)
  finish_turn(g, 1, "copper")                              -- 3 copper
  finish_turn(g, 2)                                        -- P2 declines the insurance
  expect_eq(stats(g).players[1].insured, 1, "P1 is insured")
  -- round 3 (nature/market day): P1 sacrifices its kamikaze in an attack (2 copper)
  play(g, 1, "dromedary", { resource = "water" })
  expect_eq(res(g, 1, "copper"), 3)
  play(g, 1, "attack", { kamikaze = 3, target = "P2" })
  expect_eq(caterpillar(g, 1, 3), nil, "the kamikaze died in its attack")
  expect_eq(res(g, 1, "copper"), 1, "3 - 2 for the attack; no payout of the kamikaze's 3 copper")
  -- then nature: one kamikaze found (id 7), and the predator eats the most evolved (the gold, id 1)
  play(g, 1, "nature")
  g:force_dice("d6", 3):force_deck("hazard_deck", { "predator" })
  play(g, 1, "roll")
  expect_eq(caterpillar(g, 1, 1), nil, "the predator ate the gold-moult caterpillar")
  expect_eq(caterpillar(g, 1, 7), { 7, KAMIKAZE, 1, 0, 0 }, "the kamikaze found in the forest")
  expect_eq(res(g, 1, "copper"), 1, "no payout of the gold-moult's 6 copper")
  evolve(g, 1, 7, 12)                                      -- the new kamikaze moults: now the most evolved
  expect_eq(caterpillar(g, 1, 7), { 7, KAMIKAZE, 2, 0, 0 })
  g:force_deck("resource_deck", { "fruit_2" })
  play(g, 1, "end", { take = "card" })
  finish_turn(g, 2)
  -- round 4: the buyback takes the kamikaze for twice its price (6), and nothing more
  expect_eq(g:zone("events_shown"), { "insurer", "buyback" })
  expect_eq(caterpillar(g, 1, 7), nil, "the buyback took the most evolved caterpillar")
  expect_eq(res(g, 1, "copper"), 1 + 6, "twice the kamikaze's 3 copper; the insurance would add 3 more")
  local p = stats(g).players[1]
  expect_eq({ p["lost:kamikaze attack"], p["lost:hazard"], p["lost:buyback"] }, { 1, 1, 1 })
  expect_eq({ p.insured, p["insurance payouts"] }, { 1, 0 }, "insured, yet three losses and no payout")
  expect_eq(stats(g).counts.deaths, 0, "none of the three is a death in a transformation")
end)

-- ---------------------------------------------------------------------------------------
-- 3. A butterfly reached through the hi-tech vivarium ends the game.

test("a butterfly reached through the hi-tech vivarium ends the game at the end of that round", function()
  for _, advance in ipairs({ "next_transformation", "next_stage" }) do
    -- no gold-moult caterpillar, so the kamikaze is one of P1's two least evolved caterpillars
    local g = t.new_game{ players = 2, seed = 1, params = { hitech_advance = advance },
                        data = { ["chenilles.species.gold.start"] = 0,
                                 ["chenilles.resources.water.start"] = 10, ["chenilles.resources.leaf.start"] = 10,
                                 ["chenilles.resources.flower.start"] = 10, ["chenilles.resources.fruit.start"] = 10 } }
    g:force_deck("events", { "hitech" })
    local k = first_of(g, 1, KAMIKAZE)
    expect_eq(#viv(g, 1), 2, "P1: one dromedary and one kamikaze")
    play(g, 1, "dromedary", { resource = "water" })
    evolve(g, 1, k, 12)                                    -- moult_1
    evolve(g, 1, k)                                        -- grow_1
    evolve(g, 1, k, 12)                                    -- moult_2
    evolve(g, 1, k, 12)                                    -- moult_3
    evolve(g, 1, k, 12)                                    -- chrysalis
    expect_eq(caterpillar(g, 1, k), { k, KAMIKAZE, 6, 0, 0 }, advance .. ": the kamikaze is a chrysalis")
    expect_eq(g:score().extra.ending, "running")
    finish_turn(g, 1)
    finish_turn(g, 2)
    -- round 2 revealed the hi-tech vivarium: the chrysalis became a butterfly, free and without a roll
    expect_eq(g:zone("events_shown"), { "hitech" })
    expect_eq(caterpillar(g, 1, k), { k, KAMIKAZE, 7, 0, 0 }, advance .. ": the hi-tech made a butterfly")
    expect_eq(g:score().extra.ending, "butterfly", advance .. ": the ending is triggered")
    expect_eq(g:to_move(), { 1 }, advance .. ": the round of the butterfly is still played")
    finish_turn(g, 1)
    expect_eq(g:to_move(), { 2 })
    finish_turn(g, 2)
    expect_eq(g:to_move(), {}, advance .. ": the game is over at the end of round 2")
    local extra = g:score().extra
    expect_eq({ extra.ending, extra.rounds, extra.winner }, { "butterfly", 2, "P1" })
    expect_eq(g:score()[1].breakdown.kamikaze, 28, "a kamikaze butterfly is worth 28 points")
    local s = stats(g)
    expect_eq({ s.players[1]["reached:butterfly"], s.players[1]["hitech advances"], s.counts.butterflies },
              { 1, 2, 1 })
    expect_eq(s.ending, "butterfly")
    -- The other caterpillar moved is the dromedary, from birth: to grow_1 (next_stage), or over
    -- it to moult_1 (next_transformation). A space jumped over counts as reached, so that a
    -- species' stage is not reported as "never reached" because the hi-tech skips it.
    expect_eq({ s.players[1]["reached:dromedary/grow_1"], s.players[1]["reached:dromedary/moult_1"],
                s.players[1]["reached:kamikaze/butterfly"] },
              advance == "next_transformation" and { 1, 1, 1 } or { 1, 0, 1 }, advance .. ": stages reached")
  end
end)

-- ---------------------------------------------------------------------------------------
-- 4. kamikaze_attacks_per_turn.

test("kamikaze_attacks_per_turn = 2: two attacks in one turn, not a third; the count resets next turn", function()
  for _, per_turn in ipairs({ 1, 2 }) do
    -- three kamikazes and 10 copper each: a third attack (2 copper) would be affordable
    local g = t.new_game{ players = 2, seed = 1, params = { kamikaze_attacks_per_turn = per_turn },
                        data = { ["chenilles.species.kamikaze.start"] = 3, ["chenilles.resources.copper.start"] = 10 } }
    g:force_deck("events", { "double_income" })
    play(g, 1, "dromedary", { resource = "water" })
    expect_eq(count_species(g, 1, KAMIKAZE), 3)
    for n = 1, per_turn do
      local m = find_move(g, 1, "attack")
      expect_true(m, per_turn .. " per turn: attack " .. n .. " is offered")
      expect_eq({ m.args.cost, m.args.destroys }, { "2 copper", "1 food" })
      g:play(1, m)
    end
    expect_eq(find_move(g, 1, "attack"), nil, per_turn .. " per turn: no attack " .. (per_turn + 1))
    expect_eq(count_species(g, 1, KAMIKAZE), 3 - per_turn, "each attack sacrificed a kamikaze")
    expect_eq(res(g, 1, "copper"), 10 - 2 * per_turn, "2 copper per attack")
    expect_true(res(g, 1, "copper") >= 2, "copper was not what stopped the next attack")
    local food = res(g, 2, "leaf") + res(g, 2, "flower") + res(g, 2, "fruit")
    expect_eq(food, 3 - per_turn, "P2 lost one food per attack")
    local s = stats(g)
    expect_eq({ s.players[1]["kamikaze attacks"], s.players[2]["food destroyed"], s.counts["kamikaze attacks"] },
              { per_turn, per_turn, per_turn })
    expect_true(find_move(g, 1, "nature"), "after the last allowed attack the turn moves on to nature/market")
    finish_turn(g, 1, "card")
    finish_turn(g, 2)
    -- the next turn, the attacks are available again
    play(g, 1, "dromedary", { resource = "water" })
    expect_true(find_move(g, 1, "attack"), per_turn .. " per turn: the limit is per turn")
  end
end)

-- ---------------------------------------------------------------------------------------
-- 5. The caps of water and of each food.

test("caps: a dromedary's water, leaf, flower or fruit past 10 is lost and counted per resource", function()
  for _, r in ipairs(GOODS) do
    local g = t.new_game{ players = 2, seed = 1, data = { ["chenilles.resources." .. r .. ".start"] = 10 } }
    expect_eq(res(g, 1, r), 10, r .. " starts at its cap")
    play(g, 1, "dromedary", { resource = r })
    expect_eq(res(g, 1, r), 10, r .. ": still 10 after one more")
    expect_true(g:view():find(" " .. r .. " 10/10", 1, true), r .. ": the view shows it at its cap")
    local expected = { copper = 0, water = 0, leaf = 0, flower = 0, fruit = 0 }
    expected[r] = 1
    expect_eq(lost_to_cap(g, 1), expected, r .. ": one unit lost, counted under its own resource only")
    expect_eq(stats(g).players[1]["dromedary income"], 1)
  end
end)

test("caps: the clearing's food and a doubled resource card past 10 keep 10 and count every unit lost", function()
  local g = t.new_game{ players = 2, seed = 1,
                      data = { ["chenilles.resources.water.start"] = 9, ["chenilles.resources.leaf.start"] = 9,
                               ["chenilles.resources.flower.start"] = 9, ["chenilles.resources.fruit.start"] = 9 } }
  g:force_deck("events", { "double_income" })
  play(g, 1, "dromedary", { resource = "leaf" })           -- leaf 10, nothing lost yet
  expect_eq(lost_to_cap(g, 1), { copper = 0, water = 0, leaf = 0, flower = 0, fruit = 0 })
  play(g, 1, "nature")
  g:force_dice("d6", 1):force_deck("hazard_deck", { "clearing" })
  play(g, 1, "roll")                                       -- 2 of each food
  for _, f in ipairs(FOODS) do expect_eq(res(g, 1, f), 10, f .. " capped at 10") end
  expect_eq(lost_to_cap(g, 1), { copper = 0, water = 0, leaf = 2, flower = 1, fruit = 1 },
            "leaf 10 + 2, flower and fruit 9 + 2")
  g:force_deck("resource_deck", { "water_2" })
  play(g, 1, "end", { take = "card" })                     -- water 9 + 2
  expect_eq(res(g, 1, "water"), 10)
  expect_eq(lost_to_cap(g, 1), { copper = 0, water = 1, leaf = 2, flower = 1, fruit = 1 })
  finish_turn(g, 2)
  -- round 2, double income: a feast (1 of each) counts twice, all of it over the caps
  expect_eq(g:zone("events_shown"), { "double_income" })
  play(g, 1, "dromedary", { resource = "water" })
  g:force_deck("resource_deck", { "feast" })
  play(g, 1, "end", { take = "card" })
  for _, r in ipairs(GOODS) do expect_eq(res(g, 1, r), 10, r .. " still 10") end
  expect_eq(lost_to_cap(g, 1), { copper = 0, water = 1 + 1 + 2, leaf = 2 + 2, flower = 1 + 2, fruit = 1 + 2 })
end)
