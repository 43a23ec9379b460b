-- Écosystème – Savane: the rules that are not drafting. The shared Écosystème base (games/
-- ecosysteme) declares the draft (2 x 10 cards into a floating 4x5 grid, a neutral hand with 2
-- players, Jhay's grid in solo) and assembles the score table; this file scores one grid in the
-- rulebook's order, declares the gazelle majority, and asks who the lions eat after the draft.

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

local draft = require("ecosysteme.draft")
local cards = require("ecosysteme.cards")
local facedown = require("ecosysteme.facedown")
local table_score = require("ecosysteme.score")

game.categories = { "waterhole", "prairie", "tree", "gazelle", "zebra", "giraffe",
                    "cheetah", "lion", "elephant", "hyena", "vulture" }

function game.draft(ctx)
  return draft.config(ctx, { neutral = true, solo = "Jhay" })
end

-- Card sets from the data: what counts as an animal (waterholes, elephants), and every card
-- (hyenas and vultures count any face-down card). Built once per VM: they are pure data.
local ANIMALS, OTHER_ANIMALS, ALL, PREY, ELEPHANT
local SCORING        -- the scoring rules that need no choice (entries: carcass_query compiles them)
local PRAIRIE_POINTS = { 1, 4, 9, 16 }   -- 1/4/9/16 for 1/2/3/4+ connected prairies

local function load(ctx)
  if ALL then return end
  local by_kind = cards.by_field(ctx, "kind")
  ANIMALS = ctx.card_set(by_kind.animal)
  OTHER_ANIMALS = ctx.card_set(cards.without(by_kind.animal, "elephant"))
  ALL = ctx.card_set(cards.ids(ctx))
  PREY = ctx.card_set({ "gazelle", "zebra" })
  ELEPHANT = ctx.card_set({ "elephant" })
  -- The scoring rules that need no choice, the first entries of one compiled query per grid
  -- (carcass_query; in the rulebook's order: entry 8 turns the cheetahs' prey face down
  -- before the lions look for theirs).
  SCORING = {
    { "distinct", "waterhole", ANIMALS },             -- 1: animal types next to each waterhole
    { "groups", "prairie", PRAIRIE_POINTS },          -- 2: prairie group points
    { "lines", "tree" },                              -- 3: rows + columns holding a tree
    { "count", "gazelle" },                           -- 4: gazelles
    { "pairs", "zebra", "prairie" },                  -- 5: prairies next to zebras
    { "touching", "giraffe", "tree" },                -- 6: giraffes next to a tree
    { "pairs", "cheetah", "gazelle", "diagonal" },    -- 7: gazelles on cheetahs' diagonals
    { "flip_touching", "gazelle", "cheetah", "diagonal" },  -- 8: hunted gazelles face down
    { "touching", "lion", "prairie" },                -- 9: hungry lions
  }
end

-- The gazelle majority: 5 for the most, 2 for the second most, added to the gazelles' points.
-- Open points (README, house rules): the tie rule is read as competition ranking (1, 1, 3);
-- the neutral pile (2 players) and Jhay (solo) take places like players.
local MAJORITIES = { { category = "gazelle", card = "gazelle", points = { 5, 2 }, ties = "competition", add = true } }

-- Elephants (6 minus 2 per face-up animal other than elephants, not below the floor), hyenas
-- and vultures (face-down cards two cells away / below): one query per floor value.
-- Open point (README, house rule 1): the rulebook sets no lower bound for an elephant; the
-- floor is the elephant_floor parameter (0 by default).
-- Each floor also has the whole grid's query: SCORING's entries, the carcass ones, then how
-- many elephants, hyenas and vultures there are (what a prey's gain can read), which
-- score_grid runs once, and runs the carcass query again only when lions ate (a grid with no
-- hungry lion, most of them, is one call).
local carcass_queries, full_queries = {}, {}
-- What the lions can add to a total, on a view whose cheetahs have hunted (run after the full
-- query): the face-up prey, what eating each adds summed over them all (elephants beside it,
-- hyenas two cells away, vultures above it, as prey_gain counts them), and the face-up animals
-- beside the elephants (with the elephants' points: whether an elephant is held up by its floor).
local LIONS_QUERY
local function carcass_query(ctx, floor)
  LIONS_QUERY = LIONS_QUERY or ctx.query{
    { "count", PREY, "up" },
    { "pairs", PREY, "elephant", "orthogonal", "any", "up" },
    { "pairs", PREY, "hyena", "distance2", "any", "up" },
    { "pairs", PREY, "vulture", "above", "any", "up" },
    { "pairs", "elephant", OTHER_ANIMALS, "orthogonal", "up" },
  }
  local q = carcass_queries[floor]
  if not q then
    local carcass = {
      { op = "each", cards = "elephant", near = OTHER_ANIMALS, adj = "orthogonal", face = "up",
        base = 6, per = -2, floor = floor },
      { "pairs", "hyena", ALL, "distance2", "down" },
      { "pairs", "vulture", ALL, "below", "down" },
    }
    q = ctx.query(carcass)
    local full = {}
    for t = 1, #SCORING do full[t] = SCORING[t] end
    for t = 1, #carcass do full[#SCORING + t] = carcass[t] end
    full[#full + 1] = { "count", "elephant" }
    full[#full + 1] = { "count", "hyena" }
    full[#full + 1] = { "count", "vulture" }
    carcass_queries[floor], full_queries[floor] = q, ctx.query(full)
  end
  return q, full_queries[floor]
end

-- Elephants, hyenas and vultures: the only scores that depend on what is face down.
local current_carcass  -- the carcass query for the floor of the game being scored
local current_full     -- the whole grid's query for that floor
local function carcass_scores(v)
  local elephant, hyenas, vultures = v:run(current_carcass)
  return elephant, 3 * hyenas, 4 * vultures
end

local function carcass_total(v)
  local e, h, u = carcass_scores(v)
  return e + h + u
end

-- What eating prey `i` adds: 2 per elephant beside it (one animal fewer around it), 3 per
-- hyena two cells away, 4 per vulture above it. The grid's kinds that are absent add nothing,
-- and are not looked for (has_elephant, has_hyena, has_vulture: set by best_prey).
local has_elephant, has_hyena, has_vulture
local function prey_gain(v, i)
  local gain = 0
  if has_elephant then gain = 2 * v:around(i, "elephant") end
  if has_hyena then gain = gain + 3 * v:around(i, "hyena", "distance2") end
  if has_vulture then gain = gain + 4 * v:around(i, "vulture", "above") end
  return gain
end

-- Chooses which `k` of `prey` (dense indices) the lions eat to maximise elephants + hyenas +
-- vultures; `elephants`, `hyenas`, `vultures` are how many the grid holds. While no elephant
-- is held up by its floor each prey's gain is independent of the others and the k best gains
-- are exact; otherwise combinations are searched. With none of the three every gain is 0:
-- the first k prey, as best_additive takes the earliest among equals.
local function best_prey(v, prey, k, floor, elephants, hyenas, vultures)
  if k >= #prey then return prey end
  if elephants > 0 then
    local cells = v:cells(ELEPHANT)
    for t = 1, #cells do
      if 6 - 2 * v:around(cells[t], OTHER_ANIMALS, "orthogonal", "up") < floor then
        return facedown.best_set(v, prey, k, carcass_total)
      end
    end
  elseif hyenas == 0 and vultures == 0 then
    local first = {}
    for t = 1, k do first[t] = prey[t] end
    return first
  end
  has_elephant, has_hyena, has_vulture = elephants > 0, hyenas > 0, vultures > 0
  return facedown.best_additive(prey, k, prey_gain, v)
end

-- The lions' meal for a total alone, no card turned: how many prey the hungry `lions` eat and
-- what that adds to the elephants, hyenas and vultures (`elephant` is the elephants' points
-- before). While no elephant is held up by its floor each prey's gain is its own (prey_gain),
-- so eating every face-up prey adds all the gains (one query), and eating k of them the k
-- best; nil when an elephant is held up (then score_grid turns the cards and searches).
local gains = {}   -- scratch
local function lions_meal(v, lions, elephant, n_elephants, n_hyenas, n_vultures)
  local n_prey, beside_elephants, near_hyenas, below_vultures, crowd = v:run(LIONS_QUERY)
  if n_prey == 0 then return 0, 0 end
  if elephant ~= 6 * n_elephants - 2 * crowd then return nil end
  if lions >= n_prey then return n_prey, 2 * beside_elephants + 3 * near_hyenas + 4 * below_vultures end
  if n_elephants + n_hyenas + n_vultures == 0 then return lions, 0 end
  local prey = v:cells(PREY, "up")
  has_elephant, has_hyena, has_vulture = n_elephants > 0, n_hyenas > 0, n_vultures > 0
  for t = 1, #prey do gains[t] = prey_gain(v, prey[t]) end
  local sum = 0
  for _ = 1, lions do   -- the k best, one at a time (k is the hungry lions: a handful)
    local bt = 1
    for t = 2, #prey do
      if gains[t] > gains[bt] then bt = t end
    end
    sum = sum + gains[bt]
    gains[bt] = -1
  end
  return lions, sum
end

local function is_face_up_prey(v, i)
  local card, down = v:get(i)
  return not down and (card == "gazelle" or card == "zebra")
end

-- Scores one grid in the rulebook's order. Returns the breakdown (the gazelle majority is
-- added by the score table, which compares seats) and the number of gazelles. (One query and
-- one table constructor: the greedy bots score every candidate move, so this stays tight.)
local function score_grid(v, chosen, floor, total_only)
  local waterhole, prairie, lines, gazelles, zebra, giraffe, cheetah, _, lions, elephant, hyenas, vultures,
        n_elephants, n_hyenas, n_vultures = v:run(current_full)
  -- Lions next to a prairie each eat one face-up gazelle or zebra and score 4: first the
  -- prey the players chose, then the best of what is left.
  -- A total alone takes the lions' meal from lions_meal when it can (no card turned); gain is
  -- what that meal adds to the elephants, hyenas and vultures.
  local eaten, gain = 0, 0
  local meal
  if lions > 0 and total_only and not chosen then
    meal, gain = lions_meal(v, lions, elephant, n_elephants, n_hyenas, n_vultures)
  end
  if meal then
    eaten = meal
  elseif lions > 0 then
    gain = 0
    if chosen then
      for t = 1, #chosen do
        local i = chosen[t]
        if eaten < lions and is_face_up_prey(v, i) then
          v:set_down(i, true)
          eaten = eaten + 1
        end
      end
    end
    if eaten < lions then
      local prey = v:cells(PREY, "up")
      if #prey > 0 then
        local picked = best_prey(v, prey, math.min(lions - eaten, #prey), floor, n_elephants, n_hyenas, n_vultures)
        for t = 1, #picked do v:set_down(picked[t], true) end
        eaten = eaten + #picked
      end
    end
    if eaten > 0 then elephant, hyenas, vultures = v:run(current_carcass) end
  end
  if total_only then
    return 2 * waterhole + prairie + 2 * lines + 2 * gazelles + 3 * zebra + 5 * giraffe + 3 * cheetah + 4 * eaten
      + elephant + 3 * hyenas + 4 * vultures + gain, gazelles
  end
  return { waterhole = 2 * waterhole, prairie = prairie, tree = 2 * lines, gazelle = 2 * gazelles,
           zebra = 3 * zebra, giraffe = 5 * giraffe, cheetah = 3 * cheetah, lion = 4 * eaten,
           elephant = elephant, hyena = 3 * hyenas, vulture = 4 * vultures }, gazelles
end

-- The score table (ecosysteme/score.lua): one line per grid, Jhay's included, and the
-- gazelle majority over every seat. Built once: it holds no game state.
local current_eaten  -- the lions' prey chosen by moves so far, read once per score call
local current_floor  -- the elephant_floor parameter, read once per call
local TABLE = {
  categories = game.categories,
  grid = function(seat, v, state, ctx)
    return score_grid(v, facedown.chosen(current_eaten, seat, v), ctx.params.elephant_floor)
  end,
  -- The same grid's total alone, for the bots' value of each pick (no breakdown table).
  grid_total = function(seat, v)
    return score_grid(v, current_eaten and facedown.chosen(current_eaten, seat, v), current_floor, true)
  end,
  majorities = MAJORITIES,
  -- Every row is computed by score_grid's own Lua (one compiled query, then arithmetic).
  scored_in_lua = game.categories,
  -- Open point (README, house rule 6): "battre Jhay de 55 points" is read as margin >= target.
  solo = true,
  -- A grid's score depends on that grid, the lions' prey chosen (state.data) and the
  -- elephant_floor parameter only, so the bots' totals keep the grids a move did not change.
  memo = true,
}

-- Run once when the rules load: a card without a rule, a rule on no card, is refused there
-- (exit 2, naming the card's entry in the data file) rather than scoring 0 without a word.
function game.check(ctx)
  load(ctx)
  table_score.check(ctx, TABLE)
end

-- What score_grid reads besides the view, set before each hook that scores: the queries for
-- this game's elephant floor and the lions' prey chosen so far.
local function prepare(ctx, state)
  load(ctx)
  current_carcass, current_full = carcass_query(ctx, ctx.params.elephant_floor)
  current_eaten = state:read("eaten")
  current_floor = ctx.params.elephant_floor
end

function game.score(ctx, state)
  prepare(ctx, state)
  -- Not a tail call: an error the base raises about TABLE then names this line.
  local lines, extra = table_score.assemble(ctx, state, TABLE)
  return lines, extra
end

-- The same totals for the bots' measure, rescoring only the grids that changed.
function game.totals(ctx, state)
  prepare(ctx, state)
  local totals = table_score.totals(ctx, state, TABLE)
  return totals
end

-- The bots' value of every pick of a draft decision at once: each pick scores the picker's
-- grid alone, on a view with the card placed, instead of the host trying it.
function game.evaluate_moves(ctx, state, seat, moves)
  prepare(ctx, state)
  local values = table_score.evaluate_moves(ctx, state, seat, moves, TABLE)
  return values
end

-- The lions' prey is the one choice the rulebook leaves to the player at scoring time.
-- A question is put to the player only when it is a real choice (more face-up gazelles and
-- zebras than hungry lions); otherwise scoring eats what there is.
-- Open point (README, house rule 5): Jhay's lions' prey is chosen by the solo player, after her
-- own (draft.ask_next).

-- The eat moves still open for one grid, or nil when nothing is left to choose.
local hunger_query
local function prey_question(state, seat, eaten)
  local v = state:grid(seat):view()
  local lions = v:run(hunger_query)
  if lions == 0 then return nil end
  local chosen = facedown.chosen(eaten, seat, v)
  if chosen then
    for t = 1, #chosen do
      local i = chosen[t]
      if is_face_up_prey(v, i) then v:set_down(i, true); lions = lions - 1 end
    end
  end
  local prey = v:cells(PREY, "up")
  if lions <= 0 or #prey <= lions then return nil end
  return facedown.cell_moves(v, prey, "eat", seat)
end

local function ask_next(state, mover, eaten)
  draft.ask_next(state, mover, function(seat) return prey_question(state, seat, eaten) end)
end

local function load_hunger(ctx)
  -- hungry lions, after the cheetahs' prey is face down
  hunger_query = hunger_query or ctx.query{
    { "touching", "lion", "prairie" },
    { "flip_touching", "gazelle", "cheetah", "diagonal" },
  }
end

function game.after_draft(ctx, state)
  load(ctx)
  load_hunger(ctx)
  local eaten = state:read("eaten")
  for seat = 1, state.player_count do ask_next(state, seat, eaten) end
end

game.moves = {}

-- A lion eats the chosen gazelle or zebra; scoring turns it face down.
function game.moves.eat(ctx, state, seat, move)
  load(ctx)
  load_hunger(ctx)
  local eaten = facedown.record(state, "eaten", { grid = move.grid, cell = { move.cell[1], move.cell[2] } })
  ask_next(state, seat, eaten)
end

-- Moves in the players' words (where a card lands in the grid, not the host's coordinates).
game.describe = require("ecosysteme.describe").describe

return game
