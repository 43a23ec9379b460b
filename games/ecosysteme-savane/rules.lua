-- Écosystème – Savane: the rules that are not drafting. The host deals, runs the secret
-- simultaneous picks, passes hands, keeps the floating 4x5 frame, the neutral hand (2
-- players) and Jhay's grid (solo); this file declares that draft, the lions' prey choice
-- at the end, and scores the grids in the rulebook's order.

local game = { api_version = 1, version = 1 }

game.categories = { "waterhole", "prairie", "tree", "gazelle", "zebra", "giraffe",
                    "cheetah", "lion", "elephant", "hyena", "vulture" }

local ANIMAL = {}    -- card id -> true for animals (from data: kind == "animal")
local function load_kinds(ctx)
  if next(ANIMAL) then return end
  for _, card in ipairs(ctx.data.cards.cards) do
    ANIMAL[card.id] = card.kind == "animal"
  end
end

function game.draft(ctx)
  load_kinds(ctx)
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

-- Geometry of a rows x cols dense grid (index = r * cols + c + 1), cached per shape.
-- It is pure geometry, not game state, so caching it in the module is safe on reload.
local shapes = {}
local function shape(rows, cols)
  local key = rows * 64 + cols
  local s = shapes[key]
  if s then return s end
  s = { orth = {}, diag = {}, dist2 = {}, below = {}, above = {}, row = {}, col = {} }
  for r = 0, rows - 1 do
    for c = 0, cols - 1 do
      local i = r * cols + c + 1
      s.row[i], s.col[i] = r, c
      local orth, diag, dist2, below = {}, {}, {}, {}
      for _, d in ipairs({ { -1, 0 }, { 0, 1 }, { 1, 0 }, { 0, -1 } }) do
        local rr, cc = r + d[1], c + d[2]
        if rr >= 0 and rr < rows and cc >= 0 and cc < cols then orth[#orth + 1] = rr * cols + cc + 1 end
        rr, cc = r + 2 * d[1], c + 2 * d[2]
        if rr >= 0 and rr < rows and cc >= 0 and cc < cols then dist2[#dist2 + 1] = rr * cols + cc + 1 end
      end
      for _, d in ipairs({ { -1, -1 }, { -1, 1 }, { 1, 1 }, { 1, -1 } }) do
        local rr, cc = r + d[1], c + d[2]
        if rr >= 0 and rr < rows and cc >= 0 and cc < cols then diag[#diag + 1] = rr * cols + cc + 1 end
      end
      local above = {}
      for rr = r + 1, rows - 1 do below[#below + 1] = rr * cols + c + 1 end
      for rr = 0, r - 1 do above[#above + 1] = rr * cols + c + 1 end
      s.orth[i], s.diag[i], s.dist2[i], s.below[i], s.above[i] = orth, diag, dist2, below, above
    end
  end
  shapes[key] = s
  return s
end

-- Flags as face down (in `down`) every gazelle diagonal to at least one cheetah.
local function cheetahs_hunt(cells, s, n, down)
  for i = 1, n do
    if cells[i] == "cheetah" then
      local d = s.diag[i]
      for k = 1, #d do
        local j = d[k]
        if cells[j] == "gazelle" then down[j] = true end
      end
    end
  end
end

-- Lions that hunt (next to a prairie) and the prey they may take (face-up gazelles and
-- zebras once the cheetahs have eaten).
local function lion_options(cells, s, n, down)
  local lions = 0
  for i = 1, n do
    if cells[i] == "lion" then
      local o = s.orth[i]
      for k = 1, #o do
        if cells[o[k]] == "prairie" then lions = lions + 1; break end
      end
    end
  end
  local prey = {}
  for i = 1, n do
    local c = cells[i]
    if (c == "gazelle" or c == "zebra") and not down[i] then prey[#prey + 1] = i end
  end
  return lions, prey
end

-- Scores from elephants, hyenas and vultures: the only ones that depend on what is face down.
local function carcass_scores(cells, s, n, down, floor)
  local elephant, hyena, vulture = 0, 0, 0
  for i = 1, n do
    local c = cells[i]
    if c == "elephant" then
      local v = 6
      local o = s.orth[i]
      for k = 1, #o do
        local j = o[k]
        local x = cells[j]
        if x and x ~= "elephant" and ANIMAL[x] and not down[j] then v = v - 2 end
      end
      -- Open point (README, house rules): the rulebook sets no minimum; elephant_floor does.
      if v < floor then v = floor end
      elephant = elephant + v
    elseif c == "hyena" then
      local o = s.dist2[i]
      for k = 1, #o do
        if down[o[k]] then hyena = hyena + 3 end
      end
    elseif c == "vulture" then
      local o = s.below[i]
      for k = 1, #o do
        if down[o[k]] then vulture = vulture + 4 end
      end
    end
  end
  return elephant, hyena, vulture
end

-- Chooses which `k` of `prey` the lions eat to maximise elephants + hyenas + vultures.
-- Exhaustive over combinations when they are few, greedy by marginal gain otherwise.
local function best_prey(cells, s, n, down, prey, k, floor)
  local m = #prey
  if k >= m then return prey end
  -- While no elephant is held up by its floor, each prey's gain is independent of the others:
  -- taking the k best gains is exact. Otherwise fall back to the search below.
  local additive = true
  for i = 1, n do
    if cells[i] == "elephant" then
      local v, o = 6, s.orth[i]
      for t = 1, #o do
        local x = cells[o[t]]
        if x and x ~= "elephant" and ANIMAL[x] and not down[o[t]] then v = v - 2 end
      end
      if v < floor then additive = false; break end
    end
  end
  if additive then
    -- gain of eating prey i: +2 per elephant beside it, +3 per hyena two cells away in a
    -- straight line, +4 per vulture above it in its column
    local gains = {}
    for t = 1, m do
      local i, g = prey[t], 0
      local o = s.orth[i]
      for q = 1, #o do if cells[o[q]] == "elephant" then g = g + 2 end end
      o = s.dist2[i]
      for q = 1, #o do if cells[o[q]] == "hyena" then g = g + 3 end end
      o = s.above[i]
      for q = 1, #o do if cells[o[q]] == "vulture" then g = g + 4 end end
      gains[t] = g
    end
    -- k best gains, earliest cell first among equals (k is small: selection, not a sort)
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
  local combos, limit = 1, 3000
  for t = 1, k do combos = combos * (m - t + 1) / t end
  local best, best_set = -math.huge, nil
  if combos <= limit then
    local pick = {}
    local function rec(start, depth)
      if depth > k then
        for t = 1, k do down[prey[pick[t]]] = true end
        local e, h, v = carcass_scores(cells, s, n, down, floor)
        for t = 1, k do down[prey[pick[t]]] = nil end
        if e + h + v > best then
          best = e + h + v
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
  local chosen, taken = {}, {}
  for _ = 1, k do
    local bi, bv = nil, -math.huge
    for t = 1, m do
      if not taken[t] then
        down[prey[t]] = true
        local e, h, v = carcass_scores(cells, s, n, down, floor)
        down[prey[t]] = nil
        if e + h + v > bv then bi, bv = t, e + h + v end
      end
    end
    taken[bi] = true
    down[prey[bi]] = true
    chosen[#chosen + 1] = prey[bi]
  end
  for t = 1, #chosen do down[chosen[t]] = nil end
  return chosen
end

-- Lion prey already chosen by moves for one grid, as dense indices (nil when none).
-- `eaten` is a plain copy of state.data.eaten (state:read), read once per hook.
local function chosen_prey(eaten, seat, snap)
  if not eaten then return nil end
  local out
  for t = 1, #eaten do
    local e = eaten[t]
    if e.grid == seat then
      local cell = e.cell
      out = out or {}
      out[#out + 1] = (cell[1] - snap.min_row) * snap.cols + (cell[2] - snap.min_col) + 1
    end
  end
  return out
end

-- Scratch arrays reused by every call (cleared before use). They hold no game state: the
-- state is only ever read from the host, so reusing them is invisible to the rules.
local scratch_down, scratch_seen, scratch_stack = {}, {}, {}
local tree_rows, tree_cols = {}, {}

-- Scores one grid. Returns the breakdown (gazelle majority not yet added), the number of
-- gazelles, and the face-down cells after cheetahs and lions.
local function score_grid(snap, chosen, floor)
  local cells, rows, cols = snap.cells, snap.rows, snap.cols
  local n = rows * cols
  local waterhole, prairie, zebra, giraffe, cheetah = 0, 0, 0, 0, 0
  local gazelles, tree = 0, 0
  local down, seen = scratch_down, scratch_seen
  for i = 1, n do down[i] = false; seen[i] = false end
  if n == 0 then
    return { waterhole = 0, prairie = 0, tree = 0, gazelle = 0, zebra = 0, giraffe = 0, cheetah = 0,
             lion = 0, elephant = 0, hyena = 0, vulture = 0 }, 0, down
  end
  for r = 0, rows - 1 do tree_rows[r] = false end
  for c = 0, cols - 1 do tree_cols[c] = false end
  local s = shape(rows, cols)
  local orth, diag, srow, scol = s.orth, s.diag, s.row, s.col
  local lions = 0
  for i = 1, n do
    local c = cells[i]
    if c == "prairie" then
      if not seen[i] then
        -- flood fill the group: 1/4/9/16 points for 1/2/3/4+ cards
        local stack, top, size = scratch_stack, 1, 0
        stack[1] = i
        seen[i] = true
        while top > 0 do
          local x = stack[top]
          top = top - 1
          size = size + 1
          local o = orth[x]
          for k = 1, #o do
            local j = o[k]
            if not seen[j] and cells[j] == "prairie" then
              seen[j] = true
              top = top + 1
              stack[top] = j
            end
          end
        end
        prairie = prairie + (size >= 4 and 16 or size * size)
      end
    elseif c == "gazelle" then
      gazelles = gazelles + 1
    elseif c == "tree" then
      local r, col = srow[i], scol[i]
      if not tree_rows[r] then tree_rows[r] = true; tree = tree + 2 end
      if not tree_cols[col] then tree_cols[col] = true; tree = tree + 2 end
    elseif c == "waterhole" then
      local o = orth[i]
      local t1, t2, t3
      for k = 1, #o do
        local x = cells[o[k]]
        if x and x ~= t1 and x ~= t2 and x ~= t3 and ANIMAL[x] then
          waterhole = waterhole + 2
          if not t1 then t1 = x elseif not t2 then t2 = x else t3 = x end
        end
      end
    elseif c == "zebra" then
      local o = orth[i]
      for k = 1, #o do
        if cells[o[k]] == "prairie" then zebra = zebra + 3 end
      end
    elseif c == "giraffe" then
      local o = orth[i]
      for k = 1, #o do
        if cells[o[k]] == "tree" then giraffe = giraffe + 5; break end
      end
    elseif c == "cheetah" then
      local d = diag[i]
      for k = 1, #d do
        local j = d[k]
        if cells[j] == "gazelle" then cheetah = cheetah + 3; down[j] = true end
      end
    elseif c == "lion" then
      local o = orth[i]
      for k = 1, #o do
        if cells[o[k]] == "prairie" then lions = lions + 1; break end
      end
    end
  end
  -- Cheetahs have scored and the gazelles they hunted are face down (flagged above).

  -- Lions next to a prairie each eat one face-up gazelle or zebra and score 4.
  local lion = 0
  if lions > 0 then
    local eaten = 0
    if chosen then
      for t = 1, #chosen do
        local i = chosen[t]
        if eaten < lions and not down[i] and (cells[i] == "gazelle" or cells[i] == "zebra") then
          down[i] = true
          eaten = eaten + 1
        end
      end
    end
    local rest = 0
    -- Open point (README, house rules): prey not chosen by a move (boards given to `plateau
    -- score`, questions not yet answered) is the prey that maximises this grid's own total,
    -- Jhay's grid included.
    if eaten < lions then
      local _, prey = lion_options(cells, s, n, down)
      if #prey > 0 then
        local picked = best_prey(cells, s, n, down, prey, math.min(lions - eaten, #prey), floor)
        for t = 1, #picked do down[picked[t]] = true end
        rest = #picked
      end
    end
    lion = 4 * (eaten + rest)
  end
  local elephant, hyena, vulture = carcass_scores(cells, s, n, down, floor)
  return { waterhole = waterhole, prairie = prairie, tree = tree, gazelle = 2 * gazelles, zebra = zebra,
           giraffe = giraffe, cheetah = cheetah, lion = lion, elephant = elephant, hyena = hyena,
           vulture = vulture }, gazelles, down
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
  load_kinds(ctx)
  local floor = ctx.params.elephant_floor
  local seats = state:seats()
  local nseats = #seats
  local lines, gazelles = {}, {}
  local eaten = state:read("eaten")
  for k = 1, nseats do
    local seat = seats[k]
    if seat.kind == "neutral" then
      gazelles[k] = state:zone("pile", k):count("gazelle")
    else
      local snap = state:grid(k):snapshot()
      local b, g = score_grid(snap, chosen_prey(eaten, k, snap), floor)
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
  if state.player_count == 1 and nseats >= 2 and seats[2].kind == "opponent" and lines[2] then
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
local function prey_question(state, seat, eaten)
  local snap = state:grid(seat):snapshot()
  local n = snap.rows * snap.cols
  if n == 0 then return nil end
  local s = shape(snap.rows, snap.cols)
  local cells = snap.cells
  local down = {}
  cheetahs_hunt(cells, s, n, down)
  local lions, prey = lion_options(cells, s, n, down)
  local chosen = chosen_prey(eaten, seat, snap)
  if chosen then
    for t = 1, #chosen do
      local i = chosen[t]
      if not down[i] then down[i] = true; lions = lions - 1 end
    end
    local _, left = lion_options(cells, s, n, down)
    prey = left
  end
  if lions <= 0 or #prey <= lions then return nil end
  local moves = {}
  for t = 1, #prey do
    local i = prey[t]
    moves[t] = { type = "eat", grid = seat, cell = { s.row[i] + snap.min_row, s.col[i] + snap.min_col } }
  end
  return moves
end

-- Asks `mover` about the next grid it decides for: its own, then (solo) Jhay's.
local function ask_next(state, mover, eaten)
  local q = prey_question(state, mover, eaten)
  if not q and state.player_count == 1 and state:kind(2) == "opponent" then q = prey_question(state, 2, eaten) end
  if q then state:ask(mover, q) end
end

function game.after_draft(ctx, state)
  load_kinds(ctx)
  local eaten = state:read("eaten")
  for seat = 1, state.player_count do ask_next(state, seat, eaten) end
end

game.moves = {}

-- A lion eats the chosen gazelle or zebra; scoring flips it face down.
function game.moves.eat(ctx, state, seat, move)
  local eaten = state:read("eaten") or {}
  eaten[#eaten + 1] = { grid = move.grid, cell = { move.cell[1], move.cell[2] } }
  state.data.eaten = eaten
  ask_next(state, seat, eaten)
end

return game
