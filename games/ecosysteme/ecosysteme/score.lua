-- Écosystème base: the score table. game.score returns one line per scored seat,
-- {total =, breakdown = {category = points}} (scripting/README.md §2, "score"); in the
-- Écosystème games the categories are the card ids in the rulebook's order plus a few bonus
-- rows, so the table reads card by card and `plateau simulate` can report points per card.
-- M.assemble builds that table from a function that scores one grid; the smaller helpers
-- serve variants whose scoring needs its own loop (Océan's whale search).

local majority = require("ecosysteme.majority")
local scoring = require("ecosysteme.scoring")
local draft = require("ecosysteme.draft")
local check = require("ecosysteme.check")

local M = {}

-- The sum of a breakdown's categories, in the given order (a missing category counts 0).
function M.total(b, categories)
  local t = 0
  for c = 1, #categories do t = t + (b[categories[c]] or 0) end
  return t
end

-- The solo result for the player's margin over the opponent, from the parameters
-- solo_target_easy / _normal / _hard.
-- Open point (Savane and Océan READMEs): "battre Jhay de 55 points" is read as margin >= target.
function M.solo_result(margin, params)
  return margin >= params.solo_target_hard and "hard win" or margin >= params.solo_target_normal and "normal win"
    or margin >= params.solo_target_easy and "easy win" or "loss"
end

-- In a solo game, adds the result and the margin to `extra` (created when nil) and returns
-- it; otherwise returns `extra` unchanged.
function M.add_solo(state, lines, params, extra)
  local opponent = draft.solo_opponent(state)
  if opponent and lines[1] and lines[opponent] then
    local margin = lines[1].total - lines[opponent].total
    extra = extra or {}
    extra.solo = M.solo_result(margin, params)
    extra.margin = margin
  end
  return extra
end

local NONE = {}
local explain_lines   -- M.assemble's explanation (defined below, before it)

-- An explanation cut short by an error (a grid function that failed under --explain) must not
-- leave the sheets explaining for the calls after it: they would return watched breakdowns.
-- A breakdown's rows as they are now (an explanation compares them with what comes after).
local function copy_of(b)
  local copy = {}
  for name, x in pairs(b) do copy[name] = x end
  return copy
end

local function drop_stale_explanation(ctx)
  if scoring.explaining and not ctx.explain then scoring.explaining, scoring.written, scoring.noted = nil, nil, nil end
end

-- The whole score table. `spec`:
--   categories  the breakdown's categories in table order (game.categories); every one is
--               present in each line (0 when nothing scored) and the total is their sum
--   grid        function(seat, view, state, ctx) -> breakdown, count1, count2, ...: one grid's
--               own scores, then the count each majority compares, in the order of
--               `majorities`
--   majorities  list (at most 4) of {category =, points = {...}, ties = or ties_param =,
--               card =, add =}: the seats' counts are ranked (majority.lua; `ties` names the
--               tie reading, or `ties_param` the parameter that holds it) and the points go
--               into `category`, added to what the grid scored there when `add` is true,
--               replacing it otherwise. The neutral seat ranks with its pile's copies of
--               `card` (no `card`: it takes no place)
--   finish      function(seat, breakdown, ctx) -> total or nil: runs after the majorities (a
--               bonus that looks at every category; a category nothing has scored yet may
--               still be missing). It may return the seat's total (the sum of the breakdown
--               as it leaves it), which spares the bots' totals summing it again; `plateau
--               test` holds those totals to the score's
--   extra       function(lines, state, ctx) -> table: the score's extra (or nil)
--   solo        true: add the solo result (solo_target_* parameters) to the extra
--   memo        true: M.totals may keep a seat's grid result while its grid and state.data
--               are unchanged (see M.totals for what that promises)
--   fresh_breakdowns  true: `grid` returns a new table on every call, which nothing else
--               keeps: M.evaluate_moves then works a pick's majorities and finish on that table
--               itself instead of a copy
--   grid_total  function(seat, view, state, ctx) -> total, count1, ...: optional, the sum of
--               what `grid` gives and the same counts, without the breakdown table; used by
--               M.evaluate_moves and M.totals when there is no finish and every majority adds
-- Every seat is scored but the neutral one, the solo opponent included. A spec holds no game
-- state, so it can be built once (a module-level table) and reused by every call.
--   unscored    card ids that score nothing by design (no row, no rule)
--   scored_in_lua  categories the grid or finish function scores in its own Lua code (not a
--               score sheet entry, not a majority)
-- Every card the deck deals (count > 0) must score somewhere: a category of the score table
-- with a rule (a score sheet entry with that score, a majority paying it, or listed in
-- scored_in_lua), or listed in spec.unscored when it scores nothing by design. Checked once
-- per spec (and at load by game.check, see M.check), so a mod that adds a card and forgets
-- its rule is refused at once, naming the card's entry in the data file.
local checked = {}  -- specs are module-level tables: a handful per rules instance

local function check_cards(ctx, spec)
  if checked[spec] then return end
  if type(spec.categories) ~= "table" then check.fail("score.assemble: the table needs categories = {...} (game.categories)") end
  if type(spec.grid) ~= "function" then check.fail("score.assemble: the table needs grid = function(seat, view) ... end") end
  local known, categories = {}, {}
  for _, name in ipairs(spec.categories) do known[name] = true; categories[name] = true end
  for _, name in ipairs(spec.unscored or {}) do
    check.card(ctx, name, "score.assemble: unscored")
    known[name] = true
  end
  -- A majority's card and category are checked here, once: a misspelt card would rank every
  -- seat at 0 copies, a misspelt category would pay points that never reach the total.
  for m, maj in ipairs(spec.majorities or NONE) do
    local what = "score.assemble: majority #" .. m
    if type(maj.points) ~= "table" then check.fail(what .. " needs points = {first, second, ...}") end
    if not categories[maj.category] then
      check.fail(what .. ": category '" .. tostring(maj.category) .. "' is not a category of the score table (" ..
                 check.names(spec.categories) .. ")")
    end
    if maj.card ~= nil then check.card(ctx, maj.card, what) end
  end
  local ruled = {}
  for name in pairs(scoring.scored) do ruled[name] = true end
  for _, maj in ipairs(spec.majorities or NONE) do ruled[maj.category] = true end
  for _, name in ipairs(spec.scored_in_lua or {}) do
    if not categories[name] then
      check.fail("score.assemble: scored_in_lua: '" .. tostring(name) .. "' is not a category of the score table (" ..
                 check.names(spec.categories) .. ")" .. check.suggest(ctx, name))
    end
    ruled[name] = true
  end
  -- Every card at fault is named at once (a modder adding four cards fixes four, not one per run):
  -- the first with the whole explanation, the others by their data path.
  local cards = check.cards_data(ctx)
  local file = cards["$file"] or "data/cards.json"
  local faults = {}
  local function fault(path, id, short, long)
    if #faults == 0 then faults[1] = file .. ": at " .. path .. ": card '" .. id .. "' " .. short .. long
    else faults[#faults + 1] = "  also at " .. path .. ": card '" .. id .. "' " .. short end
  end
  for i, card in ipairs(cards.cards) do
    local at = "/cards/" .. (i - 1)
    if card.count == nil then   -- the deck could not be dealt: said here, at load, by the data's path
      fault(at, card.id, "has no count", " (the copies of it in the deck)")
    else
      local dealt = card.count > 0
      if dealt and not known[card.id] then
        fault(at .. "/id", card.id, "has no scoring rule",
              ": add it to game.categories and score it in rules.lua, or list it in the" ..
              " score table's `unscored` if it scores nothing by design")
      elseif dealt and categories[card.id] and not ruled[card.id] then
        fault(at .. "/id", card.id, "is a row of the score table but no rule scores it",
              " (no score sheet entry has score = '" .. card.id .. "', no majority pays it, and the" ..
              " table's `scored_in_lua` does not list it): write its rule, or move it from game.categories to the" ..
              " table's `unscored` if it scores nothing by design")
      end
    end
  end
  if #faults > 0 then error(table.concat(faults, "\n"), 0) end
  checked[spec] = true
end

-- The checks of a score table against the card data, for game.check (run once when the rules
-- load: a refusal there is bad input, exit 2, and nothing loads). Compile the score sheets
-- first: the check reads which categories they score.
--   function game.check(ctx) load(ctx); table_score.check(ctx, TABLE) end
function M.check(ctx, spec)
  checked[spec] = nil
  check_cards(ctx, spec)
end

-- The grid function of a table returned no breakdown, or fewer majority counts than the table
-- declares majorities: the message says what came back and what was expected.
local function bad_grid(b, nmaj, majorities, seat, c1, c2, c3, c4)
  if type(b) ~= "table" then
    check.fail("score.assemble: the grid function returned " .. type(b) .. " for seat " .. seat ..
               ", not a breakdown table")
  end
  local got, names = 0, {}
  for m = 1, nmaj do
    local counts = m == 1 and c1 or m == 2 and c2 or m == 3 and c3 or c4
    if counts[seat] ~= nil and got == m - 1 then got = m end
    names[m] = tostring(majorities[m].category)
  end
  check.fail("score.assemble: the grid function returned " .. got .. " majority count(s) for seat " .. seat ..
             ", but the table declares " .. nmaj .. " (" .. table.concat(names, ", ") ..
             "): return the breakdown, then one count per majority in that order")
end

-- `plateau score --explain` (ctx.explain): how each row of each seat's line was scored, as
-- lines of text for the score's extra.explain. Per row: each score sheet entry that adds to it
-- (its line in the variant, its query, what it counted cell by cell), what the grid function's
-- own Lua set beyond the sheets, what a majority paid (with every seat's count), and what
-- `finish` changed. `explaining` holds, per seat, what M.assemble recorded on the way.
-- The lines of Lua that set `row` (recorded by scoring.watch), one line of text each, added
-- to `out`; whether there were any.
local function writes(written, row, who, out)
  local any = false
  for _, w in ipairs(written or NONE) do
    if w.row == row then
      any = true
      out[#out + 1] = "      = " .. tostring(w.value) .. "  set by " .. who .. " at " .. w.where
    end
  end
  return any
end

explain_lines = function(state, spec, lines, explaining)
  local out = {}
  local majorities = spec.majorities or NONE
  local names = {}
  for _, seat in ipairs(state:seats()) do names[seat.seat] = seat.name end
  for k = 1, state.seat_count do
    local line, rec = lines[k], explaining[k]
    if line and rec then
      out[#out + 1] = tostring(names[k]) .. ": " .. line.total .. " points"
      for _, row in ipairs(spec.categories) do
        local points = line.breakdown[row] or 0
        out[#out + 1] = string.format("  %-12s %4d", row, points)
        local from_sheets = 0
        for _, e in ipairs(rec.entries or NONE) do
          if e.score == row then
            from_sheets = from_sheets + e.points
            local how = e.per ~= 1 and (" = " .. e.per .. " × " .. e.n) or ""
            out[#out + 1] = "      +" .. e.points .. how .. "  " .. e.where .. "  " .. e.text
          end
        end
        local in_lua = (rec.grid[row] or 0) - from_sheets
        local wrote = writes(rec.written, row, "the grid function", out)
        if in_lua ~= 0 and not wrote then
          out[#out + 1] = "      " .. (in_lua > 0 and "+" or "") .. in_lua .. "  set by the grid function's own Lua"
        end
        local cells = {}
        for _, note in ipairs(rec.noted or NONE) do
          if note.row == row then cells[#cells + 1] = "(" .. note.r .. "," .. note.c .. ") " .. tostring(note.n) end
        end
        if #cells > 0 then out[#out + 1] = "        noted (scoring.note): " .. table.concat(cells, " · ") end
        for m, maj in ipairs(majorities) do
          local paid = rec.pays[m]
          if maj.category == row and paid then
            local counts = {}
            for s = 1, state.seat_count do
              if paid.counts[s] ~= nil then counts[#counts + 1] = tostring(names[s]) .. " " .. tostring(paid.counts[s]) end
            end
            out[#out + 1] = "      " .. (maj.add and "+" or "= ") .. paid.pay .. "  the majority" ..
              (maj.card and (" of " .. maj.card) or "") .. " (points " .. table.concat(maj.points, "/") ..
              " by place): counts " .. table.concat(counts, ", ")
          end
        end
        if rec.before_finish then
          local change = points - (rec.before_finish[row] or 0)
          local in_finish = writes(rec.finish_written, row, "finish", out)
          if change ~= 0 and not in_finish then
            out[#out + 1] = "      " .. (change > 0 and "+" or "") .. change .. "  set by the table's finish function"
          end
        end
      end
      for _, e in ipairs(rec.entries or NONE) do
        if not e.score and (e.keep or e.n ~= 0) then
          out[#out + 1] = "  " .. (e.keep and ("kept " .. e.keep .. " = ") or "no row: ") .. e.n .. "  " .. e.where .. "  " .. e.text
        end
      end
    end
  end
  return out
end

function M.assemble(ctx, state, spec)
  check_cards(ctx, spec)
  drop_stale_explanation(ctx)
  local explaining = ctx.explain and {} or nil
  local nseats = state.seat_count
  local majorities = spec.majorities or NONE
  local nmaj = #majorities
  if nmaj > 4 then error("score.assemble: at most 4 majorities", 2) end
  -- One table of counts per majority (c1 .. c4), by seat.
  local lines, c1, c2, c3, c4 = {}, nmaj >= 1 and {}, nmaj >= 2 and {}, nmaj >= 3 and {}, nmaj >= 4 and {}
  local grid = spec.grid
  local players = state.player_count   -- players come first; only later seats need a kind check
  for k = 1, nseats do
    if k > players and state:kind(k) == "neutral" then
      local pile = state:zone("pile", k)
      for m = 1, nmaj do
        local card = majorities[m].card
        if card then
          local counts = m == 1 and c1 or m == 2 and c2 or m == 3 and c3 or c4
          counts[k] = pile:count(card)
        end
      end
    else
      local v = state:grid(k):view()
      local b
      if explaining then scoring.explaining, scoring.written, scoring.noted = {}, {}, {} end
      if nmaj == 0 then b = grid(k, v, state, ctx)
      elseif nmaj == 1 then b, c1[k] = grid(k, v, state, ctx)
      elseif nmaj == 2 then b, c1[k], c2[k] = grid(k, v, state, ctx)
      elseif nmaj == 3 then b, c1[k], c2[k], c3[k] = grid(k, v, state, ctx)
      else b, c1[k], c2[k], c3[k], c4[k] = grid(k, v, state, ctx) end
      -- A grid function that forgets its counts would rank that seat as holding none.
      if type(b) ~= "table" or (nmaj >= 1 and (c1[k] == nil or (nmaj >= 2 and (c2[k] == nil or
          (nmaj >= 3 and (c3[k] == nil or (nmaj >= 4 and c4[k] == nil))))))) then
        bad_grid(b, nmaj, majorities, k, c1, c2, c3, c4)
      end
      if explaining then
        b = scoring.unwatch(b)
        explaining[k] = { entries = scoring.explaining, grid = copy_of(b), pays = {}, written = scoring.written,
                          noted = scoring.noted }
        scoring.explaining, scoring.written, scoring.noted = nil, nil, nil
      end
      lines[k] = { breakdown = b }
    end
  end
  for m = 1, nmaj do
    local maj = majorities[m]
    local ties = maj.ties_param and ctx.params[maj.ties_param] or maj.ties
    local pay = majority.points(m == 1 and c1 or m == 2 and c2 or m == 3 and c3 or c4, nseats, maj.points, ties)
    local category, add = maj.category, maj.add
    for k = 1, nseats do
      local line = lines[k]
      if line then
        local b = line.breakdown
        if add then b[category] = (b[category] or 0) + pay[k] else b[category] = pay[k] end
        if explaining then
          explaining[k].pays[m] = { pay = pay[k], counts = m == 1 and c1 or m == 2 and c2 or m == 3 and c3 or c4 }
        end
      end
    end
  end
  local categories, finish = spec.categories, spec.finish
  for k = 1, nseats do
    local line = lines[k]
    if line then
      local b = line.breakdown
      if explaining and finish then
        explaining[k].before_finish = copy_of(b)
        scoring.written = {}
        local proxy = scoring.watch(b)
        finish(k, proxy, ctx)
        scoring.unwatch(proxy)
        explaining[k].finish_written = scoring.written
        scoring.written = nil
      elseif finish then
        finish(k, b, ctx)
      end
      -- Missing categories become 0 (a card that scored nothing still has its row).
      local t = 0
      for c = 1, #categories do
        local name = categories[c]
        local x = b[name]
        if not x then x = 0; b[name] = 0 end
        t = t + x
      end
      line.total = t
    end
  end
  local extra = spec.extra and spec.extra(lines, state, ctx) or nil
  if spec.solo then extra = M.add_solo(state, lines, ctx.params, extra) end
  if explaining then
    extra = extra or {}
    extra.explain = explain_lines(state, spec, lines, explaining)
  end
  return lines, extra
end

-- Each seat's total as M.assemble(ctx, state, spec) gives it, and nothing else: the `totals`
-- hook (scripting/README.md), which the greedy bots call for every candidate move they weigh.
-- With `spec.memo = true` a seat's grid is scored again only when its grid or state.data has
-- changed since it was last scored (grid:version(), state:data_version()), and a candidate
-- move changes one grid of four. That promises that `spec.grid` reads nothing but the seat's
-- grid, state.data and ctx.params (a grid function that counts a hand must not set it); and
-- that `spec.finish`, when there is one, reads only the table's categories. The host holds
-- this to M.assemble's totals at every state its conformance checks reach (`plateau test`).
local memos = {}     -- per spec: {params =, [seat] = {grid =, data =, b =, sum =, [m] = count}}
local counts = { {}, {}, {}, {} }   -- per majority, by seat (reused: filled for every seat)
local pays = { {}, {}, {}, {} }     -- per majority, the points by seat (reused the same way)
local breakdowns, sums = {}, {}     -- by seat (false for the neutral seat)
local entries = {}                  -- by seat, the memo's entry (false: none)
local scratch = {}   -- the breakdown a finish function or a replacing majority works on
local fresh = {}     -- the entry of a seat scored without spec.memo

local function fast_path(spec)
  if spec.finish then return false end
  for _, maj in ipairs(spec.majorities or NONE) do
    if not maj.add then return false end
  end
  return true
end
local fast = {}      -- per spec: whether totals are the grid sums plus the majority points
local function is_fast_spec(spec)
  local is_fast = fast[spec]
  if is_fast == nil then is_fast = fast_path(spec); fast[spec] = is_fast end
  return is_fast
end

-- Refuses a grid function's result for seat k that is not a breakdown followed by one count
-- per majority (bad_grid names the mistake).
local function check_result(b, nmaj, majorities, k, x1, x2, x3, x4)
  if type(b) ~= "table" or (nmaj >= 1 and (x1 == nil or (nmaj >= 2 and (x2 == nil or
      (nmaj >= 3 and (x3 == nil or (nmaj >= 4 and x4 == nil))))))) then
    local c1, c2, c3, c4 = { [k] = x1 }, { [k] = x2 }, { [k] = x3 }, { [k] = x4 }
    bad_grid(b, nmaj, majorities, k, c1, c2, c3, c4)
  end
end

-- Refuses a grid_total result for seat k that is not a finite number followed by one count
-- per majority (one test on the way through: it runs for every candidate pick).
local function check_sum(sum, nmaj, k, x1, x2, x3, x4)
  if type(sum) == "number" and sum - sum == 0 and (nmaj == 0 or x1 ~= nil and (nmaj == 1 or x2 ~= nil and
      (nmaj == 2 or x3 ~= nil and (nmaj == 3 or x4 ~= nil)))) then
    return
  end
  if type(sum) ~= "number" or sum - sum ~= 0 then
    check.fail("score.evaluate_moves: the table's grid_total returned " .. tostring(sum) .. " for seat " .. k ..
               ", not a finite number (the grid's total)")
  end
  check.fail("score.evaluate_moves: the table's grid_total returned fewer counts for seat " .. k .. " than the table's " ..
             nmaj .. " majorities: return the total, then one count per majority in their order, as grid does")
end

-- The first half of M.totals: each seat's grid result (breakdowns, sums, counts and, with
-- the memo, entries), kept between calls where the memo allows. Returns the memo (or nil).
local function gather(ctx, state, spec, nmaj)
  local majorities = spec.majorities or NONE
  local memo
  if spec.memo then
    memo = memos[spec]
    if not memo or memo.params ~= ctx.params then
      memo = { params = ctx.params }
      memos[spec] = memo
    end
  end
  local categories, grid = spec.categories, spec.grid
  local grid_total = is_fast_spec(spec) and spec.grid_total
  local data = memo and state:data_version()
  local players = state.player_count
  for k = 1, state.seat_count do
    if k > players and state:kind(k) == "neutral" then
      local pile = state:zone("pile", k)
      for m = 1, nmaj do
        local card = majorities[m].card
        counts[m][k] = card and pile:count(card) or nil
      end
      breakdowns[k], entries[k] = false, false
    else
      local g = state:grid(k)
      local e, version
      if memo then
        version = g:version()
        e = memo[k]
        if not e then e = {}; memo[k] = e end
      else
        e = fresh
      end
      if not memo or e.grid ~= version or e.data ~= data then
        e.grid = nil   -- a refused result leaves the entry stale
        if grid_total then
          -- Totals that are grid sums plus majority points need no breakdown (spec.grid_total).
          local sum, x1, x2, x3, x4 = grid_total(k, g:view(), state, ctx)
          check_sum(sum, nmaj, k, x1, x2, x3, x4)
          e.b, e[1], e[2], e[3], e[4], e.sum = true, x1, x2, x3, x4, sum
        else
          local b, x1, x2, x3, x4 = grid(k, g:view(), state, ctx)
          check_result(b, nmaj, majorities, k, x1, x2, x3, x4)
          e.b, e[1], e[2], e[3], e[4] = b, x1, x2, x3, x4
          e.sum = M.total(b, categories)
        end
        e.grid, e.data = version, data
        e.finished = nil
      end
      for m = 1, nmaj do counts[m][k] = e[m] end
      breakdowns[k], sums[k] = e.b, e.sum
      if memo then entries[k] = e end
    end
  end
  return memo
end

-- A seat's total where a finish or a replacing majority works on its breakdown: `b` copied
-- (categories only) and worked on as M.assemble works on it, the majorities paying paid[m].
-- `in_place`: b is a pick's own fresh breakdown (spec.fresh_breakdowns), worked on itself.
local seat_pays = {}
local function worked_total(k, b, majorities, nmaj, categories, finish, ctx, paid, in_place)
  local work = b
  if not in_place then
    work = scratch
    for c = 1, #categories do
      local name = categories[c]
      work[name] = b[name]
    end
  end
  for m = 1, nmaj do
    local maj = majorities[m]
    local category = maj.category
    if maj.add then work[category] = (work[category] or 0) + paid[m] else work[category] = paid[m] end
  end
  if finish then
    local total = finish(k, work, ctx)
    if total ~= nil then
      if type(total) ~= "number" then
        check.fail("score.totals: the table's finish returned " .. type(total) .. " for seat " .. k ..
                   ": return the seat's total (a number) or nothing")
      end
      return total
    end
  end
  return M.total(work, categories)
end

-- The second half of M.totals: the majorities and each seat's total from what gather left.
local function finish_totals(ctx, spec, nseats, nmaj, memo)
  local majorities, categories = spec.majorities or NONE, spec.categories
  local is_fast = is_fast_spec(spec)
  local totals = { nil, nil, nil, nil }   -- sized for four seats up front
  for k = 1, nseats do
    if breakdowns[k] then totals[k] = sums[k] end
  end
  for m = 1, nmaj do
    local maj = majorities[m]
    local ties = maj.ties_param and ctx.params[maj.ties_param] or maj.ties
    majority.points(counts[m], nseats, maj.points, ties, pays[m])
  end
  if is_fast then
    for m = 1, nmaj do
      local pay = pays[m]
      for k = 1, nseats do
        if breakdowns[k] then totals[k] = totals[k] + pay[k] end
      end
    end
    return totals
  end
  -- A finish or a replacing majority: each seat's breakdown is copied (categories only) and
  -- worked on as M.assemble works on it, the cached one left as the grid function made it.
  -- With the memo, a seat's finished total is kept while its grid result and the majority
  -- points it receives are the same (a candidate move seldom changes another seat's places).
  local finish = spec.finish
  for k = 1, nseats do
    local b = breakdowns[k]
    local e = memo and entries[k]
    local kept = e and e.finished
    if kept then
      for m = 1, nmaj do
        if kept[m] ~= pays[m][k] then kept = nil; break end
      end
    end
    if kept then
      totals[k] = kept.total
    elseif b then
      for m = 1, nmaj do seat_pays[m] = pays[m][k] end
      totals[k] = worked_total(k, b, majorities, nmaj, categories, finish, ctx, seat_pays)
      if e then
        local f = { total = totals[k] }
        for m = 1, nmaj do f[m] = pays[m][k] end
        e.finished = f
      end
    end
  end
  return totals
end

function M.totals(ctx, state, spec)
  check_cards(ctx, spec)
  drop_stale_explanation(ctx)
  local nmaj = spec.majorities and #spec.majorities or 0
  if nmaj > 4 then error("score.assemble: at most 4 majorities", 2) end
  local memo = gather(ctx, state, spec, nmaj)
  return finish_totals(ctx, spec, state.seat_count, nmaj, memo)
end

-- The greedy bots' value of every card a seat may place in the draft, at once (a game's
-- evaluate_moves hook calls this with its table, as totals does): the host's default measure
-- after the pick (the seat's total minus half the best other total), which a trial finds by
-- placing the card and calling totals. A pick changes the picker's grid alone, so the other
-- seats' results are gathered once for the decision and each pick scores one grid, on a view
-- of the grid with the card placed (grid:view(r, c, card)). Needs spec.memo (the promise that
-- a grid's result reads only that grid, state.data and the parameters: the hand a pick takes
-- the card from is not read). Other decisions (questions, solo picks) get no values: the
-- host tries their moves. `plateau test` holds every value to its trial, exactly.
function M.evaluate_moves(ctx, state, seat, moves, spec)
  local values = {}
  if not spec.memo or state.player_count < 2 or state.phase ~= "draft" or #moves == 0 then return values end
  for t = 1, #moves do
    local m = moves[t]
    if m.type ~= "place" or not m.cell then return values end
  end
  check_cards(ctx, spec)
  drop_stale_explanation(ctx)
  local majorities = spec.majorities or NONE
  local nmaj = #majorities
  if nmaj > 4 then error("score.assemble: at most 4 majorities", 2) end
  local memo = gather(ctx, state, spec, nmaj)
  local categories, grid = spec.categories, spec.grid
  local g = state:grid(seat)
  local nseats = state.seat_count
  -- A pick changes the others' totals, and the majority points it receives, only through
  -- its majority counts: both are kept by those counts for the decision. Its own total is
  -- then its grid's sum plus those points, or (a finish, a replacing majority) its breakdown
  -- worked on as finish_totals works on it.
  local is_fast = is_fast_spec(spec)
  local finish = spec.finish
  local by_count = {}
  -- A table whose totals are the grid sums plus majority points may give the sum alone
  -- (spec.grid_total): no breakdown table per pick.
  local grid_total = is_fast and spec.grid_total
  -- A grid function that builds a new breakdown on every call lets a pick's be worked on
  -- itself (spec.fresh_breakdowns): no copy per pick.
  local in_place = spec.fresh_breakdowns
  for t = 1, #moves do
    local m = moves[t]
    local b, sum, x1, x2, x3, x4
    if grid_total then
      sum, x1, x2, x3, x4 = grid_total(seat, g:view(m.cell[1], m.cell[2], m.card), state, ctx)
      -- The usual case (a finite number, then the counts) passes without a call.
      if not (type(sum) == "number" and sum - sum == 0 and (nmaj == 0 or x1 ~= nil and (nmaj == 1 or x2 ~= nil and
          (nmaj == 2 or x3 ~= nil and (nmaj == 3 or x4 ~= nil))))) then
        check_sum(sum, nmaj, seat, x1, x2, x3, x4)
      end
      b = true
    else
      b, x1, x2, x3, x4 = grid(seat, g:view(m.cell[1], m.cell[2], m.card), state, ctx)
      check_result(b, nmaj, majorities, seat, x1, x2, x3, x4)
      -- Only the sum plus the majority points is a total: otherwise the breakdown is worked on.
      if is_fast then sum = M.total(b, categories) end
    end
    -- The leaf of the counts' tree (nil when a count cannot be a key: NaN).
    local node = by_count
    if nmaj == 1 and x1 == x1 then   -- one majority, the common case: one level
      node = by_count[x1]
      if not node then node = {}; by_count[x1] = node end
    else
      for k = 1, nmaj do
        local x
        if k == 1 then x = x1 elseif k == 2 then x = x2 elseif k == 3 then x = x3 else x = x4 end
        if x ~= x then node = nil; break end
        local next_node = node[x]
        if not next_node then next_node = {}; node[x] = next_node end
        node = next_node
      end
    end
    local mine, best
    if node and node.paid then
      best = node.best or nil
      if is_fast then
        local paid = node.paid
        mine = sum
        for k = 1, nmaj do mine = mine + paid[k] end
      else
        mine = worked_total(seat, b, majorities, nmaj, categories, finish, ctx, node.paid, in_place)
      end
    else
      counts[1][seat], counts[2][seat], counts[3][seat], counts[4][seat] = x1, x2, x3, x4
      breakdowns[seat], sums[seat], entries[seat] = b, sum, false
      local totals = finish_totals(ctx, spec, nseats, nmaj, memo)
      mine = totals[seat] or 0
      for k = 1, nseats do
        local v = totals[k]
        if v and k ~= seat and (not best or v > best) then best = v end
      end
      if node then
        local paid = {}
        for k = 1, nmaj do paid[k] = pays[k][seat] end
        node.paid, node.best = paid, best or false
      end
    end
    values[t] = best and mine - 0.5 * best or mine
  end
  return values
end

return M
