-- {{name}}: a first Écosystème variant (docs/modding.md, "A first variant"). The base runs the
-- draft and builds the score table; this file says how each card scores.

---@type plateau.game
local game = { api_version = 1, version = 1 }

local draft = require("ecosysteme.draft")
local scoring = require("ecosysteme.scoring")
local table_score = require("ecosysteme.score")

-- The rows of the score table, in order: one per card, then the bonus row.
game.categories = { "meadow", "marmot", "ibex", "eagle", "edelweiss", "chamois", "harmony" }

function game.draft(ctx)
  return draft.config(ctx, { neutral = true, solo = "Robot" })
end

local SHEET
local MEADOW_POINTS = { 1, 3, 6, 10 }   -- a face-up meadow group of 1 / 2 / 3 / 4+ cards

local function load(ctx)
  if SHEET then return end
  -- In order: the eagles turn meadows over first, so the rules after them see those face down.
  SHEET = scoring.sheet(ctx, {
    { score = "eagle", per = 1, query = { "flip_touching", "meadow", "eagle" } },          -- meadows by an eagle: 1 each
    { score = "meadow", query = { "groups", "meadow", MEADOW_POINTS, "up" } },             -- face-up groups
    { score = "marmot", per = 2, query = { "pairs", "marmot", "meadow", "orthogonal", "up" } }, -- 2 per meadow
    { score = "edelweiss", per = 2, query = { "lines", "edelweiss" } },                    -- 2 per row, per column
    { query = { "count", "ibex" }, keep = "ibexes" },                                      -- for the majority
  }, game.categories)
end

-- The chamois, a rule no query says: 5 per chamois with no other chamois in its row.
local function chamois_points(v)
  local points = 0
  for _, i in ipairs(v:cells("chamois")) do                  -- the cells holding a chamois
    if v:around(i, "chamois", "row") == 0 then
      points = points + 5
      scoring.note(v, "chamois", i, 5)                         -- for plateau score --explain
    end
  end
  return points
end

local TABLE = {
  categories = game.categories,
  -- One grid: the breakdown, then the count the majority compares.
  grid = function(seat, v)
    local b, kept = SHEET:run(v)
    b.chamois = chamois_points(v)
    return b, kept.ibexes
  end,
  scored_in_lua = { "chamois" },   -- the card rows the grid function's own Lua sets
  -- The most ibexes: 8, the second most: 4 (the neutral pile's ibexes rank too).
  majorities = { { category = "ibex", card = "ibex", points = { 8, 4 } } },
  -- The bonus row, after every rule and the majorities (b.ibex holds its 8 or 4):
  -- 3 per card row worth 4 or more.
  finish = function(seat, b)
    local rows = 0
    for _, row in ipairs(game.categories) do
      if row ~= "harmony" and b[row] >= 4 then rows = rows + 1 end
    end
    b.harmony = 3 * rows
  end,
  solo = true,
  memo = true,
}

-- Run once when the rules load: a card without a rule is refused there.
function game.check(ctx)
  load(ctx)
  table_score.check(ctx, TABLE)
end

function game.score(ctx, state)
  load(ctx)
  local lines, extra = table_score.assemble(ctx, state, TABLE)
  return lines, extra
end

function game.totals(ctx, state)
  load(ctx)
  local totals = table_score.totals(ctx, state, TABLE)
  return totals
end

-- The bots' value of every pick of a decision at once (needs memo = true): faster simulations.
function game.evaluate_moves(ctx, state, seat, moves)
  load(ctx)
  local values = table_score.evaluate_moves(ctx, state, seat, moves, TABLE)
  return values
end

return game
