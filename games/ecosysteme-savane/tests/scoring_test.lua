-- Scoring tests of Écosystème – Savane: one test per card type, each on small hand-made
-- 4 x 5 boards (row 0 is the top row), proving the rulebook's scoring text for that card.
-- Every expected number is worked out by hand in the comments next to the board.
-- Short names keep the grids readable; the board and score helpers are the Écosystème base's
-- (games/ecosysteme/ecosysteme/testing.lua).

local testing = require("ecosysteme.testing")

local W, P, T = "waterhole", "prairie", "tree"
local G, Z, Gi = "gazelle", "zebra", "giraffe"
local Ch, L, E, H, V = "cheetah", "lion", "elephant", "hyena", "vulture"

local CATEGORIES = { "waterhole", "prairie", "tree", "gazelle", "zebra", "giraffe", "cheetah", "lion",
                     "elephant", "hyena", "vulture" }

-- The seat's whole line: every category not listed is 0, and the total is their sum.
local expect_line = testing.line_checker(CATEGORIES)

-- An all-tree grid: 18 tree points (4 rows + 5 columns) and nothing else.
local function trees()
  return testing.filled(T)
end

test("waterhole: 2 per distinct adjacent animal type; terrain and diagonal cards do not count", function()
  local g = board{
    { name = "A", grid = {
      { T, T,  T, T, T },
      { T, Gi, W, Gi, T },
      { T, H,  L, W, Z },
      { W, P,  T, E, T } } },
  }
  -- (1,2): tree above (terrain), giraffes left and right (one type), lion below -> 2 types = 4;
  --        the hyena at (2,1) is diagonal and does not count.
  -- (2,3): giraffe, lion, zebra, elephant -> 4 types = 8.
  -- (3,0): tree and prairie only -> 0.
  -- Others: trees in every row and column 8 + 10 = 18; prairie (3,1) alone = 1;
  -- giraffes (1,1), (1,3) each touch a tree = 10; elephant (3,3) touches W, T, T = 6;
  -- the lion has no prairie, the zebra no prairie, nothing is face down.
  expect_line(g, "A", { waterhole = 12, tree = 18, prairie = 1, giraffe = 10, elephant = 6 })
end)

test("prairie: each group scores 1/4/9/16 for 1/2/3/4+ cards, capped at 16 per group", function()
  local g = board{
    { name = "groups 1, 2, 3 and 4", grid = {
      { P, W, P, P, W },
      { W, W, W, W, P },
      { P, P, P, W, P },
      { W, W, P, W, P } } },
    { name = "two capped groups", grid = {
      { P, P, P, P, P },
      { W, W, W, W, W },
      { P, P, P, P, W },
      { P, P, W, W, P } } },
  }
  -- First: (0,0) = 1; (0,2)-(0,3) = 4; (1,4)-(2,4)-(3,4) = 9 ((0,3) and (1,4) only touch
  -- diagonally, so they are separate groups); (2,0)-(2,1)-(2,2)-(3,2) = 16. Total 30.
  expect_line(g, "groups 1, 2, 3 and 4", { prairie = 30 })
  -- Second: top row of 5 = 16 (not 25); the 6-card group in rows 2-3 = 16 (not 36); (3,4) = 1.
  expect_line(g, "two capped groups", { prairie = 33 })
end)

test("tree: 2 per row and 2 per column that hold at least one tree, extra trees in a line add nothing", function()
  local g = board{
    { name = "L shape", grid = {
      { T, T, W, W, W }, { T, W, W, W, W }, { W, W, W, W, W }, { W, W, W, W, W } } },
    { name = "single", grid = {
      { W, W, W, W, W }, { W, W, W, W, W }, { W, W, T, W, W }, { W, W, W, W, W } } },
    { name = "spread", grid = {
      { T, W, W, W, W }, { W, T, W, W, W }, { W, W, T, W, W }, { W, W, W, T, T } } },
    { name = "none", grid = {
      { W, W, W, W, W }, { W, W, W, W, W }, { W, W, W, W, W }, { W, W, W, W, W } } },
  }
  -- L shape: rows 0, 1 and columns 0, 1 -> 8 (three trees, but only two rows and two columns).
  expect_line(g, "L shape", { tree = 8 })
  -- single: one row, one column -> 4.
  expect_line(g, "single", { tree = 4 })
  -- spread: rows 0..3 (4) and columns 0..4 (5) -> 18.
  expect_line(g, "spread", { tree = 18 })
  expect_line(g, "none", {})
end)

