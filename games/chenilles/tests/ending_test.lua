-- Chenilles scenario tests: the two endings (the first butterfly, the last event card; both
-- finish the round), the max_rounds safety net, the winner and the tie rule, and the stats
-- hook (every group member reported, zeros included).

-- Helpers shared by every test file: games/chenilles/chenilles/testing.lua; its new_game makes
-- every game with the numbers these tests were written against (chenilles/test_numbers.lua).
local t = require("chenilles.testing")
local GOLD, DROMEDARY, KAMIKAZE = t.GOLD, t.DROMEDARY, t.KAMIKAZE
local find_move, play, res, caterpillar = t.find_move, t.play, t.res, t.caterpillar
local count_species, evolve, finish_turn, finish_round = t.count_species, t.evolve, t.finish_turn, t.finish_round
local stats = t.stats

-- The kamikaze's chronology: the cost of the next stage, by its current stage.
local CHAIN = {
  { water = 1, leaf = 1 }, { leaf = 1, flower = 1 }, { water = 1, flower = 1, fruit = 1 },
  { water = 2, leaf = 1, fruit = 2 }, { water = 3, flower = 2, fruit = 2 }, { water = 3, leaf = 2, flower = 2, fruit = 2 },
}
local CARDS = { water_2 = { water = 2 }, leaf_2 = { leaf = 2 }, flower_2 = { flower = 2 }, fruit_2 = { fruit = 2 },
                water_leaf = { water = 1, leaf = 1 }, water_flower = { water = 1, flower = 1 },
                water_fruit = { water = 1, fruit = 1 }, feast = { water = 1, leaf = 1, flower = 1, fruit = 1 } }
local GOODS = { "water", "leaf", "flower", "fruit" }

-- What P1 still lacks to take its kamikaze (caterpillar 3) to the butterfly.
local function deficit(g)
  local need = { water = 0, leaf = 0, flower = 0, fruit = 0 }
  local c = caterpillar(g, 1, 3)
  for st = c[3], #CHAIN do
    for r, n in pairs(CHAIN[st]) do need[r] = need[r] + n end
  end
  for _, r in ipairs(GOODS) do need[r] = need[r] - res(g, 1, r) end
  return need
end

-- P1 feeds its kamikaze: dromedary income and resource cards chosen for what it lacks, every
-- transformation forced to succeed.
local function p1_turn(g)
  while g:to_move()[1] == 1 do
    local first = g:moves(1)[1]
    if first.type == "dromedary" then
      local need, best = deficit(g), "water"
      for _, r in ipairs(GOODS) do
        if need[r] > need[best] then best = r end
      end
      play(g, 1, "dromedary", { resource = best })
    elseif first.type == "sell" or first.type == "insure" then
      play(g, 1, "done")
    elseif find_move(g, 1, "evolve", { caterpillar = 3 }) then
      evolve(g, 1, 3, 12)
    else
      local need, best, best_gain = deficit(g), nil, -1
      local in_deck = {}
      for _, card in ipairs(g:zone("resource_deck")) do in_deck[card] = true end
      for card in pairs(in_deck) do
        local gain = 0
        for r, n in pairs(CARDS[card]) do gain = gain + math.min(n, math.max(need[r], 0)) end
        if gain > best_gain then best, best_gain = card, gain end
      end
      g:force_deck("resource_deck", { best })
      play(g, 1, "end", { take = "card" })
    end
  end
end

test("the first butterfly ends the game at the end of that round", function()
  local g = t.new_game{ players = 2, seed = 1 }
  g:force_deck("events", { "double_income", "hitech", "market_detour", "insurer" })
  local round = 0
  while caterpillar(g, 1, 3)[3] < 7 do
    round = round + 1
    expect_true(round <= 12, "the kamikaze reaches the butterfly within 12 rounds")
    p1_turn(g)
    if caterpillar(g, 1, 3)[3] == 7 then break end
    finish_turn(g, 2)
  end
  expect_eq(g:score().extra.ending, "butterfly")
  expect_eq(g:to_move(), { 2 }, "the round goes on: P2 still plays")
  expect_true(g:view():find("the game ends after this round %(butterfly%)"))
  finish_turn(g, 2)
  expect_eq(g:to_move(), {}, "then the game is over")
  local extra = g:score().extra
  expect_eq({ extra.ending, extra.rounds, extra.winner }, { "butterfly", round, "P1" })
  expect_eq(g:score()[1].breakdown.kamikaze, 28, "a kamikaze butterfly is worth 28 points")
  expect_eq(stats(g).players[1]["reached:butterfly"], 1)
  expect_eq(stats(g).counts.butterflies, 1)
end)

