-- {{name}}: how each card scores. The shared Écosystème base (games/{{base}}) runs the
-- draft and builds the score table; this file declares which draft options the game uses,
-- lists one scoring rule per card in a score sheet, and hands both to the base. Add a card:
-- an entry in data/cards.json, its id in game.categories, its rule in the sheet, and a test
-- in tests/. docs/modding.md walks through it.

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

local draft = require("ecosysteme.draft")
local scoring = require("ecosysteme.scoring")
local table_score = require("ecosysteme.score")

-- The rows of the score table, in order: one per card id (and any bonus row you add).
game.categories = { "meadow" }

-- 2 rounds of 10 cards into a 4x5 grid; with 2 players a neutral third hand; in solo the
-- player also fills Robot's grid. Drop `neutral` or `solo` to leave those modes out.
function game.draft(ctx)
  return draft.config(ctx, { neutral = true, solo = "Robot" })
end

-- The score sheet: one line per rule, compiled once per rules instance (pure data).
local SHEET
local MEADOW_POINTS = { 1, 3, 6, 10 }   -- a meadow group of 1 / 2 / 3 / 4+ cards

local function load(ctx)
  if SHEET then return end
  SHEET = scoring.sheet(ctx, {
    { score = "meadow", query = { "groups", "meadow", MEADOW_POINTS } },   -- each connected group
    -- More cards, for example:
    -- { score = "bee", per = 3, query = { "pairs", "bee", "meadow" } },  -- 3 per meadow next to it
    -- { score = "oak", per = 2, query = { "lines", "oak" } },            -- 2 per row and per column
    -- { query = { "count", "wolf" }, keep = "wolves" },                  -- a count for a majority
  }, game.categories)
end

-- The score table: every grid scored by the sheet (the solo opponent's too), the neutral
-- seat left out, and the solo result in the extra. Built once: it holds no game state.
local TABLE = {
  categories = game.categories,
  grid = function(seat, v) return (SHEET:run(v)) end,
  -- A majority ranks every seat's count (the neutral pile's copies of `card` too), e.g. with
  -- grid returning `b, kept.wolves`:
  -- majorities = { { category = "wolf", card = "wolf", points = { 12, 8, 4 }, add = true } },
  solo = true,
  -- The bots' totals rescore only the grids a move changed. This holds while `grid` reads
  -- nothing but the grid, state.data and ctx.params; remove it if yours reads more (a hand,
  -- a counter). `plateau test` checks the totals against the score.
  memo = true,
}

-- Run once when the rules load: a card without a rule, a rule on no card, is refused there
-- (exit 2, naming the card's entry in the data file) rather than scoring 0 without a word.
function game.check(ctx)
  load(ctx)
  table_score.check(ctx, TABLE)
end

function game.score(ctx, state)
  load(ctx)
  -- Not a tail call: an error the base raises about TABLE then names this line.
  local lines, extra = table_score.assemble(ctx, state, TABLE)
  return lines, extra
end

-- Each seat's total, for the bots: the score's totals, computed faster (ecosysteme/score.lua).
function game.totals(ctx, state)
  load(ctx)
  local totals = table_score.totals(ctx, state, TABLE)
  return totals
end

-- The bots' value of every pick of a draft decision at once (each pick scores your grid
-- function on a view with the card placed, instead of the host trying it). Needs memo = true.
function game.evaluate_moves(ctx, state, seat, moves)
  load(ctx)
  local values = table_score.evaluate_moves(ctx, state, seat, moves, TABLE)
  return values
end

-- Moves in the players' words (where a card lands in the grid, not the host's coordinates).
game.describe = require("ecosysteme.describe").describe

return game
