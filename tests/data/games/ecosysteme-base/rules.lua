-- Fixture of the shared Écosystème base: a pond variant built only from the base's modules, so
-- that its tests check them through a real game. Moss and ferns score through a score sheet,
-- frogs through a majority (neutral pile included, tie reading by parameter), herons turn
-- frogs face down after the draft (a question when there is a choice, else the best choice
-- searched at scoring), and otters score what is face down in their row.

local game = { api_version = 1, version = 1 }

local draft = require("ecosysteme.draft")
local cards = require("ecosysteme.cards")
local scoring = require("ecosysteme.scoring")
local facedown = require("ecosysteme.facedown")
local table_score = require("ecosysteme.score")

game.categories = { "moss", "fern", "frog", "heron", "otter" }

function game.draft(ctx)
  return draft.config(ctx, { neutral = true, solo = "Bot" })
end

local SHEET, AFTER, ALL
local MOSS_POINTS = { 1, 3, 6, 10 }

local function load(ctx)
  if SHEET then return end
  ALL = ctx.card_set(cards.ids(ctx))
  -- Before the herons eat: what no choice changes.
  SHEET = scoring.sheet(ctx, {
    { score = "moss", query = { "groups", "moss", MOSS_POINTS } },     -- per connected group
    { score = "fern", per = 2, query = { "lines", "fern" } },          -- 2 per row and per column
    { query = { "count", "heron" }, keep = "herons" },                 -- hungry herons
  }, { "moss", "fern", "frog", "otter" })   -- not "heron": see score_grid
  -- After: what depends on the frogs eaten.
  AFTER = ctx.query{
    { "count", "frog", "up" },                      -- frogs still face up
    { "pairs", "otter", ALL, "row", "down" },       -- face-down cards in the otters' rows
  }
end

-- What eating frog `i` adds: 2 per otter in its row.
local function frog_gain(v, i)
  return 2 * v:around(i, "otter", "row")
end

local function after_total(v)
  local _, otter = v:run(AFTER)
  return 2 * otter
end

-- One grid: the sheet, then each heron eats a face-up frog (the chosen ones first, then the
-- best of the rest), then frogs and otters. Returns the breakdown and the face-up frogs (the
-- majority's count).
local function score_grid(seat, v, state, ctx)
  local b, kept = SHEET:run(v)
  local eaten, chosen = 0, facedown.chosen(state:read("eaten"), seat, v)
  for t = 1, chosen and #chosen or 0 do
    local card, down = v:get(chosen[t])
    if eaten < kept.herons and card == "frog" and not down then
      v:set_down(chosen[t], true)
      eaten = eaten + 1
    end
  end
  if eaten < kept.herons then
    local frogs = v:cells("frog", "up")
    local k = math.min(kept.herons - eaten, #frogs)
    if k > 0 then
      local picked
      if ctx.params.prey_search == "exact" then
        picked = facedown.best_set(v, frogs, k, after_total)
      else
        picked = facedown.best_additive(frogs, k, frog_gain, v)
      end
      for t = 1, #picked do v:set_down(picked[t], true) end
      eaten = eaten + #picked
    end
  end
  local frogs, otters = v:run(AFTER)
  b.frog = frogs
  -- Left unset when no heron ate: the score table must still show the row, at 0.
  if eaten > 0 then b.heron = 4 * eaten end
  b.otter = 2 * otters
  return b, frogs
end

local TABLE = {
  categories = game.categories,
  grid = score_grid,
  majorities = { { category = "frog", card = "frog", points = { 6, 3 }, ties_param = "frog_ties", add = true } },
  extra = function(lines, state) return { eaten = #(state:read("eaten") or {}) } end,
  scored_in_lua = { "heron", "otter" },   -- score_grid's own Lua, after the sheet
  solo = true,
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

-- The eat moves still open for a grid: the face-up frogs, when there are more of them than
-- herons left to feed.
local function heron_question(state, seat)
  local v = state:grid(seat):view()
  local herons = v:count("heron")
  if herons == 0 then return nil end
  local chosen = facedown.chosen(state:read("eaten"), seat, v)
  for t = 1, chosen and #chosen or 0 do
    v:set_down(chosen[t], true)
    herons = herons - 1
  end
  local frogs = v:cells("frog", "up")
  if herons <= 0 or #frogs <= herons then return nil end
  return facedown.cell_moves(v, frogs, "eat", seat)
end

function game.after_draft(ctx, state)
  for seat = 1, state.player_count do
    draft.ask_next(state, seat, function(g) return heron_question(state, g) end)
  end
end

game.moves = {}

function game.moves.eat(ctx, state, seat, move)
  facedown.record(state, "eaten", { grid = move.grid, cell = { move.cell[1], move.cell[2] } })
  draft.ask_next(state, seat, function(g) return heron_question(state, g) end)
end

return game
