-- Écosystème base: helpers for the scenario tests of the games that extend the base (a test
-- file does `local T = require("ecosysteme.testing")`). They drive games through the test API
-- (scripting/README.md §7: new_game, board, expect_eq, ...), so they only work in test files.
-- Boards are 4 x 5 lists of rows, top row first, as board{} takes them.

local check = require("ecosysteme.check")
local M = {}

M.ROWS, M.COLS = 4, 5

---------------------------------------------------------------------------------------------
-- Lists of card ids

-- {id = number of copies} of a list of card ids.
function M.counts(list)
  local out = {}
  for _, id in ipairs(list) do out[id] = (out[id] or 0) + 1 end
  return out
end

-- A sorted copy of a list.
function M.sorted(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  table.sort(out)
  return out
end

-- `list` without one copy of `card`, sorted; the test fails when `card` is not in it.
function M.without(list, card)
  local out, removed = {}, false
  for _, v in ipairs(list) do
    if v == card and not removed then removed = true else out[#out + 1] = v end
  end
  expect_true(removed, "'" .. card .. "' was in the list")
  return M.sorted(out)
end

---------------------------------------------------------------------------------------------
-- Boards

-- A rows x cols grid (4 x 5 by default) holding `card` everywhere: the filler a scoring test
-- changes a few cells of.
function M.filled(card, rows, cols)
  local grid = {}
  for r = 1, rows or M.ROWS do
    grid[r] = {}
    for c = 1, cols or M.COLS do grid[r][c] = card end
  end
  return grid
end

-- `grid` with its first `n` cells, in reading order, set to `card` (the grid is changed and
-- returned).
function M.with_first(grid, n, card)
  local cols = #grid[1]
  for k = 1, n do grid[1 + (k - 1) // cols][1 + (k - 1) % cols] = card end
  return grid
end

-- A copy of a grid (rows of card ids).
function M.copy_grid(grid)
  local out = {}
  for r, row in ipairs(grid) do
    out[r] = {}
    for c, v in ipairs(row) do out[r][c] = v end
  end
  return out
end

-- Whether the seat's grid is a full rows x cols rectangle (4 x 5 by default).
function M.full_grid(g, seat, rows, cols)
  rows, cols = rows or M.ROWS, cols or M.COLS
  local grid = g:grid(seat)
  if #grid ~= rows then return false end
  for _, row in ipairs(grid) do
    if #row ~= cols then return false end
    for _, c in ipairs(row) do if not c then return false end end
  end
  return true
end

---------------------------------------------------------------------------------------------
-- Scores

-- The sum of a score line's breakdown.
function M.line_sum(line)
  local t = 0
  for _, v in pairs(line.breakdown) do t = t + v end
  return t
end

-- The score line of a seat, by name or number; the test fails when there is none.
function M.line(g, who)
  local s = g:score()
  if type(who) == "number" then
    expect_true(s[who], "a score line for seat " .. who)
    return s[who]
  end
  for k, line in pairs(s) do
    if type(k) == "number" and line.name == who then return line end
  end
  expect_true(false, "a score line for " .. tostring(who))
end

-- A score line's rows, sorted (for messages).
function M.rows_of(line)
  local names = {}
  for c in pairs(line.breakdown) do names[#names + 1] = c end
  table.sort(names)
  return names
end

-- How the rows `rows` of `who`'s line were scored, as `plateau score --explain` says it (each
-- rule's line and what it counted, cell by cell): appended to a failing line check, so the
-- modder sees which cells the rule counted instead of working the board out again. "" when
-- the game's score gives no explanation.
function M.explain_rows(g, who, rows)
  local ok, s = pcall(g.score, g, { explain = true })
  local lines = ok and s.extra and s.extra.explain
  if type(lines) ~= "table" then return "" end
  local wanted = {}
  for _, r in ipairs(rows) do wanted[r] = true end
  local out, mine, keep = {}, false, false
  for _, text in ipairs(lines) do
    local seat = text:match("^(%S.-): %-?%d+ points$")
    if seat then
      mine = seat == tostring(who) or (type(who) == "number" and s[who] and s[who].name == seat)
    elseif mine then
      local row = text:match("^  (%S+)%s+%-?%d+$")
      if row then keep = wanted[row] end
      if keep and not text:match("^  kept ") and not text:match("^  no row: ") then out[#out + 1] = text end
    end
  end
  if #out == 0 then return "" end
  return "\n  how they were scored (plateau score --explain):\n" .. table.concat(out, "\n")
end

-- A checker of score lines: expect_line(g, who, partial) passes when each row the checker
-- checks is as `partial` gives it (0 when not listed) and the line's total is the sum of its
-- rows. Without `categories` every row of the line is checked (the game's categories): a card
-- added later scores 0 on a board without it, but a row that scores without its own card (a
-- bonus set in `finish`) scores on every board, and each test's lines must then give it. With
-- `categories`, only those rows are checked, and the line's other rows (a bonus added after
-- the tests were written) count in its total as they are. `required` lists the rows a test
-- must always give (a bonus that no board can leave at 0, say).
function M.line_checker(categories, required)
  return function(g, who, partial)
    for _, c in ipairs(required or {}) do
      expect_true(partial[c] ~= nil, "the expected line gives its " .. c)
    end
    local line = M.line(g, who)
    local rows = categories
    if rows == nil then
      rows = {}
      for c in pairs(line.breakdown) do rows[#rows + 1] = c end
    end
    local checked = {}
    for _, c in ipairs(rows) do checked[c] = true end
    for c in pairs(partial) do
      if line.breakdown[c] == nil then
        check.fail(tostring(who) .. ": the score line has no row '" .. tostring(c) .. "' (its rows: " ..
                   table.concat(M.rows_of(line), ", ") .. ")")
      end
      if not checked[c] then
        check.fail(tostring(who) .. ": row '" .. tostring(c) .. "' is not one this checker checks (" ..
                   table.concat(rows, ", ") .. "): add it to the list given to line_checker")
      end
    end
    local want, got, total = {}, {}, 0
    for _, c in ipairs(rows) do
      want[c], got[c] = partial[c] or 0, line.breakdown[c]
      total = total + want[c]
    end
    for c, x in pairs(line.breakdown) do
      if not checked[c] then total = total + x end
    end
    -- Only the rows that differ, each by name: a whole line of a dozen rows is a diff by eye.
    local differ = {}
    for _, c in ipairs(rows) do
      if got[c] ~= want[c] then differ[#differ + 1] = c end
    end
    table.sort(differ)
    local got_text, want_text = {}, {}
    for k, c in ipairs(differ) do
      got_text[k], want_text[k] = c .. " = " .. tostring(got[c]), c .. " = " .. tostring(want[c])
    end
    if #differ > 0 then
      -- expect_eq's words, then how the rows that differ were scored (when the game says it).
      check.fail(tostring(who) .. " (the rows that differ): expected \"" .. table.concat(want_text, ", ") ..
                 "\", got \"" .. table.concat(got_text, ", ") .. "\"" .. M.explain_rows(g, who, differ))
    end
    expect_eq(line.total, total, tostring(who) .. ": total")
  end
end

-- One grid per seat (named P1, P2, ...) scored together: the list of each seat's `category`.
-- The majorities' tables of points read well this way: {4, 4, 3} -> {8, 8, 0}.
function M.category_by_seat(grids, category, params)
  local players = {}
  for k, grid in ipairs(grids) do players[k] = { name = "P" .. k, grid = grid } end
  players.params = params
  local s = board(players):score()
  local out = {}
  for k = 1, #grids do out[k] = s[k].breakdown[category] end
  return out
end

---------------------------------------------------------------------------------------------
-- Playing

-- Every listed seat makes its first legal pick (seats 1..n when `seats` is a number); returns
-- the cards picked, by seat.
function M.first_picks(g, seats)
  local list = seats
  if type(seats) == "number" then
    list = {}
    for k = 1, seats do list[k] = k end
  end
  local picked = {}
  for _, seat in ipairs(list) do
    local m = g:moves(seat)[1]
    g:play(seat, m)
    picked[seat] = m.card
  end
  return picked
end

-- The hands of seats 1..n.
function M.hands(g, n)
  local out = {}
  for seat = 1, n do out[seat] = g:zone("hand", seat) end
  return out
end

local DRAFT_MOVES = { place = true, give = true }

-- Answers every open question (a lion's prey, an octopus, a whale...) with its first option,
-- until the game ends or a draft move is expected.
function M.answer_questions(g)
  for _ = 1, 100 do
    local seats = g:to_move()
    if #seats == 0 then return end
    local m = g:moves(seats[1])[1]
    if not m or DRAFT_MOVES[m.type] then return end
    g:play(seats[1], m)
  end
  error("questions did not end")
end

---------------------------------------------------------------------------------------------
-- Solo games

-- A solo game played with a fixed policy: the first legal place, questions answered with their
-- first option, the first card of the sorted hand given to the opponent. Records the gifts and
-- the hand size before and after each turn. `answer_end`: also answer the questions asked
-- after the draft (otherwise the score takes its best choice for them).
function M.solo_scripted(seed, params, answer_end)
  local g = new_game{ players = 1, seed = seed, params = params }
  local gifts, before, after = {}, {}, {}
  for turn = 1, M.ROWS * M.COLS do
    before[turn] = #g:zone("hand", 1)
    g:play(1, g:moves(1)[1])
    M.answer_questions(g)
    local give = M.sorted(g:zone("hand", 1))[1]
    gifts[turn] = give
    g:play(1, { type = "give", card = give })
    after[turn] = #g:zone("hand", 1)
  end
  if answer_end then M.answer_questions(g) end
  return g, gifts, before, after
end

-- The cards drawn after each of the first 19 turns of a solo game (a turn takes two cards from
-- the hand: one placed, one given).
function M.solo_draws(before, after)
  local draws = {}
  for turn = 1, #before - 1 do draws[turn] = after[turn] - (before[turn] - 2) end
  return draws
end

-- The solo result in the score's extra follows the margin over the opponent and the targets
-- (easy, normal, hard): `play(params)` returns the same finished solo game for any targets.
function M.check_solo_targets(play, easy, normal, hard)
  local s = play():score()
  local margin = s[1].total - s[2].total
  expect_eq(s.extra.margin, margin, "margin = player's total - the opponent's total")
  local expected = margin >= hard and "hard win" or margin >= normal and "normal win" or margin >= easy and "easy win"
    or "loss"
  expect_eq(s.extra.solo, expected, "default targets")
  -- Targets set around the margin: reaching a target exactly counts.
  local cases = {
    { { solo_target_easy = margin - 2, solo_target_normal = margin - 1, solo_target_hard = margin }, "hard win" },
    { { solo_target_easy = margin - 1, solo_target_normal = margin, solo_target_hard = margin + 1 }, "normal win" },
    { { solo_target_easy = margin, solo_target_normal = margin + 1, solo_target_hard = margin + 2 }, "easy win" },
    { { solo_target_easy = margin + 1, solo_target_normal = margin + 2, solo_target_hard = margin + 3 }, "loss" },
  }
  for _, case in ipairs(cases) do
    local sc = play(case[1]):score()
    expect_eq(sc[1].total - sc[2].total, margin, "same game")
    expect_eq(sc.extra.solo, case[2], case[2])
  end
end

---------------------------------------------------------------------------------------------
-- Steered solo games: the player's grid laid out exactly as planned.

-- The 31 cards a solo game draws, in order: "p" for the next planned card, "x" for a spare to
-- give the opponent. The draw schedule (1 after each turn, 5 after each of the opponent's rows)
-- always brings a planned card in time.
M.SLOTS = "pppppppppppp" .. "x" .. "pppp" .. "xxxxx" .. "ppp" .. "xxxxxx"

-- A plan placing a rows x cols layout in reading order.
function M.reading(layout)
  local plan = {}
  for r = 1, #layout do
    for c = 1, #layout[r] do plan[#plan + 1] = { card = layout[r][c], cell = { r - 1, c - 1 } } end
  end
  return plan
end

-- Plays a solo game whose player places `plan` ({card =, cell =} steps, each legal when it is
-- played) in order. The first card comes from the dealt hand (seeds are tried until the hand
-- suits); the others are stacked on the deck (g:force_deck) in the order of M.SLOTS, with
-- spare cards between them to give. Options:
--   params      game parameters
--   max_seed    seeds tried (300)
--   hand_ok     function(hand counts, first card) -> whether a dealt hand suits (default: it
--               holds the first card)
--   spares      the spare cards, in order (default: the first of `spare_order` left in the deck)
--   spare_order card ids tried for spares, in order
--   give_order  card ids given first, in order (then the alphabetically first card the plan
--               does not need)
--   answer      function(moves) -> the answer to a question asked after a place (default:
--               its first option); plan[t].answer overrides it for step t
-- plan[t].stop returns right after place t, with its question still open. Returns the game
-- after the last planned turn, and the seed.
function M.steer(plan, opts)
  opts = opts or {}
  local slots = M.SLOTS
  for seed = 1, opts.max_seed or 300 do
    local g = new_game{ players = 1, seed = seed, params = opts.params }
    local hand = M.counts(g:zone("hand", 1))
    local first = plan[1].card
    local ok
    if opts.hand_ok then ok = opts.hand_ok(hand, first) else ok = (hand[first] or 0) > 0 end
    -- The planned cards are reserved first; spares come from what is left.
    local left = M.counts(g:zone("deck"))
    for t = 2, #plan do left[plan[t].card] = (left[plan[t].card] or 0) - 1 end
    for _, n in pairs(left) do if n < 0 then ok = false end end
    local order, next_plan, spare = {}, 2, 0
    for i = 1, #slots do
      if not ok then break end
      if slots:sub(i, i) == "p" and plan[next_plan] then
        order[#order + 1] = plan[next_plan].card
        next_plan = next_plan + 1
      else
        spare = spare + 1
        local id = opts.spares and opts.spares[spare]
        if not id then
          for _, s in ipairs(opts.spare_order or {}) do
            if (left[s] or 0) > 0 then id = s; break end
          end
        end
        if not id or (left[id] or 0) <= 0 then ok = false else left[id] = left[id] - 1; order[#order + 1] = id end
      end
    end
    if ok then
      g:force_deck("deck", order)
      local deck0 = #g:zone("deck")
      for t = 1, #plan do
        local step = plan[t]
        if not g:try_play(1, { type = "place", card = step.card, cell = step.cell }) then ok = false; break end
        if step.stop then return g, seed end
        local moves = g:moves(1)
        if moves[1] and not DRAFT_MOVES[moves[1].type] then
          g:play(1, step.answer or (opts.answer and opts.answer(moves)) or moves[1])
        end
        if g.phase ~= "draft" then return g, seed end
        -- Give a card the plan does not need: the planned cards already drawn and not yet
        -- placed stay in the hand.
        local drawn = deck0 - #g:zone("deck")
        local _, planned = slots:sub(1, drawn):gsub("p", "")
        local need = {}
        for u = t + 1, math.min(1 + planned, #plan) do need[plan[u].card] = (need[plan[u].card] or 0) + 1 end
        local held = M.counts(g:zone("hand", 1))
        local give
        for _, id in ipairs(opts.give_order or {}) do
          if (held[id] or 0) > (need[id] or 0) then give = id; break end
        end
        if not give then
          for id, n in pairs(held) do
            if n > (need[id] or 0) and (not give or id < give) then give = id end
          end
        end
        if not give then ok = false; break end
        g:play(1, { type = "give", card = give })
      end
      if ok then return g, seed end
    end
  end
  error("no seed in 1.." .. (opts.max_seed or 300) .. " can lay out the plan")
end

return M
