-- The worked example of this plugin (the original rulebook's own example is not sourced): three
-- finished 4 x 5 grids, Ada, Ben and Cleo, scored by hand below, card by card. The same table
-- is tests/boards/example.json, for `plateau score ecosystem tests/boards/example.json`.
-- Ben wins with 60, Ada 59, Cleo 44.

local M, S = "meadow", "stream"
local Be, Bz, T, E, R = "bear", "bee", "trout", "eagle", "rabbit"
local Dr, F, D, W = "dragonfly", "fox", "deer", "wolf"

--        col 0   col 1   col 2   col 3   col 4
-- row 0  meadow  meadow  bee     stream  stream
-- row 1  meadow  trout   bear    stream  dragonfly
-- row 2  fox     deer    eagle   rabbit  stream
-- row 3  wolf    wolf    deer    dragon. trout
--
-- Meadow     (0,0)-(0,1)-(1,0): one group of 3                                          -> 6
-- Stream     groups (0,3)-(0,4)-(1,3) (3) and (2,4) alone (1): largest 3, second of the
--            table (Ben 4, Cleo 2)                                                      -> 5
-- Bear       (1,2): bee (0,2) above, trout (1,1) left = 2 x 2                           -> 4
-- Bee        (0,2): meadow (0,1) = 1 x 3                                                -> 3
-- Trout      (1,1): meadows, bear, deer around: 0. (3,4): stream (2,4) and dragonfly
--            (3,3) = 2 x 2                                                              -> 4
-- Eagle      (2,2): rabbit (2,3) orthogonal, trout (1,1) diagonal = 2 x 2; trout (3,4) is
--            one row and two columns away (distance 3)                                  -> 4
-- Rabbit     1                                                                          -> 1
-- Dragonfly  (1,4): the group of 3 (through (0,4) and (1,3): counted once) and the
--            single stream (2,4) = 3 + 1. (3,3): rabbit, deer, trout around: 0           -> 4
-- Fox        (2,0): the wolf (3,0) is below it                                          -> 0
-- Deer       (2,1) and (3,2): rows 2 and 3, columns 1 and 2 = 4 x 2                     -> 8
-- Wolf       2 wolves: second (Ben 3, Cleo 1)                                           -> 8
-- Gaps       only the fox scored 0: 1 gap                                               -> 12
-- Total      6 + 5 + 4 + 3 + 4 + 4 + 1 + 4 + 0 + 8 + 8 + 12 = 59
local ADA = {
  { M, M, Bz, S,  S },
  { M, T, Be, S,  Dr },
  { F, D, E,  R,  S },
  { W, W, D,  Dr, T },
}

--        col 0   col 1   col 2   col 3   col 4
-- row 0  stream  stream  stream  stream  trout
-- row 1  deer    dragon. wolf    fox     meadow
-- row 2  deer    bear    bee     meadow  meadow
-- row 3  rabbit  eagle   trout   wolf    wolf
--
-- Meadow     (1,4)-(2,4)-(2,3): one group of 3                                          -> 6
-- Stream     (0,0)-(0,3): 4, the largest of the table                                   -> 8
-- Bear       (2,1): bee (2,2) = 1 x 2                                                   -> 2
-- Bee        (2,2): meadow (2,3) = 1 x 3                                                -> 3
-- Trout      (0,4): stream (0,3) = 2. (3,2): bee, eagle, wolf around: 0                 -> 2
-- Eagle      (3,1): rabbit (3,0) and trout (3,2), both orthogonal = 2 x 2               -> 4
-- Rabbit     1                                                                          -> 1
-- Dragonfly  (1,1): the stream of 4 above it                                            -> 4
-- Fox        (1,3): the wolf (1,2) is beside it                                         -> 0
-- Deer       (1,0) and (2,0): rows 1 and 2, column 0 = 3 x 2                            -> 6
-- Wolf       3 wolves, the most                                                         -> 12
-- Gaps       only the fox: 1 gap                                                        -> 12
-- Total      6 + 8 + 2 + 3 + 2 + 4 + 1 + 4 + 0 + 6 + 12 + 12 = 60
local BEN = {
  { S, S,  S,  S, T },
  { D, Dr, W,  F, M },
  { D, Be, Bz, M, M },
  { R, E,  T,  W, W },
}

--        col 0   col 1   col 2   col 3   col 4
-- row 0  deer    meadow  meadow  meadow  deer
-- row 1  bee     rabbit  eagle   rabbit  fox
-- row 2  stream  bee     trout   stream  deer
-- row 3  stream  bear    deer    wolf    fox
--
-- Meadow     (0,1)-(0,3): one group of 3                                                -> 6
-- Stream     (2,0)-(3,0) (2) and (2,3) alone: largest 2, third of the table             -> 0
-- Bear       (3,1): bee (2,1) = 1 x 2                                                   -> 2
-- Bee        (1,0): deer, rabbit, stream around; (2,1): rabbit, stream, trout, bear:
--            no meadow next to either                                                   -> 0
-- Trout      (2,2): stream (2,3) = 1 x 2                                                -> 2
-- Eagle      (1,2): rabbits (1,1) and (1,3), trout (2,2), all orthogonal = 3 x 2        -> 6
-- Rabbit     2                                                                          -> 2
-- Dragonfly  none                                                                       -> 0
-- Fox        (1,4): deer, rabbit, deer around = 3. (3,4): the wolf (3,3) is beside it   -> 3
-- Deer       (0,0), (0,4), (2,4), (3,2): rows 0, 2, 3 and columns 0, 2, 4 = 6 x 2       -> 12
-- Wolf       1 wolf: third                                                              -> 4
-- Gaps       stream, bee and dragonfly scored 0: 3 gaps                                 -> 7
-- Total      6 + 0 + 2 + 0 + 2 + 6 + 2 + 0 + 3 + 12 + 4 + 7 = 44
local CLEO = {
  { D,  M,  M,  M, D },
  { Bz, R,  E,  R, F },
  { S,  Bz, T,  S, D },
  { S,  Be, D,  W, F },
}

local function example()
  return board{ { name = "Ada", grid = ADA }, { name = "Ben", grid = BEN }, { name = "Cleo", grid = CLEO } }
end

test("worked example: Ada 59, every category", function()
  expect_score(example(), "Ada", 59, { meadow = 6, stream = 5, bear = 4, bee = 3, trout = 4, eagle = 4,
    rabbit = 1, dragonfly = 4, fox = 0, deer = 8, wolf = 8, gaps = 12 })
end)

test("worked example: Ben 60, every category", function()
  expect_score(example(), "Ben", 60, { meadow = 6, stream = 8, bear = 2, bee = 3, trout = 2, eagle = 4,
    rabbit = 1, dragonfly = 4, fox = 0, deer = 6, wolf = 12, gaps = 12 })
end)

test("worked example: Cleo 44, every category", function()
  expect_score(example(), "Cleo", 44, { meadow = 6, stream = 0, bear = 2, bee = 0, trout = 2, eagle = 6,
    rabbit = 2, dragonfly = 0, fox = 3, deer = 12, wolf = 4, gaps = 7 })
end)

test("worked example: the parameters move only what they should", function()
  -- With stream_ties or wolf_ties = dense nothing changes (no ties); with a -5 penalty nothing
  -- changes (nobody has 6 gaps).
  for _, params in ipairs({ { stream_ties = "dense" }, { wolf_ties = "dense" }, { gap_penalty_6plus = -5 } }) do
    local g = board{ { name = "Ada", grid = ADA }, { name = "Ben", grid = BEN }, { name = "Cleo", grid = CLEO },
                     params = params }
    expect_score(g, "Ada", 59)
    expect_score(g, "Ben", 60)
    expect_score(g, "Cleo", 44)
  end
  -- A tie for the largest stream: Ben's top-left stream becomes a deer. Ben's stream is now
  -- (0,1)-(0,3), 3 like Ada's: both first, 8 each, and nobody is second, so Cleo (2) still
  -- scores nothing. Ben: his dragonfly (1,1) now touches a stream of 3 (3, not 4), his deer
  -- cover rows 0-2 and column 0 (8, not 6): 60 + 0 - 1 + 2 = 61. Ada: 59 - 5 + 8 = 62.
  local ben = {}
  for r, row in ipairs(BEN) do
    ben[r] = {}
    for c, v in ipairs(row) do ben[r][c] = v end
  end
  ben[1][1] = D
  local g = board{ { name = "Ada", grid = ADA }, { name = "Ben", grid = ben }, { name = "Cleo", grid = CLEO } }
  expect_score(g, "Ada", 62, { stream = 8 })
  expect_score(g, "Ben", 61, { stream = 8, dragonfly = 3, deer = 8 })
  expect_score(g, "Cleo", 44, { stream = 0 })
  g = board{ { name = "Ada", grid = ADA }, { name = "Ben", grid = ben }, { name = "Cleo", grid = CLEO },
             params = { stream_ties = "dense" } }
  -- stream_ties = dense: Cleo's 2 is the next size after the tie and takes 5; her stream is no
  -- longer a gap (bee and dragonfly: 2 gaps, 12 instead of 7): 44 + 5 + 5.
  expect_score(g, "Cleo", 44 + 5 + 5, { stream = 5, gaps = 12 })
end)
