-- Ecosystem (Genius Games, 2019), the original game of the series: the rules that are not
-- drafting. The host deals, runs the secret simultaneous picks, passes the hands (left, then
-- right) and keeps the floating 4x5 frame; this file declares that draft and scores the grids.
-- It needs nothing from C++: grid views and one compiled query (ctx.query) do the counting.
--
-- Scoring reading: shared/design/game-data.md section 2.1 (an open-source simulator's rules;
-- the official English text is not sourced). Every point where that reading is a choice is
-- marked "Open point" below and listed under "House rules and assumptions" in README.md.
--
-- Layout: 1. card data cache, 2. the draft, 3. one grid's own scores (one query + streams and
-- dragonflies), 4. the majorities (streams, wolves), 5. gaps and score.

local game = { api_version = 1, version = 1 }

-- One category per card id, in the order of the scoring table, then the diversity bonus.
game.categories = { "meadow", "stream", "bear", "bee", "trout", "eagle", "rabbit", "dragonfly",
                    "fox", "deer", "wolf", "gaps" }

local ROWS, COLS = 4, 5   -- the frame of every ecosystem (20 cards)

---------------------------------------------------------------------------------------------
-- 1. Card data, derived from ctx.data once per VM (pure data, the same for every game of this
--    rules instance, so a module cache is safe).

local CARD_IDS        -- every card id of the data, in data order: the types the gaps look at
local QUERY           -- the compiled per-grid query (section 3)

local MEADOW_POINTS = { 0, 3, 6, 10, 15 }   -- a meadow group of 1 / 2 / 3 / 4 / 5+ cards

local function load(ctx)
  if CARD_IDS then return end
  local ids = {}
  for _, card in ipairs(ctx.data.cards.cards) do ids[#ids + 1] = card.id end
  CARD_IDS = ids
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
    { "touching", "dragonfly", "stream" },                  --  8 dragonflies next to a stream
    -- max(3 - 3 * (bears and wolves around), 0): 3 for a fox with none, else 0
    { "each", "fox", fox_threats, "orthogonal", "any", 3, -3, 0 },   --  9 fox points
    { "lines", "deer" },                                    -- 10 rows + columns holding a deer
    { "count", "wolf" },                                    -- 11 wolves
  }
end

---------------------------------------------------------------------------------------------
-- 2. The draft: 2 rounds of `hand_size` cards (10 by default, all placed), 10 placed per
--    round, left then right, in a 4x5 frame.
-- Open point (README, house rule 1): no neutral hand and no solo opponent; the original's
--    2-player and solo variants are not sourced, and the manifest allows 3 to 6 players only.
-- Open point (README, house rule 8): a `hand_size` above 10 discards the rest of each hand.

function game.draft(ctx)
  local deck = {}
  for _, card in ipairs(ctx.data.cards.cards) do deck[card.id] = card.count end
  local n = ctx.params.hand_size
  return {
    rounds = { { deal = n, keep = 10, pass = "left" }, { deal = n, keep = 10, pass = "right" } },
    grid = { rows = ROWS, cols = COLS },
    deck = deck,
  }
end

---------------------------------------------------------------------------------------------
-- 3. One grid's own scores.

-- Streams and dragonflies. Returns the size of the largest stream group and the dragonfly
-- points: for each dragonfly, the size of each distinct stream group orthogonally next to it.
-- `touching` is the number of dragonflies next to at least one stream (query entry 8).
-- Open point (README, house rule 5): groups are true orthogonally connected components (the
-- simulator's own grouping code can split some shapes; the table in game-data.md says
-- "connected").
local ZERO = { 0 }
local function streams_and_dragonflies(v, touching)
  local _, sizes = v:groups("stream", ZERO)
  local largest = 0
  for k = 1, #sizes do
    if sizes[k] > largest then largest = sizes[k] end
  end
  if touching == 0 then return largest, 0 end
  -- One stream group: every dragonfly that touches a stream touches that one.
  if #sizes == 1 then return largest, touching * largest end
  -- Several groups: label the stream cells (dense view indices), then look around each
  -- dragonfly. At most 20 cells, so plain Lua tables are cheap.
  local rows, cols = v:size()
  local label, size_of = {}, {}
  local streams = v:cells("stream")
  local is_stream = {}
  for k = 1, #streams do is_stream[streams[k]] = true end
  local stack, groups = {}, 0
  for k = 1, #streams do
    local start = streams[k]
    if not label[start] then
      groups = groups + 1
      label[start] = groups
      local top, size = 1, 0
      stack[1] = start
      while top > 0 do
        local i = stack[top]
        top = top - 1
        size = size + 1
        local r, c = (i - 1) // cols, (i - 1) % cols
        -- up, right, down, left
        if r > 0 and is_stream[i - cols] and not label[i - cols] then
          label[i - cols] = groups; top = top + 1; stack[top] = i - cols
        end
        if c < cols - 1 and is_stream[i + 1] and not label[i + 1] then
          label[i + 1] = groups; top = top + 1; stack[top] = i + 1
        end
        if r < rows - 1 and is_stream[i + cols] and not label[i + cols] then
          label[i + cols] = groups; top = top + 1; stack[top] = i + cols
        end
        if c > 0 and is_stream[i - 1] and not label[i - 1] then
          label[i - 1] = groups; top = top + 1; stack[top] = i - 1
        end
      end
      size_of[groups] = size
    end
  end
  local points = 0
  local flies = v:cells("dragonfly")
  for k = 1, #flies do
    local i = flies[k]
    local r, c = (i - 1) // cols, (i - 1) % cols
    local a = r > 0 and label[i - cols] or false
    local b = c < cols - 1 and label[i + 1] or false
    local d = r < rows - 1 and label[i + cols] or false
    local e = c > 0 and label[i - 1] or false
    -- each adjacent group once
    if a then points = points + size_of[a] end
    if b and b ~= a then points = points + size_of[b] end
    if d and d ~= a and d ~= b then points = points + size_of[d] end
    if e and e ~= a and e ~= b and e ~= d then points = points + size_of[e] end
  end
  return largest, points
