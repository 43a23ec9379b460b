-- The rulebook's worked example ("Exemple de calcul des scores"): Margot scores 86 and comes
-- second behind Sanaa (91), ahead of Alexis (76). The rulebook gives Margot's breakdown in words
-- but not her grid, so the grid below was built to satisfy every fact it states, and is checked
-- by hand in the comment. The same table is in tests/boards/margot.json for `plateau score`.

local W, P, T = "waterhole", "prairie", "tree"
local G, Z, Gi = "gazelle", "zebra", "giraffe"
local Ch, L, E, H, V = "cheetah", "lion", "elephant", "hyena", "vulture"

--        col 0      col 1      col 2      col 3      col 4
-- row 0  giraffe    waterhole  gazelle    lion       hyena
-- row 1  tree       cheetah    prairie    prairie    prairie
-- row 2  gazelle    elephant   waterhole  gazelle    zebra
-- row 3  elephant   tree       giraffe    zebra      prairie
--
-- 20 cards: 2 waterholes, 4 prairies, 2 trees, 3 gazelles, 2 zebras, 2 giraffes, 1 cheetah,
-- 1 lion, 2 elephants, 1 hyena, no vulture.
--
-- Waterholes  (0,1): giraffe, gazelle, cheetah = 3 types = 6
--             (2,2): prairie (terrain), elephant, gazelle, giraffe = 3 types = 6      -> 12
-- Prairies    (1,2)-(1,3)-(1,4) = 3 cards = 9; (3,4) alone (zebras, no prairie) = 1  -> 10
-- Trees       (1,0) and (3,1): rows 1 and 3, columns 0 and 1 = 4 * 2                   -> 8
-- Gazelles    (0,2), (2,0), (2,3) = 3 * 2 = 6, plus 5 for the most (Sanaa 2, Alexis 1) -> 11
-- Zebras      (2,4): prairies (1,4) and (3,4) = 6; (3,3): prairie (3,4) = 3; they share
--             the prairie (3,4)                                                       -> 9
-- Giraffes    (0,0) next to tree (1,0); (3,2) next to tree (3,1)                       -> 10
-- Cheetah     (1,1): diagonal gazelles (0,2) and (2,0) = 6; both turn face down
--             (they still scored as gazelles above); (0,0) and (2,2) are not gazelles  -> 6
-- Lion        (0,3) touches the prairie (1,3): it eats one of the face-up prey left,
--             gazelle (2,3), zebra (2,4) or zebra (3,3), and scores 4. Margot takes the
--             zebra (2,4): it lies two cells below her hyena. The other zebra and the
--             gazelle touch no elephant, lie under no vulture and are not two cells from
--             the hyena, so they would add nothing later.                              -> 4
-- Elephants   (3,0), bottom-left corner: neighbours (2,0) face-down gazelle (ignored),
--             (3,1) tree = 6. (2,1): the cheetah (1,1) above is an animal (-2), the
--             gazelle (2,0) is face down (ignored), waterhole and tree are terrain = 4  -> 10
-- Hyena       (0,4): two cells away are (0,2) face-down gazelle and (2,4) eaten zebra -> 6
-- Vulture     none                                                                    -> 0
-- Total       12 + 10 + 8 + 11 + 9 + 10 + 6 + 4 + 10 + 6 + 0 = 86
local MARGOT = {
  { Gi, W,  G, L, H },
  { T,  Ch, P, P, P },
  { G,  E,  W, G, Z },
  { E,  T,  Gi, Z, P },
}

-- Alexis, 1 gazelle (third: no bonus).
-- Waterhole (1,3): gazelle, lion, hyena = 6. Prairies: (1,1) alone = 1, (3,0)-(3,1) = 4 -> 5.
-- Trees (1,0), (1,4), (2,2), (3,4): rows 1, 2, 3 and columns 0, 2, 4 = 12. Gazelle 2.
-- Zebra (2,1): prairies (1,1) and (3,1) = 6. Giraffes (0,4), (3,2), (3,3) each touch a tree = 15.
-- Lions (1,2) (prairie (1,1)) and (2,0) (prairie (3,0)) eat the only prey, gazelle (0,3) and
-- zebra (2,1) = 8. Elephants (0,0) = 6, (0,1) = 6, (0,2): lion below (-2), eaten gazelle
-- ignored = 4 -> 16. Hyena (2,3): (0,3) and (2,1) face down = 6. Vulture (2,4): tree below = 0.
-- Total 6 + 5 + 12 + 2 + 6 + 15 + 0 + 8 + 16 + 6 + 0 = 76.
local ALEXIS = {
  { E, E, E, G, Gi },
  { T, P, L, W, T },
  { L, Z, T, H, V },
  { P, P, Gi, Gi, T },
}

