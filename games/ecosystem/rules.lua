-- Ecosystem (Genius Games, 2019), the original game of the series: the rules that are not
-- drafting. The shared Écosystème base (games/ecosysteme) declares the draft (2 x 10 cards into
-- a floating 4x5 grid, hands passed left then right) and assembles the score table; this file
-- scores one grid (a score sheet, then streams and dragonflies), the two majorities (streams,
-- wolves) and the diversity bonus. It needs nothing from C++.
--
-- Scoring reading: shared/design/game-data.md section 2.1 (an open-source simulator's rules;
-- the official English text is not sourced). Every point where that reading is a choice is
-- marked "Open point" below and listed under "House rules and assumptions" in README.md.

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

local draft = require("ecosysteme.draft")
local cards = require("ecosysteme.cards")
local table_score = require("ecosysteme.score")

-- One category per card id, in the order of the scoring table, then the diversity bonus.
game.categories = { "meadow", "stream", "bear", "bee", "trout", "eagle", "rabbit", "dragonfly",
                    "fox", "deer", "wolf", "gaps" }

-- The draft: 2 rounds of `hand_size` cards (10 by default, all placed), 10 placed per round,
-- left then right, in a 4x5 frame.
-- Open point (README, house rule 1): no neutral hand and no solo opponent; the original's
--    2-player and solo variants are not sourced, and the manifest allows 3 to 6 players only.
-- Open point (README, house rule 8): a `hand_size` above 10 discards the rest of each hand.
function game.draft(ctx)
  return draft.config(ctx)
end

---------------------------------------------------------------------------------------------
-- One grid's own scores: one compiled query (a single host call per grid) answers every rule,
-- the streams' and dragonflies' groups included. Built once per VM (pure data).

local CARD_IDS        -- every card id of the data, in data order: the types the gaps look at
local QUERY
local MEADOW_POINTS = { 0, 3, 6, 10, 15 }   -- a meadow group of 1 / 2 / 3 / 4 / 5+ cards

local function load(ctx)
  if CARD_IDS then return end
  CARD_IDS = cards.ids(ctx)
  local bear_food = ctx.card_set({ "trout", "bee" })
  local trout_food = ctx.card_set({ "dragonfly", "stream" })
  local eagle_prey = ctx.card_set({ "rabbit", "trout" })
  local fox_threats = ctx.card_set({ "bear", "wolf" })
  -- One call per grid answers every rule that is a plain count. Entries, in order:
  QUERY = ctx.query{
    { "groups", "meadow", MEADOW_POINTS },                  --  1 meadow points (all groups)
    { "pairs", "bear", bear_food },                         --  2 trout and bees next to bears
    { "pairs", "bee", "meadow" },                           --  3 meadows next to bees
    { "pairs", "trout", trout_food },                       --  4 dragonflies and streams next to trout
    -- Open point (README, house rule 6): the eagle's "within 2 spaces" is the 12 cells at
    -- Manhattan distance 1 or 2: the 8 surrounding cells ("all") and the 4 cells two steps
    -- away in a straight line.
    { "pairs", "eagle", eagle_prey, "all" },                --  5 prey in the 8 surrounding cells
    { "pairs", "eagle", eagle_prey, "distance2" },          --  6 prey two cells away, straight
    { "count", "rabbit" },                                  --  7 rabbits
    -- Open point (README, house rule 5): groups are true orthogonally connected components
    -- (the simulator's own grouping code can split some shapes; the table in game-data.md
    -- says "connected").
    { "touching_groups", "dragonfly", "stream" },           --  8 per dragonfly, the size of each
                                                            --    stream group next to it, once each
    -- max(3 - 3 * (bears and wolves around), 0): 3 for a fox with none, else 0
    { op = "each", cards = "fox", near = fox_threats, base = 3, per = -3, floor = 0 },   --  9 fox points
    { "lines", "deer" },                                    -- 10 rows + columns holding a deer
    { "count", "wolf" },                                    -- 11 wolves
    { "largest", "stream" },                                -- 12 the largest stream group
  }
end

-- The breakdown of one grid (stream, wolf and gaps are set by the score table) and the counts
-- its majorities compare: the size of its largest stream, then its wolves. (One query and one
-- table constructor: the greedy bots score every candidate move, so this stays tight.)
local function grid_scores(seat, v)
  local meadow, bear, bee, trout, eagle_near, eagle_far, rabbit, dragonfly, fox, deer, wolves, largest = v:run(QUERY)
  return { meadow = meadow, stream = 0, bear = 2 * bear, bee = 3 * bee, trout = 2 * trout,
           eagle = 2 * (eagle_near + eagle_far), rabbit = rabbit, dragonfly = dragonfly,
           fox = fox, deer = 2 * deer, wolf = 0, gaps = 0 }, largest, wolves
