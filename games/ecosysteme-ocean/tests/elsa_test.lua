-- The rulebook's worked example ("Exemple de calcul des scores"): Elsa scores 96 and wins.
-- The rulebook gives her breakdown in words but not her grid, so the grid below was built to
-- satisfy every fact it states, and is checked by hand in the comment. The same table is in
-- tests/boards/elsa.json for `plateau score`.
--
-- What the rulebook says about Elsa:
--   Producers: her coral on the bottom row 3; none of her krill touches another, 1 each; she
--     ties Willow for the most plankton, 12 each.
--   Prey: her groupers beside krill 9, her clownfish 10, her crab 2.
--   Predators: her sharks 8 each (several predators may hunt the same prey); her moray eel is
--     surrounded by 3 prey and 1 coral: 12.
--   Others: her sea turtles spread over 2 rows and 2 columns, 8; her octopus 3.
--   Food chain: the producers are her lowest group, so her bonus is 18. Total 96.
--
-- Where the rulebook disagrees with itself: the food-chain paragraph says "Elsa a obtenu 18
-- points avec ses Producteurs, 23 points avec ses Proies et 28 points avec ses Prédateurs",
-- but the worked example's prey are 9 + 10 + 2 = 21, and its total, 96, only adds up with 21:
-- 18 + 21 + 28 + 18 (bonus) + 8 + 3 = 96 (with 23 it would be 98). The bonus is 18 either way
-- (the producers are the lowest group). The first tests follow the worked example: prey 21,
-- total 96. A second board, ELSA_23 below (her crab and a turtle swapped), scores the
-- paragraph's 18 / 23 / 28 and a bonus of 18 (total 98). (The filled-in score sheet printed
-- with the example is not legible in the text the project has: only scattered digits survive,
-- so it cannot settle the question.)
-- Her krill count is not given: "1 point each" and producers 18 = 3 + krill + 12 give 3 krill.

local C, K, P = "coral", "krill", "plankton"
local G, F, R = "grouper", "clownfish", "crab"
local E, S, W = "moray_eel", "shark", "whale"
local T, O = "sea_turtle", "octopus"

--        col 0      col 1      col 2      col 3      col 4
-- row 0  grouper    krill      turtle     krill      grouper
-- row 1  turtle     plankton   clownfish  plankton   octopus
-- row 2  shark      clownfish  moray eel  clownfish  shark
-- row 3  crab       plankton   coral      krill      grouper
--
-- Coral      (3,2) on the bottom row                                                  -> 3
-- Krill      (0,1), (0,3), (3,3): no two touch, 1 each                                 -> 3
-- Plankton   3 ((1,1), (1,3), (3,1)), tied with Willow for the most                   -> 12
-- Groupers   (0,0): krill (0,1); (0,4): krill (0,3); (3,4): krill (3,3); 3 each       -> 9
-- Clownfish  (1,2): plankton (1,1), (1,3) = 4; (2,1): plankton (1,1), (3,1) = 4;
--            (2,3): plankton (1,3) = 2                                                -> 10
-- Crab       (3,0): one plankton, (3,1), in row 3                                     -> 2
-- Moray eel  (2,2): clownfish (1,2), (2,1), (2,3) and the coral (3,2) = 3 x 4         -> 12
-- Sharks     (2,0): row 2 clownfish (2,1), (2,3), column 0 grouper (0,0), crab (3,0) = 8;
--            (2,4): the same two clownfish, column 4 groupers (0,4), (3,4) = 8        -> 16
-- Whale      none                                                                     -> 0
-- Groups     producers 3 + 3 + 12 = 18, prey 9 + 10 + 2 = 21, predators 12 + 16 = 28
-- Bonus      the lowest group, producers                                              -> 18
-- Turtles    (0,2), (1,0): rows 0, 1 and columns 0, 2                                 -> 8
-- Octopus    (1,4)                                                                    -> 3
-- Total      18 + 21 + 28 + 18 + 8 + 3 = 96
local ELSA = {
  { G, K, T, K, G },
  { T, P, F, P, O },
  { S, F, E, F, S },
  { R, P, C, K, G },
}