end

-- The breakdown of one grid, with stream and wolf left at 0 (they need every seat), the size
-- of its largest stream and its wolf count.
local function grid_scores(v)
  local meadow, bear, bee, trout, eagle_near, eagle_far, rabbit, touching, fox, deer, wolves = v:run(QUERY)
  local largest, dragonfly = streams_and_dragonflies(v, touching)
  return { meadow = meadow, stream = 0, bear = 2 * bear, bee = 3 * bee, trout = 2 * trout,
           eagle = 2 * (eagle_near + eagle_far), rabbit = rabbit, dragonfly = dragonfly,
           fox = fox, deer = 2 * deer, wolf = 0, gaps = 0 }, largest, wolves
end

---------------------------------------------------------------------------------------------
-- 4. The majorities. `values[seat]` is a seat's largest stream or wolf count; a seat with 0
--    takes no place and scores 0 (simulator). Returns the points of each seat.
-- Open point (README, house rule 3): ties.
--   "competition" (the simulator's reading, default): a seat's place is 1 + the number of
--     seats with a larger value, so tied seats share a place and the places they fill are not
--     paid to the next seats (wolves 3,3,2 -> 12,12,4; 3,2,2,1 -> 12,8,8,0; 2,2,2,1 ->
--     12,12,12,0; streams 4,4,3 -> 8,8,0; 4,3,3 -> 8,5,5).
--   "dense": a seat's place is 1 + the number of different larger values (wolves 3,3,2 ->
--     12,12,8; streams 4,4,3 -> 8,8,5).
local WOLF_POINTS = { 12, 8, 4 }
local STREAM_POINTS = { 8, 5 }

local function majority(values, n, points, reading)
  local out = {}
  for a = 1, n do
    local v = values[a]
    local p = 0
    if v > 0 then
      local place = 1
      if reading == "dense" then
        local seen = {}
        for b = 1, n do
          local w = values[b]
          if w > v and not seen[w] then seen[w] = true; place = place + 1 end
        end
      else
        for b = 1, n do
          if values[b] > v then place = place + 1 end
        end
      end
      p = points[place] or 0
    end
    out[a] = p
  end
  return out
end

---------------------------------------------------------------------------------------------
-- 5. Gaps and the score.

-- Diversity: the number of card types whose category scored 0, counted after the stream and
-- wolf payouts.
-- Open point (README, house rule 7): the types are every card id of the data; a type absent
-- from the grid scores 0 and is a gap; `gaps` itself is not counted.
-- Open point (README, house rule 2): 6 or more gaps score `gap_penalty_6plus` (-6 by default).
local GAP_POINTS = { [0] = 12, 12, 12, 7, 3, 0 }

local function gap_points(b, penalty)
  local gaps = 0
  for k = 1, #CARD_IDS do
    local v = b[CARD_IDS[k]]
    if not v or v == 0 then gaps = gaps + 1 end
  end
  return GAP_POINTS[gaps] or penalty
end

function game.score(ctx, state)
  load(ctx)
  local p = ctx.params
  local n = state.player_count
  local lines, breakdowns, streams, wolves = {}, {}, {}, {}
  for seat = 1, n do
    local b, largest, w = grid_scores(state:grid(seat):view())
    breakdowns[seat], streams[seat], wolves[seat] = b, largest, w
  end
  local stream_pay = majority(streams, n, STREAM_POINTS, p.stream_ties)
  local wolf_pay = majority(wolves, n, WOLF_POINTS, p.wolf_ties)
  local penalty = p.gap_penalty_6plus
  for seat = 1, n do
    local b = breakdowns[seat]
    b.stream, b.wolf = stream_pay[seat], wolf_pay[seat]
    b.gaps = gap_points(b, penalty)
    lines[seat] = {
      total = b.meadow + b.stream + b.bear + b.bee + b.trout + b.eagle + b.rabbit + b.dragonfly
        + b.fox + b.deer + b.wolf + b.gaps,
      breakdown = b,
    }
  end
  return lines
end

return game