-- Sanaa, 2 gazelles (second: +2).
-- Waterholes (2,0): lion, giraffe, elephant = 6; (2,2): elephant, giraffe, gazelle = 6;
-- (2,4): gazelle, hyena = 4 -> 16. Prairies (0,1), (0,2), (0,3), (1,1) = 16.
-- Trees (2,3), (3,1): 2 rows, 2 columns = 8. Gazelles 4 + 2 = 6. Zebra (0,4): prairie (0,3) = 3.
-- Giraffes (2,1) next to tree (3,1), (3,3) next to tree (2,3) = 10.
-- Lions (0,0) and (1,0) both touch a prairie: two of the three face-up prey are eaten = 8.
-- Best: gazelle (1,4) (two cells above the hyena, and next to the elephant (1,3)) and
-- gazelle (3,2) (two cells left of the hyena); the zebra (0,4) would add nothing.
-- Elephants (1,2) = 6, (1,3): eaten gazelle ignored = 6, (3,0) = 6 -> 18.
-- Hyena (3,4): (1,4) and (3,2) face down = 6. Total 16 + 16 + 8 + 6 + 3 + 10 + 8 + 18 + 6 = 91.
local SANAA = {
  { L, P,  P, P,  Z },
  { L, P,  E, E,  G },
  { W, Gi, W, T,  W },
  { E, T,  G, Gi, H },
}

local function table_of_three()
  return board{ { name = "Margot", grid = MARGOT }, { name = "Alexis", grid = ALEXIS },
                { name = "Sanaa", grid = SANAA } }
end

test("Margot scores 86 with every category of the rulebook's worked example", function()
  local g = table_of_three()
  expect_score(g, "Margot", 86, {
    waterhole = 12, prairie = 10, tree = 8, gazelle = 11, zebra = 9, giraffe = 10,
    cheetah = 6, lion = 4, elephant = 10, hyena = 6, vulture = 0,
  })
end)

test("Margot has the most gazelles: she takes the 5, Sanaa (2) the 2, Alexis (1) nothing", function()
  local g = table_of_three()
  local s = g:score()
  expect_eq(s[1].breakdown.gazelle, 3 * 2 + 5, "Margot")
  expect_eq(s[2].breakdown.gazelle, 1 * 2, "Alexis")
  expect_eq(s[3].breakdown.gazelle, 2 * 2 + 2, "Sanaa")
end)

test("the worked example's final order: Sanaa 91, Margot 86 second, Alexis 76", function()
  local g = table_of_three()
  expect_score(g, "Sanaa", 91, { waterhole = 16, prairie = 16, tree = 8, gazelle = 6, zebra = 3, giraffe = 10,
                                 cheetah = 0, lion = 8, elephant = 18, hyena = 6, vulture = 0 })
  expect_score(g, "Alexis", 76, { waterhole = 6, prairie = 5, tree = 12, gazelle = 2, zebra = 6, giraffe = 15,
                                  cheetah = 0, lion = 8, elephant = 16, hyena = 6, vulture = 0 })
  local s = g:score()
  expect_true(s[3].total > s[1].total and s[1].total > s[2].total, "Sanaa > Margot > Alexis")
end)

test("with no choice recorded, Margot's lion eats the zebra that feeds her hyena (hyena 6, not 3)", function()
  local g = table_of_three()
  local s = g:score()
  expect_eq(s[1].breakdown.lion, 4, "one lion eats")
  -- Eating the other zebra or the gazelle would leave the hyena only the hunted gazelle (0,2): 3.
  expect_eq(s[1].breakdown.hyena, 6, "the eaten zebra (2,4) is two cells from the hyena")
  expect_eq(s[1].breakdown.elephant, 10, "eating did not change the elephants")
end)

test("variant with the cheetah replaced by a tree: the lion now prefers the gazelle beside both elephants", function()
  -- Nothing is hunted, so five prey are face up when the lion eats. Gains of each prey for the
  -- cards scored later: gazelle (0,2) +3 (two cells from the hyena), zebra (2,4) +3 (same),
  -- gazelle (2,0) +4 (it is beside both elephants, each of which loses its -2), gazelle (2,3)
  -- and zebra (3,3) +0. The best choice is the gazelle (2,0), not the hyena's zebra.
  local grid = {
    { Gi, W, G,  L, H },
    { T,  T, P,  P, P },
    { G,  E, W,  G, Z },
    { E,  T, Gi, Z, P },
  }
  local g = board{ { name = "Margot", grid = grid }, { name = "Alexis", grid = ALEXIS },
                   { name = "Sanaa", grid = SANAA } }
  -- Waterhole (0,1): giraffe, gazelle (the tree below is terrain) = 4; (2,2) = 6 -> 10.
  -- Trees (1,0), (1,1), (3,1): rows 1, 3 and columns 0, 1 = 8. Elephants: 6 + 6 = 12 once
  -- the gazelle (2,0) is eaten. Hyena: (0,2) and (2,4) stay face up = 0.
  -- Total 10 + 10 + 8 + 11 + 9 + 10 + 0 + 4 + 12 + 0 + 0 = 74.
  expect_score(g, "Margot", 74, {
    waterhole = 10, prairie = 10, tree = 8, gazelle = 11, zebra = 9, giraffe = 10,
    cheetah = 0, lion = 4, elephant = 12, hyena = 0, vulture = 0,
  })
end)