-- A tree grid holding `n` gazelles in its first cells: 18 tree points plus the gazelles.
local function gazelles(n)
  return testing.with_first(trees(), n, G)
end

test("gazelle: 2 each, plus 5 for the most and 2 for the second most", function()
  local g = board{ { name = "A", grid = gazelles(3) }, { name = "B", grid = gazelles(2) },
                   { name = "C", grid = gazelles(1) } }
  -- Trees stay in every row and column: 18 each.
  expect_line(g, "A", { tree = 18, gazelle = 6 + 5 })
  expect_line(g, "B", { tree = 18, gazelle = 4 + 2 })
  expect_line(g, "C", { tree = 18, gazelle = 2 })
end)

test("gazelle tie for first: every tied player takes 5 and nobody takes the 2", function()
  local g = board{ { name = "A", grid = gazelles(3) }, { name = "B", grid = gazelles(3) },
                   { name = "C", grid = gazelles(2) } }
  expect_line(g, "A", { tree = 18, gazelle = 6 + 5 })
  expect_line(g, "B", { tree = 18, gazelle = 6 + 5 })
  expect_line(g, "C", { tree = 18, gazelle = 4 })
end)

test("gazelle tie for second: both tied players take 2", function()
  local g = board{ { name = "A", grid = gazelles(4) }, { name = "B", grid = gazelles(2) },
                   { name = "C", grid = gazelles(2) } }
  expect_line(g, "A", { tree = 18, gazelle = 8 + 5 })
  expect_line(g, "B", { tree = 18, gazelle = 4 + 2 })
  expect_line(g, "C", { tree = 18, gazelle = 4 + 2 })
end)

test("gazelle: a player without gazelles ranks nowhere, even when that leaves a second place open", function()
  local g = board{ { name = "none", grid = gazelles(0) }, { name = "two", grid = gazelles(2) },
                   { name = "one", grid = gazelles(1) } }
  expect_line(g, "none", { tree = 18 })
  expect_line(g, "two", { tree = 18, gazelle = 4 + 5 })
  expect_line(g, "one", { tree = 18, gazelle = 2 + 2 })
  local lone = board{ { name = "none", grid = gazelles(0) }, { name = "one", grid = gazelles(1) } }
  expect_line(lone, "none", { tree = 18 })
  expect_line(lone, "one", { tree = 18, gazelle = 2 + 5 })
end)

test("gazelle: the neutral pile's gazelles take part in the comparison but score nothing", function()
  -- Neutral has 4: it is first, A (3) second, B (2) third.
  local g = board{ { name = "A", grid = gazelles(3) }, { name = "B", grid = gazelles(2) },
                   neutral = { gazelle = 4 } }
  expect_line(g, "A", { tree = 18, gazelle = 6 + 2 })
  expect_line(g, "B", { tree = 18, gazelle = 4 })
  local s = g:score()
  expect_eq(s[3], nil, "the neutral seat has no score line")
  -- Neutral ties A for first: both rank first, so nobody is second.
  g = board{ { name = "A", grid = gazelles(3) }, { name = "B", grid = gazelles(2) }, neutral = { gazelle = 3 } }
  expect_line(g, "A", { tree = 18, gazelle = 6 + 5 })
  expect_line(g, "B", { tree = 18, gazelle = 4 })
  -- Neutral's other cards are ignored, and a neutral without gazelles changes nothing.
  g = board{ { name = "A", grid = gazelles(3) }, { name = "B", grid = gazelles(2) },
             neutral = { gazelle = 0, prairie = 5 } }
  expect_line(g, "A", { tree = 18, gazelle = 6 + 5 })
  expect_line(g, "B", { tree = 18, gazelle = 4 + 2 })
end)

test("zebra: 3 per adjacent prairie, and one prairie can feed several zebras", function()
  local g = board{
    { name = "A", grid = {
      { T, P, T, T, T },
      { P, Z, P, Z, T },
      { T, P, T, T, T },
      { T, T, T, T, Z } } },
  }
  -- Zebra (1,1): prairies up, left, right, down = 12. Zebra (1,3): the shared prairie (1,2) = 3.
  -- Zebra (3,4): trees only = 0. Prairies: four single cards = 4. Trees: all rows, all columns = 18.
  expect_line(g, "A", { zebra = 15, prairie = 4, tree = 18 })
end)