-- Willow: the rulebook only says she ties Elsa for the most plankton and that her lowest
-- group is her predators, 14. This grid has 3 plankton and predators 14.
-- Producers: coral (3,1), (3,4) = 6 ((2,2) is not on the bottom row); krill (0,0)-(0,1) = 4;
--   plankton (1,2), (1,4), (3,0), tied for the most = 12 -> 22.
-- Prey: groupers (0,2) beside krill (0,1) = 3, (1,0) beside krill (0,0) = 3, (2,0) = 0;
--   clownfish (1,1): plankton (1,2) = 2, (1,3): plankton (1,2), (1,4) = 4, (3,2): coral
--   (2,2), (3,1) = 4; crab (3,3): plankton (3,0) in row 3 = 2 -> 18.
-- Predators: moray (2,1): grouper (2,0) and clownfish (1,1), fed by the corals (2,2), (3,1)
--   = 8; shark (2,3): row 2 grouper (2,0), column 3 clownfish (1,3) and crab (3,3) = 6 -> 14.
-- Bonus 14. Turtles (0,3), (0,4): row 0, columns 3, 4 = 6. Octopus 3.
-- Total 22 + 18 + 14 + 14 + 6 + 3 = 77.
local WILLOW = {
  { K, K, G, T, T },
  { G, F, P, F, P },
  { G, E, C, S, O },
  { P, C, F, R, C },
}

-- Eden: the rulebook only says her lowest group is her prey, 17. This grid has 2 plankton
-- (third behind Elsa and Willow: 4) and two whales, whose flips nobody chose: the score
-- takes the best ones (the octopus (0,4) and the coral (2,4); see scoring_test.lua).
-- Producers 6 + 11 + 4 = 21, prey 17, predators 26, bonus 17, total 81.
local EDEN = {
  { K, K, K, W, O },
  { G, F, P, G, K },
  { K, P, R, W, C },
  { C, C, F, S, R },
}

local function example()
  return board{ { name = "Elsa", grid = ELSA }, { name = "Willow", grid = WILLOW }, { name = "Eden", grid = EDEN } }
end

test("Elsa scores 96 with every category of the rulebook's worked example", function()
  local g = example()
  expect_score(g, "Elsa", 96, {
    coral = 3, krill = 3, plankton = 12, grouper = 9, clownfish = 10, crab = 2,
    moray_eel = 12, shark = 16, whale = 0, food_chain_bonus = 18, sea_turtle = 8, octopus = 3,
  })
end)

test("Elsa's group totals: producers 18, prey 21 (not the 23 of the food-chain paragraph), predators 28", function()
  local s = example():score()
  expect_eq(s.extra.groups.Elsa, { producer = 18, prey = 21, predator = 28 })
  local b = s[1].breakdown
  expect_eq(b.food_chain_bonus, 18, "the bonus is the lowest group, the producers")
  expect_eq(s[1].total, 18 + 21 + 28 + 18 + b.sea_turtle + b.octopus, "total = groups + bonus + turtles + octopus")
  expect_eq(s[1].total, 96, "the printed total")
  -- The paragraph's 23 on a board that really scores it: see the next test (total 98).
end)

-- The food-chain paragraph's figures, "18 points avec ses Producteurs, 23 points avec ses
-- Proies et 28 points avec ses Prédateurs ... Son bonus est donc de 18 points", on a board
-- that produces them: Elsa's grid with her crab and her turtle (1,0) swapping places.
--
--        col 0      col 1      col 2      col 3      col 4
-- row 0  grouper    krill      turtle     krill      grouper
-- row 1  crab       plankton   clownfish  plankton   octopus
-- row 2  shark      clownfish  moray eel  clownfish  shark
-- row 3  turtle     plankton   coral      krill      grouper
--
-- Producers  coral (3,2) 3, krill (0,1), (0,3), (3,3) 3, plankton 3 (tied with Willow) 12 -> 18
-- Prey       groupers 9 (as before), clownfish 10 (as before), crab (1,0): plankton (1,1),
--            (1,3) in row 1 = 4                                                       -> 23
-- Predators  moray (2,2) 12 (as before); shark (2,0): row 2 clownfish (2,1), (2,3), column
--            0 grouper (0,0), crab (1,0) = 8; shark (2,4) 8 (as before)               -> 28
-- Bonus      the lowest group, producers                                              -> 18
-- Turtles    (0,2), (3,0): rows 0, 3 and columns 0, 2                                 -> 8
-- Octopus    (1,4)                                                                    -> 3
-- Total      18 + 23 + 28 + 18 + 8 + 3 = 98
local ELSA_23 = {
  { G, K, T, K, G },
  { R, P, F, P, O },
  { S, F, E, F, S },
  { T, P, C, K, G },
}

