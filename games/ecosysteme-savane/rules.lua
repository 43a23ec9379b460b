-- Écosystème – Savane: the rules that are not drafting. The host deals, runs the secret
-- simultaneous picks, passes hands, keeps the floating 4x5 frame, the neutral hand (2
-- players) and Jhay's grid (solo); this file declares that draft, the lions' prey choice
-- at the end, and scores the grids in the rulebook's order.

local game = { api_version = 1, version = 1 }

game.categories = { "waterhole", "prairie", "tree", "gazelle", "zebra", "giraffe",
                    "cheetah", "lion", "elephant", "hyena", "vulture" }

function game.draft(ctx)
  local deck = {}
  for _, card in ipairs(ctx.data.cards.cards) do deck[card.id] = card.count end
  local n = ctx.params.hand_size
  return {
    rounds = { { deal = n, keep = 10, pass = "left" }, { deal = n, keep = 10, pass = "right" } },
    grid = { rows = 4, cols = 5 },
    deck = deck,
    neutral = true,
    neutral_name = "neutral",
    solo = { hand = 10, draw = 1, draw_on_row = 5, opponent = "Jhay" },
  }
end

-- Card sets from the data: what counts as an animal (waterholes, elephants), and every card
-- (hyenas and vultures count any face-down card). Built once per VM: they are pure data.
local ANIMALS, OTHER_ANIMALS, ALL, PREY
local function load_sets(ctx)
  if ALL then return end
  local animals, others, all = {}, {}, {}
  for _, card in ipairs(ctx.data.cards.cards) do
    all[#all + 1] = card.id
    if card.kind == "animal" then
      animals[#animals + 1] = card.id
      if card.id ~= "elephant" then others[#others + 1] = card.id end
    end
  end
  ANIMALS, OTHER_ANIMALS, ALL = ctx.card_set(animals), ctx.card_set(others), ctx.card_set(all)
  PREY = ctx.card_set({ "gazelle", "zebra" })
end

local PRAIRIE_POINTS = { 1, 4, 9, 16 }   -- 1/4/9/16 for 1/2/3/4+ connected prairies

-- The scoring rules that need no choice, as one compiled query per grid (in the rulebook's
-- order; entry 8 turns the cheetahs' prey face down before the lions look for theirs).
local scoring_query
local function scoring(ctx)
  if not scoring_query then
    scoring_query = ctx.query{
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
  return scoring_query
end

-- Elephants (6 minus 2 per face-up animal other than elephants, not below the floor), hyenas
-- and vultures (face-down cards two cells away / below): one query per floor value.
local carcass_queries = {}
local function carcass_query(ctx, floor)
  local q = carcass_queries[floor]
  if not q then
    q = ctx.query{
      { "each", "elephant", OTHER_ANIMALS, "orthogonal", "up", 6, -2, floor },
      { "pairs", "hyena", ALL, "distance2", "down" },
      { "pairs", "vulture", ALL, "below", "down" },
    }
    carcass_queries[floor] = q
  end
  return q
end


-- Elephants, hyenas and vultures: the only scores that depend on what is face down.
local current_carcass  -- the carcass query for the floor of the game being scored
local function carcass_scores(v)
  local elephant, hyenas, vultures = v:run(current_carcass)
  return elephant, 3 * hyenas, 4 * vultures
end

-- Chooses which `k` of `prey` (dense indices) the lions eat to maximise elephants + hyenas +
-- vultures. While no elephant is held up by its floor each prey's gain is independent of the
-- others and the k best gains are exact; otherwise combinations are searched.
local function best_prey(v, prey, k, floor)
  local m = #prey
  if k >= m then return prey end
  local additive = true
  local elephants = v:cells("elephant")
  for t = 1, #elephants do
    if 6 - 2 * v:around(elephants[t], OTHER_ANIMALS, "orthogonal", "up") < floor then additive = false; break end
  end
  if additive then
    local gains = {}
    for t = 1, m do
      local i = prey[t]
      gains[t] = 2 * v:around(i, "elephant") + 3 * v:around(i, "hyena", "distance2") + 4 * v:around(i, "vulture", "above")
    end
    local chosen, taken = {}, {}
    for c = 1, k do
      local bt
      for t = 1, m do
        if not taken[t] and (not bt or gains[t] > gains[bt]) then bt = t end
      end
      taken[bt] = true
      chosen[c] = prey[bt]
    end
    return chosen
  end
  local best, best_set = -math.huge, nil
  local pick = {}
  local function rec(start, depth)
    if depth > k then
      for t = 1, k do v:set_down(prey[pick[t]], true) end
      local e, h, u = carcass_scores(v)
      for t = 1, k do v:set_down(prey[pick[t]], false) end
      if e + h + u > best then
        best = e + h + u
        best_set = {}
        for t = 1, k do best_set[t] = prey[pick[t]] end
      end
      return
    end
    for t = start, m - (k - depth) do
      pick[depth] = t
      rec(t + 1, depth + 1)
    end
  end
  rec(1, 1)
  return best_set
end

-- Lion prey already chosen by moves for one grid, as dense indices of the view (nil when
-- none). `eaten` is a plain copy of state.data.eaten (state:read), read once per hook.
local function chosen_prey(eaten, seat, v)
  if not eaten then return nil end
  local out
  for t = 1, #eaten do
    local e = eaten[t]
    if e.grid == seat then
      local i = v:index(e.cell[1], e.cell[2])
      if i then
        out = out or {}
        out[#out + 1] = i
      end
    end
  end
  return out
end

local function is_face_up_prey(v, i)
  local card, down = v:get(i)
  return not down and (card == "gazelle" or card == "zebra")
end

-- Scores one grid in the rulebook's order. Returns the breakdown (the gazelle majority is
-- added by the caller, which compares seats) and the number of gazelles.
local function score_grid(v, chosen, floor)
  local waterhole, prairie, lines, gazelles, zebra, giraffe, cheetah, _, lions = v:run(scoring_query)
  -- Lions next to a prairie each eat one face-up gazelle or zebra and score 4.
  local eaten = 0
  if lions > 0 then
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
        local picked = best_prey(v, prey, math.min(lions - eaten, #prey), floor)
        for t = 1, #picked do v:set_down(picked[t], true) end
        eaten = eaten + #picked
      end
    end
  end
  local elephant, hyena, vulture = carcass_scores(v)
  -- One constructor: the table is built at its final size.
  return { waterhole = 2 * waterhole, prairie = prairie, tree = 2 * lines, gazelle = 2 * gazelles,
           zebra = 3 * zebra, giraffe = 5 * giraffe, cheetah = 3 * cheetah, lion = 4 * eaten,
           elephant = elephant, hyena = hyena, vulture = vulture }, gazelles
end

-- Ranked majority with the rulebook's tie rule: tied seats all take their rank's points and
-- the next rank's points are not awarded. Seats need at least one card to rank.
-- Open points (README, house rules): the tie rule is read as competition ranking (1, 1, 3);
-- the neutral pile (2 players) and Jhay (solo) take ranks like players.
local function majority(counts, nseats, points)
  local out = {}
  for a = 1, nseats do
    local v = counts[a]
    if v and v > 0 then
      local rank = 1
      for b = 1, nseats do
        local w = counts[b]
        if w and w > v then rank = rank + 1 end
      end
      out[a] = points[rank] or 0
    end
  end
  return out
end

local CATEGORIES = game.categories

function game.score(ctx, state)
  load_sets(ctx)
  local floor = ctx.params.elephant_floor
  scoring(ctx)
  current_carcass = carcass_query(ctx, floor)
  local nseats = state.seat_count
  local lines, gazelles = {}, {}
  local eaten = state:read("eaten")
  for k = 1, nseats do
    if state:kind(k) == "neutral" then
      gazelles[k] = state:zone("pile", k):count("gazelle")
    else
      local v = state:grid(k):view()
      local b, g = score_grid(v, chosen_prey(eaten, k, v), floor)
      gazelles[k] = g
      lines[k] = { breakdown = b }
    end
  end
  local bonus = majority(gazelles, nseats, { 5, 2 })
  for k = 1, nseats do
    local line = lines[k]
    if line then
      local b = line.breakdown
      b.gazelle = b.gazelle + (bonus[k] or 0)
      local t = 0
      for c = 1, #CATEGORIES do t = t + b[CATEGORIES[c]] end
      line.total = t
    end
  end
  local extra = nil
  -- Solo only: a one-player board given to `plateau score` has no Jhay seat to compare with.
  if state.player_count == 1 and nseats >= 2 and state:kind(2) == "opponent" and lines[2] then
    local margin = lines[1].total - lines[2].total
    local p = ctx.params
    -- Open point (README, house rules): "battre Jhay de 55 points" is read as margin >= target.
    local result = margin >= p.solo_target_hard and "hard win" or margin >= p.solo_target_normal and "normal win"
      or margin >= p.solo_target_easy and "easy win" or "loss"
    extra = { solo = result, margin = margin }
  end
  return lines, extra
end

-- The lions' prey is the one choice the rulebook leaves to the player at scoring time.
-- A question is put to the player only when it is a real choice (more face-up gazelles and
-- zebras than hungry lions); otherwise scoring eats what there is. Jhay's choices belong to
-- the solo player.

-- The eat moves still open for one grid, or nil when nothing is left to choose.
local hunger_query
local function prey_question(state, seat, eaten)
  local v = state:grid(seat):view()
  local lions = v:run(hunger_query)
  if lions == 0 then return nil end
  local chosen = chosen_prey(eaten, seat, v)
  if chosen then
    for t = 1, #chosen do
      local i = chosen[t]
      if is_face_up_prey(v, i) then v:set_down(i, true); lions = lions - 1 end
    end
  end
  local prey = v:cells(PREY, "up")
  if lions <= 0 or #prey <= lions then return nil end
  local moves = {}
  for t = 1, #prey do
    local r, c = v:cell(prey[t])
    moves[t] = { type = "eat", grid = seat, cell = { r, c } }
  end
  return moves
end

-- Asks `mover` about the next grid it decides for: its own, then (solo) Jhay's.
local function ask_next(state, mover, eaten)
  local q = prey_question(state, mover, eaten)
  if not q and state.player_count == 1 and state:kind(2) == "opponent" then q = prey_question(state, 2, eaten) end
  if q then state:ask(mover, q) end
end

local function load_hunger(ctx)
  -- hungry lions, after the cheetahs' prey is face down
  hunger_query = hunger_query or ctx.query{
    { "touching", "lion", "prairie" },
    { "flip_touching", "gazelle", "cheetah", "diagonal" },
  }
end

function game.after_draft(ctx, state)
  load_sets(ctx)
  load_hunger(ctx)
  local eaten = state:read("eaten")
  for seat = 1, state.player_count do ask_next(state, seat, eaten) end
end

game.moves = {}

-- A lion eats the chosen gazelle or zebra; scoring flips it face down.
function game.moves.eat(ctx, state, seat, move)
  load_sets(ctx)
  load_hunger(ctx)
  local eaten = state:read("eaten") or {}
  eaten[#eaten + 1] = { grid = move.grid, cell = { move.cell[1], move.cell[2] } }
  state.data.eaten = eaten
  ask_next(state, seat, eaten)
end

return game