test("giraffe: 5 once when next to at least one tree, nothing for diagonal trees", function()
  local g = board{
    { name = "A", grid = {
      { Gi, T, Gi, P, P },
      { T,  Gi, P, P, P },
      { P,  P,  P, P, Gi },
      { P,  P,  P, T, P } } },
  }
  -- (0,0) touches two trees: 5, not 10. (0,2) touches (0,1): 5. (1,1) touches two trees: 5.
  -- (2,4) has the tree (3,3) only on a diagonal: 0.  Giraffes = 15.
  -- Trees (0,1), (1,0), (3,3): rows 0, 1, 3 and columns 0, 1, 3 = 12.
  -- Prairies: one group of 12 cards = 16, and (3,4) alone = 1 -> 17.
  expect_line(g, "A", { giraffe = 15, tree = 12, prairie = 17 })
end)

test("cheetah: 3 per diagonal gazelle, which is then face down and cannot be eaten by a lion", function()
  local g = board{
    { name = "A", grid = {
      { G, T,  G, T, T },
      { T, Ch, T, T, T },
      { H, T,  G, L, P },
      { T, T,  T, T, T } } },
  }
  -- Cheetah (1,1): diagonal gazelles (0,0), (0,2), (2,2) = 9; all three are face down.
  -- Gazelles still score 2 each (6) and, alone on the table, the 5 for most = 11.
  -- Lion (2,3) touches the prairie (2,4) but no face-up gazelle or zebra remains: 0.
  -- Hyena (2,0): face-down gazelles exactly two cells away at (0,0) and (2,2) = 6.
  -- Trees in every row and column = 18; prairie (2,4) alone = 1.
  expect_line(g, "A", { cheetah = 9, gazelle = 11, lion = 0, hyena = 6, tree = 18, prairie = 1 })
end)

test("cheetah: two cheetahs sharing a diagonal gazelle both score it, and it is flipped once", function()
  local g = board{
    { name = "A", grid = {
      { Ch, T, Ch, T, T },
      { T,  G, T,  T, T },
      { T,  T, T,  T, T },
      { T,  V, T,  T, T } } },
  }
  -- Both cheetahs have the gazelle (1,1) on a diagonal: 3 + 3 = 6. Gazelle 2 + 5.
  -- The vulture (3,1) has nothing face down below it (it is on the bottom row): 0.
  -- Trees: rows 0..3 and columns 0..4 = 18.
  expect_line(g, "A", { cheetah = 6, gazelle = 7, tree = 18 })
  -- A vulture above the hunted gazelle sees one face-down card: 4.
  g = board{
    { name = "A", grid = {
      { Ch, V, Ch, T, T },
      { T,  G, T,  T, T },
      { T,  T, T,  T, T },
      { T,  T, T,  T, T } } },
  }
  expect_line(g, "A", { cheetah = 6, gazelle = 7, tree = 18, vulture = 4 })
end)

test("cheetah: only its four diagonal neighbours count, not gazelles further along the diagonal lines", function()
  -- README, house rule 11: "3 points par Gazelle sur ses diagonales" is read as the four cells
  -- touching the cheetah's corners. The gazelles (2,2) and (3,3) lie on the cheetah (0,0)'s
  -- diagonal line, two and three cells away: they score nothing for it and stay face up (the
  -- vulture (0,2) has no face-down card below it).
  -- Gazelles 2 x 2 + 5 (alone on the table) = 9; trees in every row and column = 18.
  local grid = {
    { Ch, T, V, T, T },
    { T,  T, T, T, T },
    { T,  T, G, T, T },
    { T,  T, T, G, T },
  }
  expect_line(board{ { name = "A", grid = grid } }, "A", { cheetah = 0, gazelle = 9, vulture = 0, tree = 18 })
  -- A gazelle on the touching diagonal cell (1,1) is hunted: 3; three gazelles 6 + 5 = 11.
  grid[2][2] = G
  expect_line(board{ { name = "A", grid = grid } }, "A", { cheetah = 3, gazelle = 11, vulture = 0, tree = 18 })
end)

