-- Écosystème – Océan: the rules that are not drafting. The shared Écosystème base (games/
-- ecosysteme) declares the draft (2 x 10 cards into a floating 4x5 grid, a neutral hand with 2
-- players, Tim's grid in solo), ranks the plankton majority and reports the solo result; this
-- file asks the octopus's move-or-swap question when one is played and the whales' flip
-- questions after the draft, and scores the grids in the order of the rulebook's score sheet
-- (README.md: "Scoring").
--
-- Océan scores its grids with its own function rather than the base's score table: the
-- whales' flips nobody has chosen yet are searched exactly, which scores a grid up to 4^6
-- times, so a grid's card points are one compiled query on a view (the host's loops) and the
-- search turns cards in that view.
--
-- Layout: 1. card data, 2. the draft, 3. the plankton majority, 4. scoring of one grid, the
-- whale search, score, the bots' totals and evaluate_moves, 5. the octopus question, 6. the
-- whale questions.

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

local draft = require("ecosysteme.draft")
local cards = require("ecosysteme.cards")
local dense = require("ecosysteme.grid")   -- dense-grid loops ("grid" names grid handles below)
local majority = require("ecosysteme.majority")
local table_score = require("ecosysteme.score")

-- The score sheet's rows: producers, prey, predators, the food-chain bonus ("le plus petit
-- total parmi" the three group totals), then the two cards that belong to no group.
game.categories = { "coral", "krill", "plankton", "grouper", "clownfish", "crab",
                    "moray_eel", "shark", "whale", "food_chain_bonus", "sea_turtle", "octopus" }

---------------------------------------------------------------------------------------------
-- 1. Card data, derived from ctx.data once (ecosysteme/cards.lua caches it per VM).

local KRILL_POINTS = { 1, 4, 9 }   -- a krill group of 1 / 2 / 3+ cards, at most 9
local GROUP_CARDS         -- food-chain group ("producer", "prey", "predator") -> card ids
local OTHER_CARDS         -- cards in no food-chain group
local IS_PREY             -- card id -> true for the prey group

local POINTS_QUERY        -- one grid's card points, but the coral's and the moray eel's
local ctx_view            -- ctx.view: a grid laid out in Lua, as the host's queries read it

