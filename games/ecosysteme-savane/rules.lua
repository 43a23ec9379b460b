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
  s = { orth = {}, diag = {}, dist2 = {}, below = {}, row = {}, col = {} }
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
      for rr = r + 1, rows - 1 do below[#below + 1] = rr * cols + c + 1 end
      s.orth[i], s.diag[i], s.dist2[i], s.below[i] = orth, diag, dist2, below
    end
  end
  shapes[key] = s
  return s
end

-- Cards flipped by cheetahs: every gazelle diagonal to at least one cheetah.
local function cheetah_prey(cells, s, n)
  local hunted = {}
  for i = 1, n do
    if cells[i] == "cheetah" then
      for _, j in ipairs(s.diag[i]) do
        if cells[j] == "gazelle" then hunted[j] = true end
      end
    end
  end
  return hunted
end

-- Lions that hunt (next to a prairie) and the prey they may take (face-up gazelles and
-- zebras once the cheetahs have eaten).
local function lion_options(cells, s, n, down)
  local lions = 0
  for i = 1, n do
    if cells[i] == "lion" then
      for _, j in ipairs(s.orth[i]) do
        if cells[j] == "prairie" then lions = lions + 1; break end
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
      for _, j in ipairs(s.orth[i]) do
        local o = cells[j]
        if o and ANIMAL[o] and o ~= "elephant" and not down[j] then v = v - 2 end
      end
      if v < floor then v = floor end
      elephant = elephant + v
    elseif c == "hyena" then
      for _, j in ipairs(s.dist2[i]) do
        if down[j] then hyena = hyena + 3 end
      end
    elseif c == "vulture" then
      for _, j in ipairs(s.below[i]) do
        if down[j] then vulture = vulture + 4 end
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
  for _, i in ipairs(chosen) do down[i] = nil end
  return chosen
end

-- Lion prey already chosen by moves, per seat: { [seat] = { dense index, ... } }.
local function chosen_prey(state, seat, snap)
  local eaten = state.data.eaten
  if not eaten then return nil end
  local out
  for _, e in ipairs(eaten) do
    if e.grid == seat then
      local cell = e.cell
      out = out or {}
      out[#out + 1] = (cell[1] - snap.min_row) * snap.cols + (cell[2] - snap.min_col) + 1
    end
  end
  return out
end

-- Scores one grid; `gazelle_bonus` is added by the caller (it compares seats).
local function score_grid(snap, chosen, floor)
  local cells, rows, cols = snap.cells, snap.rows, snap.cols
  local n = rows * cols
  local b = { waterhole = 0, prairie = 0, tree = 0, gazelle = 0, zebra = 0, giraffe = 0,
              cheetah = 0, lion = 0, elephant = 0, hyena = 0, vulture = 0 }
  if n == 0 then return b, 0 end
  local s = shape(rows, cols)
  local gazelles = 0
  local tree_rows, tree_cols = {}, {}
  local seen = {}
  for i = 1, n do
    local c = cells[i]
    if c == "waterhole" then
      local types, v = {}, 0
      for _, j in ipairs(s.orth[i]) do
        local o = cells[j]
        if o and ANIMAL[o] and not types[o] then types[o] = true; v = v + 2 end
      end
      b.waterhole = b.waterhole + v
    elseif c == "prairie" and not seen[i] then
      -- flood fill the group; 1/4/9/16 points for 1/2/3/4+ cards
      local size, stack = 0, { i }
      seen[i] = true
      while #stack > 0 do
        local k = stack[#stack]
        stack[#stack] = nil
        size = size + 1
        for _, j in ipairs(s.orth[k]) do
          if cells[j] == "prairie" and not seen[j] then seen[j] = true; stack[#stack + 1] = j end
        end
      end
      b.prairie = b.prairie + (size >= 4 and 16 or size * size)
    elseif c == "tree" then
      tree_rows[s.row[i]] = true
      tree_cols[s.col[i]] = true
    elseif c == "gazelle" then
      gazelles = gazelles + 1
    elseif c == "zebra" then
      for _, j in ipairs(s.orth[i]) do
        if cells[j] == "prairie" then b.zebra = b.zebra + 3 end
      end
    elseif c == "giraffe" then
      for _, j in ipairs(s.orth[i]) do
        if cells[j] == "tree" then b.giraffe = b.giraffe + 5; break end
      end
    end
  end
  for _ in pairs(tree_rows) do b.tree = b.tree + 2 end
  for _ in pairs(tree_cols) do b.tree = b.tree + 2 end
  b.gazelle = 2 * gazelles

  -- Cheetahs score, then every gazelle they hunted goes face down.
  local down = {}
  for i = 1, n do
    if cells[i] == "cheetah" then
      for _, j in ipairs(s.diag[i]) do
        if cells[j] == "gazelle" then b.cheetah = b.cheetah + 3 end
      end
    end
  end
  for j in pairs(cheetah_prey(cells, s, n)) do down[j] = true end

  -- Lions next to a prairie each eat one face-up gazelle or zebra and score 4.
  local lions, prey = lion_options(cells, s, n, down)
  if lions > 0 and #prey > 0 then
    local eaten = 0
    if chosen then
      for _, i in ipairs(chosen) do
        if eaten < lions and not down[i] and (cells[i] == "gazelle" or cells[i] == "zebra") then
          down[i] = true
          eaten = eaten + 1
        end
      end
      lions, prey = lions - eaten, select(2, lion_options(cells, s, n, down))
    end
    local rest = lions > 0 and #prey > 0 and best_prey(cells, s, n, down, prey, math.min(lions, #prey), floor) or {}
    for _, i in ipairs(rest) do down[i] = true end
    b.lion = 4 * (eaten + #rest)
  end
  b.elephant, b.hyena, b.vulture = carcass_scores(cells, s, n, down, floor)
  return b, gazelles, down
end

-- Ranked majority with the rulebook's tie rule: tied seats all take their rank's points and
-- the next rank's points are not awarded. Seats need at least one card to rank.
local function majority(counts, points)
  local out = {}
  for seat, v in pairs(counts) do
    if v > 0 then
      local rank = 1
      for _, w in pairs(counts) do
        if w > v then rank = rank + 1 end
      end
      out[seat] = points[rank] or 0
    end
  end
  return out
end

function game.score(ctx, state)
  load_kinds(ctx)
  local floor = ctx.params.elephant_floor
  local seats = state:seats()
  local lines, gazelles = {}, {}
  for _, seat in ipairs(seats) do
    if seat.kind == "neutral" then
      gazelles[seat.seat] = state:zone("pile", seat.seat):count("gazelle")
    else
      local snap = state:grid(seat.seat):snapshot()
      local b, g = score_grid(snap, chosen_prey(state, seat.seat, snap), floor)
      gazelles[seat.seat] = g
      lines[seat.seat] = { breakdown = b }
    end
  end
  local bonus = majority(gazelles, { 5, 2 })
  local totals = {}
  for seat, line in pairs(lines) do
    line.breakdown.gazelle = line.breakdown.gazelle + (bonus[seat] or 0)
    local t = 0
    for _, v in pairs(line.breakdown) do t = t + v end
    line.total = t
    totals[seat] = t
  end
  local extra = nil
  if state.player_count == 1 then
    local margin = totals[1] - totals[2]
    local p = ctx.params
    local result = margin >= p.solo_target_hard and "hard win" or margin >= p.solo_target_normal and "normal win"
      or margin >= p.solo_target_easy and "easy win" or "loss"
    extra = { solo = result, margin = margin }
  end
  return lines, extra
end

-- After the draft: which seats have a real choice of prey for their lions (more face-up
-- gazelles and zebras than hungry lions). Jhay's choices belong to the solo player.
function game.after_draft(ctx, state)
  load_kinds(ctx)
  local decisions = {}
  for _, seat in ipairs(state:seats()) do
    if seat.kind ~= "neutral" then
      local snap = state:grid(seat.seat):snapshot()
      local n = snap.rows * snap.cols
      local s = shape(snap.rows, snap.cols)
      local down = {}
      for j in pairs(cheetah_prey(snap.cells, s, n)) do down[j] = true end
      local lions, prey = lion_options(snap.cells, s, n, down)
      if lions > 0 and #prey > lions then
        local cells = {}
        for _, i in ipairs(prey) do
          cells[#cells + 1] = { s.row[i] + snap.min_row, s.col[i] + snap.min_col }
        end
        decisions[#decisions + 1] = { grid = seat.seat, mover = seat.kind == "opponent" and 1 or seat.seat,
                                      lions = lions, prey = cells }
      end
    end
  end
  if #decisions > 0 then state.data.decisions = decisions end
end

function game.to_move(ctx, state)
  local decisions = state.data.decisions
  if not decisions then return {} end
  local movers, seen = {}, {}
  for _, d in ipairs(decisions) do
    if not seen[d.mover] then seen[d.mover] = true; movers[#movers + 1] = d.mover end
  end
  table.sort(movers)
  return movers
end

function game.legal_moves(ctx, state, seat)
  local decisions = state.data.decisions
  if not decisions then return {} end
  for _, d in ipairs(decisions) do
    if d.mover == seat then
      local moves = {}
      for _, cell in ipairs(d.prey) do
        moves[#moves + 1] = { type = "eat", grid = d.grid, cell = { cell[1], cell[2] } }
      end
      return moves
    end
  end
  return {}
end

game.moves = {}
function game.moves.eat(ctx, state, seat, move)
  local decisions = state.data.decisions
  for k, d in ipairs(decisions) do
    if d.mover == seat and d.grid == move.grid then
      if not state.data.eaten then state.data.eaten = {} end
      table.insert(state.data.eaten, { grid = move.grid, cell = { move.cell[1], move.cell[2] } })
      -- The lion has eaten: one fewer hungry lion, one fewer prey.
      local left = {}
      for _, cell in ipairs(d.prey) do
        if cell[1] ~= move.cell[1] or cell[2] ~= move.cell[2] then left[#left + 1] = { cell[1], cell[2] } end
      end
      local lions = d.lions - 1
      if lions > 0 and #left > lions then
        d.lions, d.prey = lions, left
      else
        table.remove(decisions, k)  -- no real choice left: scoring finishes it
      end
      if #decisions == 0 then state.data.decisions = nil end
      return
    end
  end
  return false, "no lion of yours is waiting to eat"
end

return game