test("lion: eats one face-up gazelle or zebra for 4, only when next to a prairie and only while prey remains", function()
  local g = board{
    -- next to a prairie, eats the zebra; the hyena two cells above the zebra proves it is face down
    { name = "fed on zebra", grid = {
      { L, P, T, T, T }, { H, T, T, T, T }, { T, T, T, T, T }, { Z, T, T, T, T } } },
    -- same with a gazelle as the only prey
    { name = "fed on gazelle", grid = {
      { L, P, T, T, T }, { H, T, T, T, T }, { T, T, T, T, T }, { G, T, T, T, T } } },
    -- prey but no prairie next to the lion: nothing eaten
    { name = "no prairie", grid = {
      { L, T, T, T, T }, { H, T, T, T, T }, { T, T, P, T, T }, { Z, T, T, T, T } } },
    -- a prairie on the lion's diagonal does not count
    { name = "diagonal prairie", grid = {
      { L, T, T, T, T }, { H, P, T, T, T }, { T, T, T, T, T }, { Z, T, T, T, T } } },
    -- a prairie but no prey
    { name = "no prey", grid = {
      { L, P, T, T, T }, { H, T, T, T, T }, { T, T, T, T, T }, { T, T, T, T, T } } },
    -- two hungry lions, one prey: only one lion eats
    { name = "two lions one prey", grid = {
      { L, P, L, T, T }, { T, T, T, T, T }, { T, T, T, T, T }, { Z, T, T, T, T } } },
  }
  -- Every grid keeps a tree in each row and column (18) and has one single prairie (1).
  -- Zebras here touch no prairie (0). The hyena at (1,0) sees (3,0) two cells below.
  expect_line(g, "fed on zebra", { lion = 4, hyena = 3, tree = 18, prairie = 1 })
  -- The only gazelle on the table: 2 + 5.
  expect_line(g, "fed on gazelle", { lion = 4, hyena = 3, gazelle = 7, tree = 18, prairie = 1 })
  expect_line(g, "no prairie", { tree = 18, prairie = 1 })
  expect_line(g, "diagonal prairie", { tree = 18, prairie = 1 })
  expect_line(g, "no prey", { tree = 18, prairie = 1 })
  expect_line(g, "two lions one prey", { lion = 4, tree = 18, prairie = 1 })
end)

test("lion: without recorded choices the prey eaten is the one that gives the most points", function()
  local g = board{
    { name = "A", grid = {
      { L, P, T, T, V }, { G, T, T, T, T }, { T, T, T, T, Z }, { Z, E, T, T, T } } },
  }
  -- One hungry lion, three face-up prey. Eating the zebra (2,4) feeds the vulture above it (+4),
  -- eating the zebra (3,0) frees the elephant (3,1) (+2), the gazelle (1,0) gives nothing.
  -- Best: zebra (2,4). Elephant (3,1): zebra (3,0) still face up = 4. Gazelle 2 + 5.
  -- Trees: rows 0..3 and columns 0..4 = 18. Prairie 1. Zebras touch no prairie.
  expect_line(g, "A", { lion = 4, vulture = 4, elephant = 4, gazelle = 7, tree = 18, prairie = 1 })
end)

test("lion: unchosen, each prey is weighed by what it frees: 2 per elephant, 3 per hyena, 4 per vulture", function()
  local g = board{
    -- The zebra (2,0) frees the elephant (2,1): +2; the zebra (3,2) lies two cells from the
    -- hyena (3,4): +3. The lion takes the second, though the first comes first.
    { name = "hyena over elephant", grid = {
      { L, P, T, T, T },
      { T, T, T, T, T },
      { Z, E, T, T, T },
      { T, T, Z, T, H } } },
    -- The zebra (2,1) frees two elephants: +4; the zebra (3,4) lies under the vulture (0,4):
    -- +4. Equal gains: the first in reading order is eaten.
    { name = "two elephants or a vulture", grid = {
      { L, P, T, T, V },
      { T, T, T, T, T },
      { E, Z, E, T, T },
      { T, T, T, T, Z } } },
  }
  -- Both: prairie (0,1) alone = 1, trees in every row and column = 18, the lion eats = 4.
  -- First: elephant (2,1) keeps its zebra = 4, hyena 3. Second: both elephants free = 12.
  expect_line(g, "hyena over elephant", { prairie = 1, tree = 18, lion = 4, elephant = 4, hyena = 3 })
  expect_line(g, "two elephants or a vulture", { prairie = 1, tree = 18, lion = 4, elephant = 12 })
end)