test("the food-chain paragraph's figures: producers 18, prey 23, predators 28 give a bonus of 18", function()
  local g = board{ { name = "Elsa", grid = ELSA_23 }, { name = "Willow", grid = WILLOW }, { name = "Eden", grid = EDEN } }
  local s = g:score()
  expect_eq(s.extra.groups.Elsa, { producer = 18, prey = 23, predator = 28 })
  local b = s[1].breakdown
  expect_eq(b.coral + b.krill + b.plankton, 18, "producers from the breakdown")
  expect_eq(b.grouper + b.clownfish + b.crab, 23, "prey from the breakdown")
  expect_eq(b.moray_eel + b.shark + b.whale, 28, "predators from the breakdown")
  expect_eq(b.food_chain_bonus, 18, "the bonus is the lowest group, the producers")
  expect_score(g, "Elsa", 98, {
    coral = 3, krill = 3, plankton = 12, grouper = 9, clownfish = 10, crab = 4,
    moray_eel = 12, shark = 16, whale = 0, food_chain_bonus = 18, sea_turtle = 8, octopus = 3,
  })
  -- Only Elsa's grid changed: Willow and Eden score as in the worked example.
  expect_score(g, "Willow", 77, { food_chain_bonus = 14 })
  expect_score(g, "Eden", 81, { food_chain_bonus = 17 })
end)

test("Elsa and Willow tie for the most plankton (12 each); Eden is third (4)", function()
  local s = example():score()
  expect_eq({ s[1].breakdown.plankton, s[2].breakdown.plankton, s[3].breakdown.plankton }, { 12, 12, 4 })
end)

test("Willow's bonus is 14 from her predators, Eden's 17 from her prey, and Elsa wins", function()
  local g = example()
  local s = g:score()
  expect_eq(s.extra.groups.Willow, { producer = 22, prey = 18, predator = 14 })
  expect_eq(s.extra.groups.Eden, { producer = 21, prey = 17, predator = 26 })
  expect_score(g, "Willow", 77, { food_chain_bonus = 14, plankton = 12, sea_turtle = 6, octopus = 3 })
  expect_score(g, "Eden", 81, { food_chain_bonus = 17, plankton = 4, whale = 20, octopus = 0 })
  expect_true(s[1].total > s[3].total and s[3].total > s[2].total, "Elsa 96 > Eden 81 > Willow 77")
end)

test("the moray eel needs its coral: without it Elsa's predators drop to 16 and become her bonus", function()
  -- The coral (3,2) replaced by a sea turtle: coral 0, moray 0; turtles now also hold row 3
  -- and column 2 is already counted: rows 0, 1, 3 and columns 0, 2 = 10.
  -- Producers 0 + 3 + 12 = 15, prey 21, predators 16: bonus 15.
  local grid = {
    { G, K, T, K, G },
    { T, P, F, P, O },
    { S, F, E, F, S },
    { R, P, T, K, G },
  }
  local g = board{ { name = "Elsa", grid = grid }, { name = "Willow", grid = WILLOW }, { name = "Eden", grid = EDEN } }
  expect_score(g, "Elsa", 15 + 21 + 16 + 15 + 10 + 3, {
    coral = 0, moray_eel = 0, shark = 16, food_chain_bonus = 15, sea_turtle = 10,
  })
end)