local function load_cards(ctx)
  if GROUP_CARDS then return end
  GROUP_CARDS, OTHER_CARDS = cards.by_field(ctx, "group")
  IS_PREY = cards.set(GROUP_CARDS.prey)
  ctx_view = ctx.view
  -- The prey a shark counts in its row and column: plankton, krill and turtles score by their
  -- own rules even if the data puts them in the prey group.
  local line_prey = {}
  for _, id in ipairs(GROUP_CARDS.prey) do
    if id ~= "plankton" and id ~= "krill" and id ~= "sea_turtle" then line_prey[#line_prey + 1] = id end
  end
  local PREY = #line_prey > 0 and ctx.card_set(line_prey) or {}
  local UP = "up"
  -- Face-up cards only, on both sides of every rule: a card a whale turned scores nothing and
  -- is counted by nothing.
  POINTS_QUERY = ctx.query{
    { "count", "plankton", UP },                                                          -- face-up plankton
    { "groups", "krill", KRILL_POINTS, UP },                                              -- krill groups
    { op = "pairs", cards = "grouper", near = "krill", face = UP, cards_face = UP },      -- 3 per adjacent krill
    { op = "pairs", cards = "clownfish", near = { "plankton", "coral" }, face = UP, cards_face = UP },  -- 2 per adjacent plankton or coral
    { op = "pairs", cards = "crab", near = "plankton", adj = "row", face = UP, cards_face = UP },       -- 2 per plankton in its row
    { op = "pairs", cards = "shark", near = PREY, adj = "row", face = UP, cards_face = UP },           -- 2 per prey in its row
    { op = "pairs", cards = "shark", near = PREY, adj = "col", face = UP, cards_face = UP },           -- and in its column
    { "count", "whale", UP }, { "count", "krill", UP },                                   -- 2 per krill, per whale
    { "lines", "sea_turtle", UP },                                                        -- 2 per row and per column
    { "count", "octopus", UP },                                                           -- 3 each
    { "count", "coral", UP }, { "count", "moray_eel", UP },                               -- scored in Lua
  }
end

---------------------------------------------------------------------------------------------
-- 2. The draft: 2 rounds of `hand_size` cards (10 by the rulebook), 10 placed per round,
--    left then right, a 4x5 frame, a neutral third hand with 2 players, Tim in solo.

function game.draft(ctx)
  return draft.config(ctx, { neutral = true, solo = "Tim" })
end

-- Questions in flight: a seat asked about its octopus is not asked about its whales until it
-- has answered (state:ask replaces a seat's question).
function game.setup(ctx, state)
  local pending = {}
  for k = 1, state.seat_count do pending[k] = false end
  state.data.octopus_pending = pending
end

---------------------------------------------------------------------------------------------
-- 3. The plankton majority: 12 / 8 / 4 for the most, second and third most face-up plankton.
-- Open point (README, house rule 3): "marquez les points indiqués selon votre place et les
-- points du rang suivant ne seront pas attribués": the plankton_ties parameter picks the
-- reading, "competition" (5,5,3 -> places 1,1,3; 5,5,5,3 -> 1,1,1,4) or "skip_one" (only the
-- one next place is skipped: 5,5,5,3 -> 1,1,1,3); ecosysteme/majority.lua.

local PLANKTON_POINTS = { 12, 8, 4 }

local function plankton_points(counts, nseats, a, ties)
  local rank = majority.rank(counts, nseats, a, ties)
  return rank and PLANKTON_POINTS[rank] or 0
end

---------------------------------------------------------------------------------------------
-- 4. Océan scoring.

-- The cards view_points knows, and the food-chain groups group_totals adds up. A card of the
-- data outside this list would be dealt and score nothing without a word: game.check refuses it.
local SCORED_HERE = { coral = true, krill = true, plankton = true, grouper = true, clownfish = true, crab = true,
                      moray_eel = true, shark = true, whale = true, sea_turtle = true, octopus = true }
local GROUPS = { producer = true, prey = true, predator = true }

-- Run once when the rules load (a refusal is bad input: exit 2, nothing loads): each card that
-- can be dealt has a count, a rule in view_points and a row of the score sheet, and a `group`
-- that is one of the three food-chain groups; each row of game.categories is a card of the
-- data or the food-chain bonus. Named by the data file's JSON path.
function game.check(ctx)
  local data = ctx.data.cards
  local file = data["$file"] or "data/cards.json"
  local rows, ids = {}, {}
  for _, name in ipairs(game.categories) do rows[name] = true end
  for i, card in ipairs(data.cards) do
    local at = file .. ": at /cards/" .. (i - 1)
    ids[card.id] = true
    if card.count == nil then error(at .. ": card '" .. card.id .. "' has no count (the copies of it in the deck)", 0) end
    if card.count > 0 then
      if not SCORED_HERE[card.id] then
        local known = {}
        for name in pairs(SCORED_HERE) do known[#known + 1] = name end
        table.sort(known)
        error(at .. "/id: card '" .. card.id .. "' has no scoring rule in Océan's rules.lua (view_points scores " ..
              table.concat(known, ", ") .. "): write its rule there and add it to game.categories", 0)
      end
      if not rows[card.id] then
        error(at .. "/id: card '" .. card.id .. "' is scored but is not a row of game.categories (the score sheet)", 0)
      end
    end
    if card.group ~= nil and not GROUPS[card.group] then
      error(at .. "/group: '" .. tostring(card.group) .. "' is not a food-chain group (producer, prey or predator)", 0)
    end
  end
  for _, name in ipairs(game.categories) do
    if name ~= "food_chain_bonus" and not ids[name] then
      error("game.categories names '" .. name .. "', which is not a card of " .. file)
    end
  end
end

-- Scores one grid's cards into `b`: `v` is its view, `cells` and `down` the same grid laid out
-- densely (`down[i]` true for a face-down card, which every rule ignores, on both sides). The
-- plankton category is left at 0: the majority needs every seat. Returns the number of
-- face-up plankton.
local function view_points(v, cells, down, rows, cols, b)
  local planktons, krill, grouper, clownfish, crab, shark_row, shark_col, whales, krills, turtle_lines,
        octopuses, corals, morays = v:run(POINTS_QUERY)
  -- Coral: 3 on the bottom row of the ecosystem, else nothing.
  local coral = 0
  if corals > 0 then
    local first = (rows - 1) * cols
    for i = first + 1, first + cols do
      if cells[i] == "coral" and not down[i] then coral = coral + 3 end
    end
  end
  -- Moray eel: 4 per adjacent prey, only while adjacent to a coral.
  local moray = 0
  if morays > 0 then
    local orth = dense.shape(rows, cols).orth
    local list = v:cells("moray_eel", "up")
    for t = 1, #list do
      local o = orth[list[t]]
      local prey, fed = 0, false
      for k = 1, #o do
        local j = o[k]
        if not down[j] then
          local x = cells[j]
          if x == "coral" then fed = true elseif IS_PREY[x] then prey = prey + 1 end
        end
      end
      if fed then moray = moray + 4 * prey end
    end
  end
  b.coral, b.krill, b.plankton, b.grouper, b.clownfish, b.crab = coral, krill, 0, 3 * grouper, 2 * clownfish, 2 * crab
  b.moray_eel, b.shark, b.whale = moray, 2 * (shark_row + shark_col), 2 * krills * whales
  b.sea_turtle, b.octopus = 2 * turtle_lines, 3 * octopuses
  return planktons
end

-- The same for a grid laid out densely only.
local function grid_points(cells, down, rows, cols, b)
  return view_points(ctx_view(rows, cols, cells, down), cells, down, rows, cols, b)
end

-- Group totals of a breakdown (card ids grouped by their data "group"), the food-chain bonus
-- (the lowest group total) and the total: groups + bonus + the cards of no group.
local function group_totals(b)
  local g = GROUP_CARDS
  local producer, prey, predator = 0, 0, 0
  local list = g.producer
  for k = 1, #list do producer = producer + b[list[k]] end
  list = g.prey
  for k = 1, #list do prey = prey + b[list[k]] end
  list = g.predator
  for k = 1, #list do predator = predator + b[list[k]] end
  local bonus = producer
  if prey < bonus then bonus = prey end
  if predator < bonus then bonus = predator end
  local total = producer + prey + predator + bonus
  for k = 1, #OTHER_CARDS do total = total + b[OTHER_CARDS[k]] end
  return total, bonus, producer, prey, predator
end

-- The whales still to act on one grid, searched exactly: every sequence of flips (whales in
-- reading order, each flipping one face-up orthogonal neighbour, or nothing when none is
-- left) is scored and the best total for the grid's owner is kept; among equal totals, the
-- first found: earlier whales' targets first, each whale's targets in reading order.
-- At most 6 whales with 4 neighbours each: 4^6 = 4096 leaves.
-- Open point (README, house rule 6): the plankton comparison in this search uses the other
-- seats' face-up plankton as they are before their own unresolved whales flip.
local S = { flips = {}, best_flips = {}, b = {}, best_b = {} }   -- search scratch (no game state)
local B_KEYS = {}   -- the rows grid_points fills: every category but the food-chain bonus
for _, name in ipairs(game.categories) do
  if name ~= "food_chain_bonus" then B_KEYS[#B_KEYS + 1] = name end
end

local function search(w)
  if w > S.nw then
    local b = S.b
    local counts = S.counts
    local own = view_points(S.view, S.cells, S.down, S.rows, S.cols, b)
    counts[S.seat] = own
    -- The other seats' counts are the same at every leaf: the plankton points change only
    -- with this grid's own face-up plankton.
    if own ~= S.plankton_count then
      S.plankton_count, S.plankton_points = own, plankton_points(counts, S.nseats, S.seat, S.ties)
    end
    b.plankton = S.plankton_points
    local v = group_totals(b)
    if not S.best or v > S.best then
      S.best = v
      for k = 1, S.nw do S.best_flips[k] = S.flips[k] end
      -- The best leaf's card points and face-up plankton, so totals need not score it again.
      local bb = S.best_b
      for k = 1, #B_KEYS do local key = B_KEYS[k]; bb[key] = b[key] end
      S.best_count = counts[S.seat]
    end
    return
  end
  local i = S.whales[w]
  local down, cells = S.down, S.cells
  if down[i] and not S.acts then
    S.flips[w] = 0
    return search(w + 1)
  end
  local o = S.orth[i]
  local any = false
  local v = S.view
  for k = 1, #o do
    local j = o[k]
    if cells[j] and not down[j] then
      any = true
      down[j] = true
      v:set_down(j, true)
      S.flips[w] = j
      search(w + 1)
      down[j] = false
      v:set_down(j, false)
    end
  end
  if not any then
    S.flips[w] = 0
    search(w + 1)
  end
end

-- Runs the search for one grid (dense `cells`, `down` left as it was found): the best total's
-- flips in S.best_flips, its card points in S.best_b and its face-up plankton in S.best_count.
-- `counts` is every seat's face-up plankton, and the search writes this seat's own into it.
-- `v`, when given, is the grid's view (its overlay as `down`); the search turns cards in it
-- and back.
local function search_whales(cells, down, rows, cols, whales, counts, nseats, seat, ties, acts, v)
  S.cells, S.down, S.rows, S.cols = cells, down, rows, cols
  S.orth = dense.shape(rows, cols).orth
  S.whales, S.nw = whales, #whales
  S.counts, S.nseats, S.seat, S.ties, S.acts = counts, nseats, seat, ties, acts
  S.view = v or ctx_view(rows, cols, cells, down)
  S.best, S.plankton_count = nil, nil
  search(1)
  S.cells, S.down, S.whales, S.counts, S.view = nil, nil, nil, nil, nil
end

-- Runs the search for one grid and turns the best flips face down in `down`. Returns the
-- list of {whale = index, cell = index} flips applied.
local function resolve_whales(snap, down, whales, counts, nseats, seat, ties, acts)
  search_whales(snap.cells, down, snap.rows, snap.cols, whales, counts, nseats, seat, ties, acts)
  local applied = {}
  for k = 1, #whales do
    local j = S.best_flips[k]
    if j and j > 0 then
      down[j] = true
      applied[#applied + 1] = { whale = whales[k], cell = j }
    end
  end
  return applied
end

local scratch_downs = {}   -- one face-down array per seat, reused

-- The whales of a grid laid out densely that have not acted yet, all but the first `done` in
-- reading order, into `out` (cleared first); returns `out`.
local function whales_into(out, cells, n, done)
  local nw, seen = 0, 0
  for j = 1, n do
    if cells[j] == "whale" then
      seen = seen + 1
      if seen > done then nw = nw + 1; out[nw] = j end
    end
  end
  for j = nw + 1, #out do out[j] = nil end
  return out
end

-- The same in a new list, or nil when none is left (whale_acted counts a grid's whales as
-- they flip).
local function unacted_whales(cells, n, done)
  local whales = whales_into({}, cells, n, done)
  return #whales > 0 and whales or nil
end

-- From whale `k` of `whales` (dense indices, reading order) on, each whale left a single
-- face-up neighbour turns it in `down` (a face-down whale acts only when `acts`), as the rules
-- make a choice nobody has: `forced` lists them as whale, cell pairs. Stops at the first whale
-- with a choice. Returns its position (#whales + 1 when none has one) and how many turned.
local function forced_flips(cells, down, orth, whales, k, acts, forced)
  local nf = 0
  while k <= #whales do
    local w = whales[k]
    if not down[w] or acts then
      local o = orth[w]
      local count, only = 0, nil
      for q = 1, #o do
        local j = o[q]
        if cells[j] and not down[j] then count, only = count + 1, j end
      end
      if count >= 2 then break end
      if count == 1 then
        down[only] = true
        nf = nf + 1
        forced[2 * nf - 1], forced[2 * nf] = w, only
      end
    end
    k = k + 1
  end
  for q = 2 * nf + 1, #forced do forced[q] = nil end
  return k, nf
end

-- Scores every seat. Returns the score lines and, when `with_extra`, the score's extra
-- (group totals, whale flips, solo result).
local function score_all(ctx, state, with_extra)
  load_cards(ctx)
  local p = ctx.params
  local ties, acts = p.plankton_ties, p.whale_flipped_acts
  local seats = state:seats()
  local nseats = #seats
  local acted = state:read("whale_acted")     -- whales that already flipped, per grid
  local snaps, downs, counts = {}, {}, {}
  -- Snapshots, face-down flags and face-up plankton as the state holds them.
  for k = 1, nseats do
    if seats[k].kind == "neutral" then
      counts[k] = state:zone("pile", k):count("plankton")
    else
      local snap = state:grid(k):snapshot()
      local n = snap.rows * snap.cols
      local d = scratch_downs[k]
      if not d then d = {}; scratch_downs[k] = d end
      dense.down_flags(snap, d)
      local cells = snap.cells
      local planktons = 0
      for i = 1, n do
        if not d[i] and cells[i] == "plankton" then planktons = planktons + 1 end
      end
      snaps[k], downs[k], counts[k] = snap, d, planktons
    end
  end
  -- The flips already made (answers and forced flips), for the extra.
  local extra_flips
  local chosen = with_extra and state:read("whale_flips")
  if chosen then
    for t = 1, #chosen do
      local f = chosen[t]
      local name = seats[f.grid].name
      extra_flips = extra_flips or {}
      extra_flips[name] = extra_flips[name] or {}
      local list = extra_flips[name]
      list[#list + 1] = { whale = f.whale, cell = f.cell, card = f.card, by = f.by }
    end
  end
  -- Whales that have not acted yet (boards given to `plateau score`, questions not answered
  -- yet, grids still being drafted): the flips that maximise that grid's own total.
  local search_counts = {}
  for k = 1, nseats do
    local snap = snaps[k]
    if snap then
      local cells = snap.cells
      local whales = unacted_whales(cells, snap.rows * snap.cols, acted and acted[k] or 0)
      if whales then
        for a = 1, nseats do search_counts[a] = counts[a] end
        local applied = resolve_whales(snap, downs[k], whales, search_counts, nseats, k, ties, acts)
        for t = 1, with_extra and #applied or 0 do
          local f = applied[t]
          extra_flips = extra_flips or {}
          local name = seats[k].name
          extra_flips[name] = extra_flips[name] or {}
          local list = extra_flips[name]
          list[#list + 1] = { whale = dense.cell_of(snap, f.whale), cell = dense.cell_of(snap, f.cell),
                              card = cells[f.cell], by = "search" }
        end
      end
    end
  end
  -- Every card, then the plankton majority over the final face-up plankton (the neutral
  -- pile's plankton rank like a seat's), then the food-chain groups.
  local lines = {}
  for k = 1, nseats do
    local snap = snaps[k]
    if snap then
      local b = {}
      counts[k] = grid_points(snap.cells, downs[k], snap.rows, snap.cols, b)
      lines[k] = { breakdown = b }
    end
  end
  local groups = {}
  for k = 1, nseats do
    local line = lines[k]
    if line then
      local b = line.breakdown
      b.plankton = plankton_points(counts, nseats, k, ties)
      local total, bonus, producer, prey, predator = group_totals(b)
      b.food_chain_bonus = bonus
      line.total = total
      if with_extra then groups[seats[k].name] = { producer = producer, prey = prey, predator = predator } end
    end
  end
  if not with_extra then return lines end
  -- Solo only: a one-player board given to `plateau score` has no Tim to compare with.
  -- Open point (README, house rule 9): "battre Tim de 55 points" is read as margin >= target.
  return lines, table_score.add_solo(state, lines, p, { groups = groups, whale_flips = extra_flips })
end

function game.score(ctx, state)
  return score_all(ctx, state, true)
end

-- For the greedy bots: each seat's total, as score_all gives it, for the host's default measure
-- (the seat's total minus half the best other total; Tim counts as an other seat). A greedy
-- bot's candidate pick changes one grid of four, so each grid's work is kept between calls:
-- its snapshot, face-down flags and face-up plankton while its version and its count of
-- acted whales stay the same (grid:version(); state:data_version() first, which saves reading
-- state.data when nothing in it changed), and the whale search's flips and the
-- grid's card points while, besides, every seat's face-up plankton (what the search compares)
-- stays the same. The plankton majority and the food-chain groups are worked out again for
-- every seat. `plateau test` holds these totals to score's at every state it reaches.
local memo = {}      -- [seat] = {grid =, data =, snap =, down0 =, planktons =, whales =, ...}
local memo_params    -- the ctx.params the memo was filled under
local final_counts = {}
local search_counts_scratch = {}

local function grid_entry(state, k, data, acted)
  local g = state:grid(k)
  local version = g:version()
  local e = memo[k]
  if e and e.grid == version then
    if e.data == data then return e, acted end
    -- state.data changed (a whale of another grid acted, an octopus question was answered):
    -- all this entry reads of it is how many of this grid's whales have acted.
    if acted == nil then acted = state:read("whale_acted") or false end
    if e.done == (acted and acted[k] or 0) then
      e.data = data
      return e, acted
    end
  end
  e = { grid = version, data = data, b = {}, down = {} }
  memo[k] = e
  local snap = g:snapshot()
  local n = snap.rows * snap.cols
  local d0 = dense.down_flags(snap, {})
  local cells = snap.cells
  local planktons = 0
  for i = 1, n do
    if not d0[i] and cells[i] == "plankton" then planktons = planktons + 1 end
  end
  if acted == nil then acted = state:read("whale_acted") or false end
  local done = acted and acted[k] or 0
  local whales = unacted_whales(cells, n, done)
  e.snap, e.down0, e.planktons, e.whales, e.done = snap, d0, planktons, whales, done
  return e, acted
end

-- Each seat's grid entry and face-up plankton as the state holds them (the neutral pile's
-- plankton and `false` for its entry): what totals and evaluate_moves start from.
local function seat_entries(state, counts, entries)
  local nseats, players = state.seat_count, state.player_count
  local data = state:data_version()
  local acted   -- read from state.data only when a grid is worked out again
  for k = 1, nseats do
    if k > players and state:kind(k) == "neutral" then
      counts[k] = state:zone("pile", k):count("plankton")
      entries[k] = false
    else
      local e
      e, acted = grid_entry(state, k, data, acted)
      counts[k], entries[k] = e.planktons, e
    end
  end
end

-- A grid's flips and card points (e.b) and its final face-up plankton (e.final) under every
-- seat's face-up plankton `counts` (what the whale search compares): kept while they are the
-- same.
local function grid_result(e, k, counts, nseats, ties, acts)
  local key = e.key
  local same = key ~= nil and (not e.whales or #key == nseats)
  if same and e.whales then
    for a = 1, nseats do
      if key[a] ~= counts[a] then same = false; break end
    end
  end
  if same then return end
  local snap, down = e.snap, e.down
  local n = snap.rows * snap.cols
  for i = 1, n do down[i] = e.down0[i] end
  for i = n + 1, #down do down[i] = nil end
  key = {}
  if e.whales then
    for a = 1, nseats do key[a] = counts[a] end
    local search_counts = {}
    for a = 1, nseats do search_counts[a] = counts[a] end
    resolve_whales(snap, down, e.whales, search_counts, nseats, k, ties, acts)
    -- The search scored the grid with its best flips already.
    local b, bb = e.b, S.best_b
    for t = 1, #B_KEYS do local name = B_KEYS[t]; b[name] = bb[name] end
    e.final = S.best_count
  else
    e.final = grid_points(snap.cells, down, snap.rows, snap.cols, e.b)
  end
  e.key = key
end

-- What totals and evaluate_moves start from: the card data, the memo for these parameters,
-- and each seat's entry and face-up plankton (seat_entries). Returns the plankton tie reading,
-- whether a flipped whale acts, the counts and the entries.
local function begin_totals(ctx, state)
  load_cards(ctx)
  local p = ctx.params
  if memo_params ~= p then memo, memo_params = {}, p end
  local counts, entries = {}, {}
  seat_entries(state, counts, entries)
  return p.plankton_ties, p.whale_flipped_acts, counts, entries
end

function game.totals(ctx, state)
  local ties, acts, counts, entries = begin_totals(ctx, state)
  local nseats = state.seat_count
  -- Each grid's flips and card points: kept while the grid and every seat's plankton are.
  for k = 1, nseats do
    local e = entries[k]
    if e then
      grid_result(e, k, counts, nseats, ties, acts)
      final_counts[k] = e.final
    else
      final_counts[k] = counts[k]
    end
  end
  local totals = { nil, nil, nil, nil }
  for k = 1, nseats do
    local e = entries[k]
    if e then
      local b = e.b
      b.plankton = plankton_points(final_counts, nseats, k, ties)
      totals[k] = group_totals(b)
    end
  end
  return totals
end

-- The greedy bots' value of every card a seat may place, at once (the evaluate_moves hook):
-- what the default measure gives after the pick (the seat's total minus half the best other
-- total), which a trial finds by placing the card and calling totals. A pick changes the
-- seat's grid alone, so the grid is laid out once per decision, as it is and grown by a row or
-- a column on each side (a card must touch another, so no pick grows both), and each pick is
-- scored by setting its one cell: no snapshot, no face-down flags, no memo keys per pick. The
-- other seats' results are totals' own (their whale searches depend on this seat's face-up
-- plankton: the picks are taken without a plankton first, then with one). Solo games (Tim's
-- grid is filled by the card given) and the questions are left to trials. `plateau test`
-- holds every value to its trial, exactly.
local frames = {}        -- per side, the grown grid's layout for the decision: reused tables
local pick_b = {}        -- the placing seat's breakdown
local pick_counts, pick_whales, no_whales = {}, {}, {}

local function frame(e, side)
  local f = frames[side]
  if not f then f = { cells = {}, down = {} }; frames[side] = f end
  local snap = e.snap
  local rows, cols = snap.rows, snap.cols
  local dr, dc, R, C = 0, 0, rows, cols
  if side == "top" then dr, R = 1, rows + 1
  elseif side == "bottom" then R = rows + 1
  elseif side == "left" then dc, C = 1, cols + 1
  elseif side == "right" then C = cols + 1 end
  local cells, down, d0 = f.cells, f.down, e.down0
  for i = 1, R * C do cells[i], down[i] = false, false end
  for i = R * C + 1, #cells do cells[i], down[i] = nil, nil end
  local sc = snap.cells
  for r = 0, rows - 1 do
    for c = 0, cols - 1 do
      local i, j = r * cols + c + 1, (r + dr) * C + c + dc + 1
      cells[j], down[j] = sc[i], d0[i]
    end
  end
  f.rows, f.cols, f.dr, f.dc, f.min_row, f.min_col = R, C, dr, dc, snap.min_row, snap.min_col
  return f
end

-- The placing seat's grid laid out densely (`cells`, `down`, rows x cols) after a pick or an
-- answer, with `whales` the ones that have not acted yet (searched) and `v` its view when the
-- caller has one: its final face-up plankton with its card points in pick_b, as totals would
-- find them under every seat's face-up plankton `counts`.
local function score_laid(cells, down, rows, cols, whales, counts, nseats, seat, ties, acts, v)
  if #whales == 0 then return view_points(v or ctx_view(rows, cols, cells, down), cells, down, rows, cols, pick_b) end
  for a = 1, nseats do search_counts_scratch[a] = counts[a] end
  search_whales(cells, down, rows, cols, whales, search_counts_scratch, nseats, seat, ties, acts, v)
  local bb = S.best_b
  for j = 1, #B_KEYS do local name = B_KEYS[j]; pick_b[name] = bb[name] end
  return S.best_count
end

-- The default measure for `seat` once its final face-up plankton is in final_counts and its
-- card points in pick_b (the other seats' in their entries, as grid_result left them). The
-- best other total depends on this seat only through its final face-up plankton (the
-- plankton places): others_results clears best_other, which keeps it by that count.
local best_other = {}
local function pick_measure(entries, nseats, seat, ties)
  local mine = final_counts[seat]
  local best = best_other[mine]
  if best == nil then
    best = false
    for k = 1, nseats do
      local e = entries[k]
      if e and k ~= seat then
        local b = e.b
        b.plankton = plankton_points(final_counts, nseats, k, ties)
        local total = group_totals(b)
        if not best or total > best then best = total end
      end
    end
    best_other[mine] = best
  end
  pick_b.plankton = plankton_points(final_counts, nseats, seat, ties)
  local own = group_totals(pick_b)
  return best and own - 0.5 * best or own
end

-- The other seats' results under `counts` into final_counts (the neutral pile's plankton as
-- counted).
local function others_results(entries, counts, nseats, seat, ties, acts)
  for c in pairs(best_other) do best_other[c] = nil end
  for k = 1, nseats do
    local e = entries[k]
    if e and k ~= seat then
      grid_result(e, k, counts, nseats, ties, acts)
      final_counts[k] = e.final
    elseif not e then
      final_counts[k] = counts[k]
    end
  end
end

local laid_cells, laid_down = {}, {}   -- an octopus answer's grid, laid out
local occupied = {}                    -- the grid's cards before the answer: {r, c, card, down}

-- The octopus's answers (skip, move a card, swap two), when this seat's is the one question
-- open during the draft: the answer is then played at once and changes this grid alone (with
-- several questions open the answers wait for each other; after the draft's last pick the
-- whales follow: trials). Each answer's grid is laid out again from the cards' new places,
-- so the bounding box shrinks and grows as the host's does.
local function octopus_values(state, seat, moves, mine, entries, counts, done, nseats, ties, acts, values)
  if state.phase ~= "draft" then return end
  local pending = state:read("octopus_pending")
  if not pending then return end
  for k = 1, nseats do
    if (pending[k] == true) ~= (k == seat) then return end
  end
  local snap = mine.snap
  local n, cols0 = snap.rows * snap.cols, snap.cols
  local count = 0
  for i = 1, n do
    local card = snap.cells[i]
    if card then
      count = count + 1
      local o = occupied[count]
      if not o then o = {}; occupied[count] = o end
      o[1], o[2], o[3], o[4] = snap.min_row + (i - 1) // cols0, snap.min_col + (i - 1) % cols0, card, mine.down0[i]
    end
  end
  for a = 1, nseats do pick_counts[a] = counts[a] end
  others_results(entries, pick_counts, nseats, seat, ties, acts)
  local any_whale = mine.whales ~= nil
  for t = 1, #moves do
    local m = moves[t]
    local action = m.action
    local from, to = m.cell, m.to
    local fr, fc, tr, tc
    if action == "move" or action == "swap" then fr, fc, tr, tc = from[1], from[2], to[1], to[2] end
    local min_r, max_r, min_c, max_c = math.huge, -math.huge, math.huge, -math.huge
    for q = 1, count do
      local o = occupied[q]
      local r, c = o[1], o[2]
      if action == "move" then
        if r == fr and c == fc then r, c = tr, tc end
      elseif action == "swap" then
        if r == fr and c == fc then r, c = tr, tc elseif r == tr and c == tc then r, c = fr, fc end
      end
      o[5], o[6] = r, c
      if r < min_r then min_r = r end
      if r > max_r then max_r = r end
      if c < min_c then min_c = c end
      if c > max_c then max_c = c end
    end
    local rows, cols = max_r - min_r + 1, max_c - min_c + 1
    for i = 1, rows * cols do laid_cells[i], laid_down[i] = false, false end
    for i = rows * cols + 1, #laid_cells do laid_cells[i], laid_down[i] = nil, nil end
    for q = 1, count do
      local o = occupied[q]
      local i = (o[5] - min_r) * cols + (o[6] - min_c) + 1
      laid_cells[i], laid_down[i] = o[3], o[4]
    end
    local whales = any_whale and whales_into(pick_whales, laid_cells, rows * cols, done) or no_whales
    final_counts[seat] = score_laid(laid_cells, laid_down, rows, cols, whales, pick_counts, nseats, seat, ties, acts)
    values[t] = pick_measure(entries, nseats, seat, ties)
  end
end

-- A whale's flip answers after the draft, when this seat's question is the only one open (its
-- answer then runs at once, alone; with other seats asked the host values them by one trial).
-- An answer turns its card; then each next whale left a single face-up card turns it
-- (forced_flips, as advance_whales makes them), until one has a choice: the whales from that
-- one on are searched, as totals searches them. The other seats' searches see this seat's
-- face-up plankton after those turns (house rule 6), so the answers are valued in groups by
-- how many plankton they turn.
local flip_after, flip_rest, flip_forced, flip_removed = {}, {}, {}, {}

-- Turns answer cell `i` and the forced turns after it in `down`; returns the plankton turned
-- and how many forced turns flip_forced lists (whale, cell pairs); flip_rest holds the whales
-- left to search.
local function turn_answer(cells, down, orth, i, acts)
  down[i] = true
  local k, nf = forced_flips(cells, down, orth, flip_after, 1, acts, flip_forced)
  local removed = cells[i] == "plankton" and 1 or 0
  for q = 1, nf do
    if cells[flip_forced[2 * q]] == "plankton" then removed = removed + 1 end
  end
  local nr = 0
  for q = k, #flip_after do nr = nr + 1; flip_rest[nr] = flip_after[q] end
  for q = nr + 1, #flip_rest do flip_rest[q] = nil end
  return removed, nf
end

local function flip_values(state, seat, moves, mine, entries, counts, done, nseats, ties, acts, values)
  local asked = state:asked()
  if #asked ~= 1 or asked[1] ~= seat then return end
  local snap = mine.snap
  local rows, cols, n = snap.rows, snap.cols, snap.rows * snap.cols
  local cells, down0 = snap.cells, mine.down0
  for t = 1, #moves do
    if moves[t].grid ~= seat then return end
  end
  local orth = dense.shape(rows, cols).orth
  whales_into(flip_after, cells, n, done + 1)
  for i = 1, n do laid_down[i] = down0[i] end
  for i = n + 1, #laid_down do laid_down[i] = nil end
  local function undo(i, nf)
    laid_down[i] = down0[i]
    for q = 1, nf do
      local j = flip_forced[2 * q]
      laid_down[j] = down0[j]
    end
  end
  local index, most = {}, 0
  for t = 1, #moves do
    local cell = moves[t].cell
    local i = (cell[1] - snap.min_row) * cols + (cell[2] - snap.min_col) + 1
    local removed, nf = turn_answer(cells, laid_down, orth, i, acts)
    undo(i, nf)
    index[t], flip_removed[t] = i, removed
    if removed > most then most = removed end
  end
  for removed = 0, most do
    local others = false
    for t = 1, #moves do
      if flip_removed[t] == removed then
        if not others then
          for a = 1, nseats do pick_counts[a] = counts[a] end
          pick_counts[seat] = counts[seat] - removed
          others_results(entries, pick_counts, nseats, seat, ties, acts)
          others = true
        end
        local i = index[t]
        local _, nf = turn_answer(cells, laid_down, orth, i, acts)
        final_counts[seat] = score_laid(cells, laid_down, rows, cols, flip_rest, pick_counts, nseats, seat, ties, acts)
        undo(i, nf)
        values[t] = pick_measure(entries, nseats, seat, ties)
      end
    end
  end
end

function game.evaluate_moves(ctx, state, seat, moves)
  local values = {}
  if state.player_count < 2 then return values end
  local kind = moves[1] and moves[1].type
  if kind ~= "place" and kind ~= "octopus" and kind ~= "flip" then return values end
  for t = 2, #moves do
    if moves[t].type ~= kind then return values end
  end
  local ties, acts, counts, entries = begin_totals(ctx, state)
  local nseats = state.seat_count
  local mine = entries[seat]
  if not mine or mine.snap.rows == 0 then return values end
  local acted = state:read("whale_acted")
  local done = acted and acted[seat] or 0
  if kind == "octopus" then
    octopus_values(state, seat, moves, mine, entries, counts, done, nseats, ties, acts, values)
    return values
  elseif kind == "flip" then
    flip_values(state, seat, moves, mine, entries, counts, done, nseats, ties, acts, values)
    return values
  end
  local snap = mine.snap
  local rows, cols = snap.rows, snap.cols
  local grid = state:grid(seat)
  local laid = {}   -- side -> frame, laid out for this decision
  for pass = 1, 2 do
    -- Pass 1: the picks that add no plankton (every seat's counts as they are); pass 2: the
    -- plankton, which add one to this seat's face-up plankton.
    for a = 1, nseats do pick_counts[a] = counts[a] end
    if pass == 2 then pick_counts[seat] = counts[seat] + 1 end
    others_results(entries, pick_counts, nseats, seat, ties, acts)
    for t = 1, #moves do
      local m = moves[t]
      local card = m.card
      if (card == "plankton") == (pass == 2) then
        local r, c = m.cell[1] - snap.min_row, m.cell[2] - snap.min_col
        local side = (r < 0 and "top") or (r >= rows and "bottom") or (c < 0 and "left") or (c >= cols and "right") or "base"
        local f = laid[side]
        if not f then
          f = frame(mine, side)
          laid[side] = f
          -- The frame's own whales, found once per decision, before any pick is set in it.
          f.whales = mine.whales and whales_into({}, f.cells, f.rows * f.cols, done) or no_whales
        end
        local i = (r + f.dr) * f.cols + c + f.dc + 1
        f.cells[i] = card
        local whales = f.whales
        if card == "whale" then whales = whales_into(pick_whales, f.cells, f.rows * f.cols, done) end
        final_counts[seat] = score_laid(f.cells, f.down, f.rows, f.cols, whales, pick_counts, nseats, seat, ties, acts,
                                        grid:view(m.cell[1], m.cell[2], card))
        f.cells[i] = false
        values[t] = pick_measure(entries, nseats, seat, ties)
      end
    end
  end
  return values
end

---------------------------------------------------------------------------------------------
-- 5. The octopus: when a player places one, that player may move one card of the grid to an
--    empty cell, swap two cards (the new octopus may be one of them), or do nothing.

local ask_whales   -- section 6: the whale questions, asked once an octopus question is answered

-- The octopus question for a grid: skip, then every legal move (sources and destinations in
-- reading order), then every swap of two different cards (swapping two copies of the same
-- card changes nothing, so it is not listed). A move's destination must be empty, touch
-- another card orthogonally, keep the cards within the 4x5 frame and, when
-- `keep_connected`, leave every card connected (README, house rule 4). The host lists them
-- (grid:relocations): a grid of 20 cards has a few hundred, too many to build in Lua at every
-- octopus a bot places.
local function octopus_moves(grid, keep_connected)
  return grid:relocations{ type = "octopus", keep_connected = keep_connected, skip = true }
end

game.on_place = {}

function game.on_place.octopus(ctx, state, seat, cell)
  -- Open point (README, house rule 8): Tim's grid fills itself in reading order; his octopus
  -- moves nothing (the rulebook only lets the solo player choose for Tim's whales).
  if state:kind(seat) ~= "player" then return end
  local moves = octopus_moves(state:grid(seat), ctx.params.octopus_keep_connected)
  if #moves > 1 then
    state:ask(seat, moves)
    state.data.octopus_pending[seat] = true
  end
end

game.moves = {}

function game.moves.octopus(ctx, state, seat, move)
  local grid = state:grid(seat)
  if move.action == "move" then
    grid:move(move.cell[1], move.cell[2], move.to[1], move.to[2])
  elseif move.action == "swap" then
    grid:swap(move.cell[1], move.cell[2], move.to[1], move.to[2])
  end
  state.data.octopus_pending[seat] = false
  -- The octopus of the draft's last pick: the whales wait for its answer.
  if state.phase == "draft_done" then ask_whales(ctx, state, seat) end
end

---------------------------------------------------------------------------------------------
-- 6. The whales: after the draft each whale, in reading order, turns one adjacent face-up card
--    face down. A question is put only when a whale has a real choice (2+ face-up
--    neighbours); a whale with one is resolved at once, one with none flips nothing. The
--    flips are applied with grid:set_face_down, `whale_acted[seat]` counts the whales of
--    each grid that have acted and `whale_flips` lists the flips. The solo player chooses
--    for Tim's whales after her own.

-- Resolves the whales of grid `g` up to the next real choice. Returns that question's moves,
-- or nil when every whale of the grid has acted.
local function advance_whales(ctx, state, g)
  local grid = state:grid(g)
  local snap = grid:snapshot()
  local n = snap.rows * snap.cols
  local acted_list = state.data.whale_acted
  if n == 0 then return nil end
  local orth = dense.shape(snap.rows, snap.cols).orth
  local cells = snap.cells
  local down, whales, forced = dense.down_flags(snap, {}), whales_into({}, cells, n, 0), {}
  local k, nf = forced_flips(cells, down, orth, whales, acted_list[g] + 1, ctx.params.whale_flipped_acts, forced)
  for q = 1, nf do
    local at = dense.cell_of(snap, forced[2 * q])
    grid:set_face_down(at[1], at[2])
    local flips = state.data.whale_flips
    flips[#flips + 1] = { grid = g, whale = dense.cell_of(snap, forced[2 * q - 1]), cell = at,
                          card = cells[forced[2 * q]], by = "forced" }
  end
  acted_list[g] = k - 1
  if k > #whales then return nil end
  local moves = {}
  local o = orth[whales[k]]
  for q = 1, #o do
    local j = o[q]
    if cells[j] and not down[j] then moves[#moves + 1] = { type = "flip", grid = g, cell = dense.cell_of(snap, j) } end
  end
  return moves
end

-- Asks `mover` about the next whale it decides for: its own grid, then (solo) Tim's.
ask_whales = function(ctx, state, mover)
  draft.ask_next(state, mover, function(g) return advance_whales(ctx, state, g) end)
end

function game.after_draft(ctx, state)
  local acted = {}
  for k = 1, state.seat_count do acted[k] = 0 end
  state.data.whale_acted = acted
  state.data.whale_flips = {}
  local pending = state:read("octopus_pending")
  for seat = 1, state.player_count do
    if not (pending and pending[seat]) then ask_whales(ctx, state, seat) end
  end
end

-- The current whale of `move.grid` turns the chosen card face down.
function game.moves.flip(ctx, state, seat, move)
  local g = move.grid
  local grid = state:grid(g)
  local snap = grid:snapshot()
  local acted = state.data.whale_acted[g]
  local seen, whale = 0, nil
  for i = 1, snap.rows * snap.cols do
    if snap.cells[i] == "whale" then
      seen = seen + 1
      if seen == acted + 1 then whale = dense.cell_of(snap, i); break end
    end
  end
  grid:set_face_down(move.cell[1], move.cell[2])
  local flips = state.data.whale_flips
  flips[#flips + 1] = { grid = g, whale = whale, cell = { move.cell[1], move.cell[2] },
                        card = (grid:get(move.cell[1], move.cell[2])), by = "move" }
  state.data.whale_acted[g] = acted + 1
  ask_whales(ctx, state, seat)
end

-- Moves in the players' words (where a card lands in the grid, not the host's coordinates).
game.describe = require("ecosysteme.describe").describe

return game