test("lion: with an elephant held at its floor, the prey is searched exactly", function()
  local g = board{ { name = "A", grid = {
    { L,  P, T,  T, T },
    { T,  Z, T,  T, T },
    { Gi, E, Gi, T, Z },
    { T,  Gi, T, T, E } } } }
  -- Elephant (2,1) has four animals around it (the zebra (1,1) and three giraffes): 6 - 8,
  -- held at 0; eating its zebra leaves 6 - 6 = 0, no gain. Elephant (3,4) has one, the zebra
  -- (2,4): 4, and 6 once that zebra is eaten. Adding gains up would call both zebras +2 and
  -- eat the first; the exact search eats the zebra (2,4). Elephants 0 + 6.
  -- Zebra (1,1) has the prairie (0,1) above it = 3. Giraffes each touch a tree = 15.
  -- Prairie 1. Trees: rows 0-3, columns 0, 2, 3, 4 (column 1 has none) = 16. Lion 4.
  expect_line(g, "A", { prairie = 1, tree = 16, zebra = 3, giraffe = 15, lion = 4, elephant = 6 })
end)

test("elephant: 6 minus 2 per adjacent face-up animal, elephants and face-down cards excepted, never below 0", function()
  local g = board{
    { name = "A", grid = {
      { E, E,  T,  Z, T },
      { T, Gi, Gi, E, H },
      { G, E,  T,  L, T },
      { T, Ch, T,  T, T } } },
  }
  -- (0,0): elephant and tree neighbours = 6.
  -- (0,1): elephant, tree, giraffe = 6 - 2 = 4.
  -- (2,1): giraffe above, cheetah below (-4); the gazelle (2,0) is face down (hunted by the
  --        cheetah (3,1)) and does not count = 2 (it would be 0 if it counted).
  -- (1,3): zebra, giraffe, hyena, lion = 6 - 8 = -2, held at the default floor 0.
  -- Elephants = 12.
  -- Others: giraffes (1,1) next to tree (1,0), (1,2) next to trees (0,2), (2,2) = 10;
  -- gazelle 2 + 5; cheetah 3; the lion has no prairie; zebra has no prairie; the hyena (1,4) sees
  -- (1,2) and (3,4), both face up = 0. Trees: rows 0..3, columns 0, 2, 3, 4 (not 1) = 8 + 8 = 16.
  expect_line(g, "A", { elephant = 12, giraffe = 10, gazelle = 7, cheetah = 3, tree = 16 })
end)

test("hyena: 3 per face-down card exactly two cells away in a straight line", function()
  local g = board{
    { name = "A", grid = {
      { G, T, G,  T, G },
      { T, Ch, T, Ch, T },
      { G, T, H,  T, G },
      { T, T, T,  T, T } } },
  }
  -- Cheetahs (1,1) and (1,3) flip the gazelles (0,0), (0,2), (2,0) and (0,2), (0,4), (2,4):
  -- cheetahs = 3 * 3 + 3 * 3 = 18, five gazelles face down.
  -- Hyena (2,2): two cells away are (0,2) down, (2,0) down, (2,4) down, (4,2) off the grid = 9.
  -- Face-down gazelles on its diagonals, e.g. (0,0), do not count.
  -- Gazelles 5 * 2 + 5 = 15. Trees: rows 0..3, columns 0..4 = 18.
  expect_line(g, "A", { hyena = 9, cheetah = 18, gazelle = 15, tree = 18 })
end)

test("vulture: 4 per face-down card below it in its column, none for cards above or beside", function()
  local g = board{
    { name = "A", grid = {
      { V, T,  V, T,  T },
      { G, T,  G, Ch, T },
      { T, Ch, G, T,  V },
      { G, T,  T, G,  G } } },
  }
  -- Cheetah (1,3): diagonals (0,2) V, (0,4) T, (2,2) G, (2,4) V -> flips (2,2).
  -- Cheetah (2,1) diagonals (1,0) G, (1,2) G, (3,0) G, (3,2) T -> flips (1,0), (1,2), (3,0).
  -- Cheetahs = 3 + 9 = 12. Face down: (1,0), (1,2), (2,2), (3,0). Face up: (3,3), (3,4).
  -- Vulture (0,0): below it (1,0) down, (2,0) tree, (3,0) down = 8.
  -- Vulture (0,2): below it (1,2) down, (2,2) down, (3,2) tree = 8.
  -- Vulture (2,4): below it (3,4) face up = 0 (the face-down cards are beside or above it).
  -- Gazelles 6 * 2 + 5 = 17. Trees: rows 0..3, columns 0..4 = 18.
  expect_line(g, "A", { vulture = 16, cheetah = 12, gazelle = 17, tree = 18 })
end)

test("a one-player board scores without a solo result", function()
  local g = board{ { name = "alone", grid = trees() } }
  expect_line(g, "alone", { tree = 18 })
  local extra = g:score().extra
  expect_eq(extra and extra.solo, nil, "no solo result without Jhay")
end)