end

---------------------------------------------------------------------------------------------
-- The majorities: a seat's largest stream and its wolf count are compared; a seat with 0
-- takes no place and scores 0 (simulator).
-- Open point (README, house rule 3): ties, by the stream_ties and wolf_ties parameters
-- (ecosysteme/majority.lua).
--   "competition" (the simulator's reading, default): a seat's place is 1 + the number of
--     seats with a larger value, so tied seats share a place and the places they fill are not
--     paid to the next seats (wolves 3,3,2 -> 12,12,4; 3,2,2,1 -> 12,8,8,0; 2,2,2,1 ->
--     12,12,12,0; streams 4,4,3 -> 8,8,0; 4,3,3 -> 8,5,5).
--   "dense": a seat's place is 1 + the number of different larger values (wolves 3,3,2 ->
--     12,12,8; streams 4,4,3 -> 8,8,5).
local WOLF_POINTS = { 12, 8, 4 }
local STREAM_POINTS = { 8, 5 }

---------------------------------------------------------------------------------------------
-- Diversity: the number of card types whose category scored 0, counted after the stream and
-- wolf payouts.
-- Open point (README, house rule 7): the types are every card id of the data; a type absent
-- from the grid scores 0 and is a gap; `gaps` itself is not counted.
-- Open point (README, house rule 2): 6 or more gaps score `gap_penalty_6plus` (-6 by default).
local GAP_POINTS = { [0] = 12, 12, 12, 7, 3, 0 }

-- The score table (ecosysteme/score.lua): the grids' own scores, the two majorities, then
-- the gaps. Built once: it holds no game state.
local TABLE = {
  categories = game.categories,
  grid = grid_scores,
  majorities = {
    { category = "stream", points = STREAM_POINTS, ties_param = "stream_ties" },
    { category = "wolf", points = WOLF_POINTS, ties_param = "wolf_ties" },
  },
  -- Returns the seat's total too (every category but gaps is a card id: game.check), so the
  -- bots' totals are one pass over the cards.
  finish = function(seat, b, ctx)
    local gaps, total = 0, 0
    for k = 1, #CARD_IDS do
      local v = b[CARD_IDS[k]]
      if not v or v == 0 then gaps = gaps + 1 else total = total + v end
    end
    local points = GAP_POINTS[gaps] or ctx.params.gap_penalty_6plus
    b.gaps = points
    return total + points
  end,
  -- Every card's row is computed by grid_scores' own Lua (one compiled query, then arithmetic).
  scored_in_lua = game.categories,
  -- A grid's score depends on that grid alone, so the bots' totals keep the grids a move did
  -- not change.
  memo = true,
  -- grid_scores builds a new breakdown on every call: a pick's is worked on itself.
  fresh_breakdowns = true,
}

-- Run once when the rules load: a card without a rule, a rule on no card, is refused there
-- (exit 2, naming the card's entry in the data file) rather than scoring 0 without a word.
function game.check(ctx)
  load(ctx)
  table_score.check(ctx, TABLE)
  -- finish's total counts the card ids' categories and the gaps: every other category is one.
  local is_card = {}
  for _, id in ipairs(CARD_IDS) do is_card[id] = true end
  for _, c in ipairs(game.categories) do
    if c ~= "gaps" and not is_card[c] then error("category '" .. c .. "' is not a card id: finish's total would miss it", 0) end
  end
end

function game.score(ctx, state)
  load(ctx)
  -- Not a tail call: an error the base raises about TABLE then names this line.
  local lines, extra = table_score.assemble(ctx, state, TABLE)
  return lines, extra
end

-- The same totals for the bots' measure, rescoring only the grids that changed.
function game.totals(ctx, state)
  load(ctx)
  local totals = table_score.totals(ctx, state, TABLE)
  return totals
end

-- The bots' value of every pick of a draft decision at once: each pick scores the picker's
-- grid alone, on a view with the card placed, instead of the host trying it.
function game.evaluate_moves(ctx, state, seat, moves)
  load(ctx)
  local values = table_score.evaluate_moves(ctx, state, seat, moves, TABLE)
  return values
end

-- Moves in the players' words (where a card lands in the grid, not the host's coordinates).
game.describe = require("ecosysteme.describe").describe

return game