test("revealing the last event card ends the game at the end of that round", function()
  local g = t.new_game{ players = 3, seed = 2 }
  local last_round
  while #g:to_move() > 0 do
    local before = #g:zone("events")
    finish_round(g)
    if before > 0 and #g:zone("events") == 0 and #g:to_move() > 0 then
      last_round = g:score().extra.rounds
      expect_eq(g:score().extra.ending, "events")
      expect_eq(g:to_move(), { 1 }, "the round of the last event is still played")
    end
  end
  expect_eq(last_round, 16, "8 event cards, 4 event spaces on the 8-space board: the 8th comes on round 16")
  local extra = g:score().extra
  expect_eq({ extra.ending, extra.rounds }, { "events", 16 })
  expect_eq(#g:zone("events_shown"), 8)
end)

test("max_rounds is a safety net: the game ends after that round (ending round_limit)", function()
  local g = t.new_game{ players = 2, seed = 3, params = { max_rounds = 3 } }
  for _ = 1, 3 do
    expect_true(#g:to_move() > 0)
    finish_round(g)
  end
  expect_eq(g:to_move(), {})
  local extra = g:score().extra
  expect_eq({ extra.ending, extra.rounds }, { "round_limit", 3 })
end)

test("the winner has the highest score; tie_rule decides ties (shared by default)", function()
  local function game_after_round_1(rule)
    local g = t.new_game{ players = 2, seed = 1, params = { tie_rule = rule } }
    g:force_deck("events", { "double_income" })
    finish_turn(g, 1, "copper")                            -- P1: 6 copper
    play(g, 2, "dromedary", { resource = "water" })
    g:force_deck("resource_deck", { "feast" })
    play(g, 2, "end", { take = "card" })                   -- P2: 4 copper, 4 more resources
    return g
  end
  expect_eq(game_after_round_1("shared"):score().extra.winner, "P1+P2", "3 points each")
  expect_eq(game_after_round_1("copper"):score().extra.winner, "P1")
  expect_eq(game_after_round_1("resources"):score().extra.winner, "P2", "12 against 14")
  local g = game_after_round_1("shared")
  play(g, 1, "dromedary", { resource = "leaf" })
  evolve(g, 1, 1)
  expect_eq(g:score().extra.winner, "P1", "4 points against 3")
end)

test("stats: every species, transformation stage and resource is reported, zeros included", function()
  local g = t.new_game{ players = 3, seed = 7 }
  g:play_random(nil, 3)
  expect_eq(g:to_move(), {})
  local extra = g:score().extra
  local s = stats(g)
  expect_eq({ s.rounds, s.ending }, { extra.rounds, extra.ending })
  expect_eq(#s.players, 3)
  for seat = 1, 3 do
    local p = s.players[seat]
    for _, sp in ipairs({ "gold", "dromedary", "kamikaze" }) do
      for _, group in ipairs({ "bought:", "found:", "held:", "caterpillars lost to cap:" }) do
        expect_eq(type(p[group .. sp]), "number", group .. sp)
      end
      expect_eq(p["held:" .. sp], count_species(g, seat, ({ gold = GOLD, dromedary = DROMEDARY, kamikaze = KAMIKAZE })[sp]))
    end
    for _, stage in ipairs({ "moult_1", "moult_2", "moult_3", "chrysalis", "butterfly" }) do
      expect_eq(type(p["death:" .. stage]), "number", "death:" .. stage)
      expect_eq(type(p["reached:" .. stage]), "number", "reached:" .. stage)
    end
    for _, r in ipairs({ "copper", "water", "leaf", "flower", "fruit" }) do
      expect_eq(type(p["lost to cap:" .. r]), "number", "lost to cap:" .. r)
    end
    for _, key in ipairs({ "kamikaze attacks", "insured", "evolutions", "failures" }) do
      expect_eq(type(p[key]), "number", key)
    end
  end
  for _, key in ipairs({ "kamikaze attacks", "nature trips", "market visits", "transformations tried", "deaths",
                         "butterflies" }) do
    expect_eq(type(s.counts[key]), "number", key)
  end
  local shown = g:zone("events_shown")
  expect_eq(#s.tags, #shown, "one tag per revealed event")
  local tagged = {}
  for _, tag in ipairs(s.tags) do tagged[tag] = true end
  for _, id in ipairs(shown) do expect_true(tagged["event:" .. id], "event:" .. id) end
end)
