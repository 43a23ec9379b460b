-- Chenilles: the heuristic bot's `evaluate` (bots only, not rules). The host tries every legal
-- move on a scratch state and calls this; it runs about 1,900 times a 4-player game, so it
-- reads one list (the table record, where the moves keep each seat's value terms up to date:
-- chenilles/layout.lua's EV_*) and multiplies by the weights (chenilles/weights.lua). It reads
-- a vivarium only to weigh a pending transformation roll.

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")
local events = require("chenilles.events")
local evolution = require("chenilles.evolution")
local scoring = require("chenilles.scoring")
local WEIGHTS = require("chenilles.weights").WEIGHTS

local D
data.share(function(d) D = d end)
local ID, SP, ST, F, LF, FIELDS = layout.ID, layout.SP, layout.ST, layout.F, layout.LF, layout.FIELDS
local P_INSURED, P_INCOMES, P_MORTAL, EVN = layout.P_INSURED, layout.P_INCOMES, layout.P_MORTAL, layout.EVN
local EV_POINTS, EV_EXTRA, EV_INCOME, EV_COPPER, EV_GOODS, EV_SKIPPED, EV_INSURED = layout.EV_POINTS,
  layout.EV_EXTRA, layout.EV_INCOME, layout.EV_COPPER, layout.EV_GOODS, layout.EV_SKIPPED, layout.EV_INSURED
local T_EVENTS, T_ROUND, T_SEAT, T_STEP, T_SICK, T_ENDING, T_PENDING, T_PENDING_ID, T_PENDING_UNITS, T_EVENT =
  layout.T_EVENTS, layout.T_ROUND, layout.T_SEAT, layout.T_STEP, layout.T_SICK, layout.T_ENDING, layout.T_PENDING,
  layout.T_PENDING_ID, layout.T_PENDING_UNITS, layout.T_EVENT
local STEP_CODE, PENDINGS, ENDING_CODE, PENDING_CODE = layout.STEP_CODE, layout.PENDINGS, layout.ENDING_CODE,
                                                      layout.PENDING_CODE
local begin_reading_table, rec, tab, read_viv, event_with, clamped = S.begin_reading_table, S.rec, S.tab,
                                                                     S.read_viv, S.event_with, S.clamped
local find, income_factor, dies_of, score = vivarium.find, events.income_factor, evolution.dies_of, scoring.score
local terms, species_count, stage_cost = vivarium.terms, vivarium.species_count, evolution.stage_cost

local M = {}

-- Rounds probably left after this one: event cards left spread over the board's event spaces
-- (0 once an ending is triggered).
local function rounds_left(ctx, t)
  if t[T_ENDING] ~= 0 then return 0 end
  local by_events = D.event_spaces > 0 and t[T_EVENTS] * #D.spaces / D.event_spaces or 99
  return math.min(by_events, ctx.params.max_rounds - t[T_ROUND])
end

-- A player's value: the points of the vivarium, its expected extra points, the attackers'
-- option value and the insurance (all fading out over the last rounds: `time`), the
-- dromedaries' income over the rounds left, and the resources held (`keep` fades to
-- WEIGHTS.floor), less the turns lost to the racket. `ev` is the table record (terms: EV_*).
local function value_of(ev, seat, left, time, keep)
  local w, b = WEIGHTS, D.t_seats + (seat - 1) * EVN
  return ev[b + EV_POINTS] + time * (ev[b + EV_EXTRA] + w.insured * ev[b + EV_INSURED])
         + math.min(left, w.income_rounds) * ev[b + EV_INCOME]
         + keep * (w.copper * ev[b + EV_COPPER] + w.unit * ev[b + EV_GOODS]) - w.skipped * ev[b + EV_SKIPPED]
end

-- Worth of a caterpillar of species sp on stage st with f failures (as summarize counts it).
local function worth(sp, st, f, time)
  local pts = sp.stages[st].points
  return pts + time * WEIGHTS.progress * ((f > 0 and sp.potential_failed[st] or sp.potential[st]) - pts)
end

-- What a pending roll is expected to add to the value of the position.
local function pending_value(ctx, state, seat, left, time)
  local w = WEIGHTS
  local keep = w.floor + (1 - w.floor) * time
  local t = tab(state)
  local pending = PENDINGS[t[T_PENDING]]
  if pending == "nature" then
    local v = 0
    for k, sp in ipairs(D.sps) do
      local each = worth(sp, 1, 0, time)
      if sp.power == "income" then each = each + math.min(left, w.income_rounds) * D.powers.income * w.income end
      if sp.power == "attack" then each = each + time * w.attack end
      v = v + D.avg_found[k] * each
    end
    return v
  end
  if pending == "racket" then return 0 end
  local viv = read_viv(state, seat)
  local c = find(viv, t[T_PENDING_ID])
  local sp = D.sps[viv[c + SP]]
  local st, f = viv[c + ST], viv[c + F]
  local now = worth(sp, st, f, time)
  local nxt = sp.stages[st + 1]
  local success = worth(sp, st + 1, 0, time)
  if sp.power == "gold_refund" and (nxt.kind == "moult" or ctx.params.gold_refund_on == "transformations") then
    success = success + keep * w.copper * t[T_PENDING_UNITS] * D.powers.refund
  end
  local failure
  if dies_of(ctx, sp, f + 1, viv[c + LF] + 1) then
    failure = rec(state, seat)[P_INSURED] == 1 and keep * w.copper * sp.price or 0
  else
    failure = worth(sp, st, f + 1, time)
  end
  return nxt.odds * success + (1 - nxt.odds) * failure - now
end

-- The value of the position for `seat` from the table record t (a copy).
local function value_in(ctx, state, seat, t)
  local step = t[T_STEP]
  if step == STEP_CODE.over then
    local lines = score(ctx, state)
    local best = -math.huge
    for other = 1, state.player_count do
      if other ~= seat then best = math.max(best, lines[other].total) end
    end
    return WEIGHTS.final * (lines[seat].total - best)
  end
  local left = rounds_left(ctx, t)
  local time = math.min(1, left / WEIGHTS.horizon)
  local keep = WEIGHTS.floor + (1 - WEIGHTS.floor) * time
  local mine = value_of(t, seat, left, time, keep)
  -- The income still to come at the end of the turn, so that evolving is not compared with
  -- ending the turn and cashing it.
  if t[T_SEAT] == seat then
    if t[T_SICK] == 0 then
      local k = income_factor(state)
      mine = mine + keep * k * math.max(D.card_units * WEIGHTS.unit, D.income_copper * WEIGHTS.copper)
    end
    if step == STEP_CODE.roll then mine = mine + pending_value(ctx, state, seat, left, time) end
  end
  local best = 0
  for other = 1, state.player_count do
    if other ~= seat then best = math.max(best, value_of(t, other, left, time, keep)) end
  end
  return mine - WEIGHTS.opponent * best
end

function M.evaluate(ctx, state, seat)
  return value_in(ctx, state, seat, begin_reading_table(ctx, state))   -- a copy: read-only
end

-- ---- evaluate_moves: the moves valued without a trial ----------------------------------
--
-- The moves whose effect on the table record the bot can work out without playing them are
-- valued on the record as the move would leave it: the record's copy is changed in place the
-- way the move's own code changes it (gain_at's caps, pay, summarize's terms, the kamikaze's
-- food loss, a butterfly's ending, a pending roll, the turn handed on), valued by the same
-- value_in, and put back. Every move is valued so but three: the end of a turn that ends the
-- game, starts a round on an event space, or draws from an empty resource deck (reshuffled:
-- random); refusing to pay the racket (the turn skipped); and the roll itself, alone in its
-- decision. `plateau test chenilles` holds every value to the move's trial, exactly.

-- What gain_at adds to a number `old` for n, with its cap.
local function gained(old, n, cap) return clamped(old, n, cap) - old end

-- Changes to the record's copy, to put back: slot, old value, slot, old value...
local UNDO, undo_n = {}, 0
local function set(t, i, v)
  UNDO[undo_n + 1], UNDO[undo_n + 2] = i, t[i]
  undo_n = undo_n + 2
  t[i] = v
end
local function put_back(t)
  for k = undo_n - 1, 1, -2 do t[UNDO[k]] = UNDO[k + 1] end
  undo_n = 0
end

-- The record's value terms of a seat (at b) after its vivarium changed, as summarize sets them.
local function set_terms(t, b, p, viv)
  local incomes, _, mortal, _, points, extra, income = terms(viv)
  if p[P_INCOMES] ~= incomes then set(t, b + EV_INCOME, income) end
  if p[P_MORTAL] ~= mortal and p[P_INSURED] == 1 then set(t, b + EV_INSURED, mortal) end
  set(t, b + EV_POINTS, points)
  set(t, b + EV_EXTRA, extra)
end

local REST = {}

-- REST: the vivarium viv without the caterpillar at offset c (as remove_caterpillar leaves it).
local function without(viv, c)
  local n = #viv
  table.move(viv, 1, c, 1, REST)
  table.move(viv, c + FIELDS + 1, n, c + 1, REST)
  for i = n - FIELDS + 1, #REST do REST[i] = nil end
end

-- What the kamikaze's attack destroys of the target's food (p: its record): a unit at a time
-- while any is left, so n units or all of it.
local function food_destroyed(p, n)
  local food = 0
  for _, at in ipairs(D.foods_at) do food = food + p[at] end
  return math.min(n, food)
end

-- What every valued move of a decision shares (see evaluate_moves): the rounds left and
-- their factors, the income bonus of the mover's turn, the best opponent's value.
local base = { left = 0, time = 0, keep = 0, bonus = 0, best = 0, dromedary = {} }

-- value_in's sums in value_in's order, for a move that changed only the mover's terms: the
-- parts it left alone are the decision's own.
local function shared_value(t, seat)
  local v = value_of(t, seat, base.left, base.time, base.keep)
  if t[T_SEAT] == seat and t[T_SICK] == 0 then v = v + base.bonus end
  return v - WEIGHTS.opponent * base.best
end

-- The value of one move, or nil to try it (decided before the copy changes). t is the record's
-- copy, put back before returning.
-- `whole` is set where the move changes what the shared parts read (an opponent's terms, the
-- ending): value_in then works it all out again.
local function move_value(ctx, state, seat, t, move)
  local whole = false
  local kind = move.type
  local p = rec(state, seat)
  local b = D.t_seats + (seat - 1) * EVN
  local money_at = D.money_at
  local money_cap = D.caps[money_at]
  if kind == "dromedary" then
    -- every resource below its cap makes the same record (and every one at its cap, the same
    -- record too): valued once each per decision
    local at = D.ri[move.args.resource]
    local g = gained(p[at], 1, D.caps[at])
    local known = base.dromedary[g]
    if known then return known end
    set(t, b + EV_GOODS, t[b + EV_GOODS] + g)
    local v = shared_value(t, seat)
    put_back(t)
    base.dromedary[g] = v
    return v
  elseif kind == "trade" then
    local res = move.args.resource
    local at, m = D.ri[res], D.market_index[res]
    if move.args.deal == "buy" then
      set(t, b + EV_COPPER, t[b + EV_COPPER] + gained(p[money_at], -m.buy, money_cap))
      set(t, b + EV_GOODS, t[b + EV_GOODS] + gained(p[at], 1, D.caps[at]))
    else
      set(t, b + EV_GOODS, t[b + EV_GOODS] + gained(p[at], -1, D.caps[at]))
      set(t, b + EV_COPPER, t[b + EV_COPPER] + gained(p[money_at], m.sell, money_cap))
    end
  elseif kind == "buy" then
    local k = D.sp_index[move.args.species]
    local sp = D.sps[k]
    set(t, b + EV_COPPER, t[b + EV_COPPER] + gained(p[money_at], -sp.price, money_cap))
    local viv = read_viv(state, seat)
    local n0 = #viv
    if species_count(viv, k) < sp.cap then
      viv[n0 + ID], viv[n0 + SP], viv[n0 + ST], viv[n0 + F], viv[n0 + LF] = 0, k, 1, 0, 0
    end
    set_terms(t, b, p, viv)
    for i = #viv, n0 + 1, -1 do viv[i] = nil end
  elseif kind == "evolve" then
    local viv = read_viv(state, seat)
    local c = find(viv, move.args.caterpillar)
    local sp = D.sps[viv[c + SP]]
    local st = viv[c + ST]
    local nxt = sp.stages[st + 1]
    local _, _, units = stage_cost(state, nxt)
    set(t, b + EV_GOODS, t[b + EV_GOODS] - units)
    if nxt.trans then
      -- paid, the roll to come: valued as evaluate values a pending roll (pending_value reads
      -- tab(state), which is this copy)
      set(t, T_STEP, STEP_CODE.roll)
      set(t, T_PENDING, PENDING_CODE.transform)
      set(t, T_PENDING_ID, viv[c + ID])
      set(t, T_PENDING_UNITS, units)
      local v = value_in(ctx, state, seat, t)
      put_back(t)
      return v
    end
    viv[c + ST] = st + 1
    set_terms(t, b, p, viv)
    viv[c + ST] = st
    if nxt.kind == "butterfly" and t[T_ENDING] == 0 then
      set(t, T_ENDING, ENDING_CODE.butterfly)
      whole = true
    end
  elseif kind == "attack" then
    local viv = read_viv(state, seat)
    local c = find(viv, move.args.kamikaze)
    local col = D.sps[viv[c + SP]].stages[viv[c + ST]].column
    set(t, b + EV_COPPER, t[b + EV_COPPER] + gained(p[money_at], -(col + D.powers.price_base), money_cap))
    without(viv, c)   -- the attack sacrifices the kamikaze
    set_terms(t, b, p, REST)
    local target = tonumber(move.args.target:sub(2))
    local destroyed = food_destroyed(rec(state, target), col * D.powers.destroy)
    if destroyed > 0 then
      local tb = D.t_seats + (target - 1) * EVN
      set(t, tb + EV_GOODS, t[tb + EV_GOODS] - destroyed)
      whole = true
    end
  elseif kind == "sell" then
    local viv = read_viv(state, seat)
    local c = find(viv, move.args.caterpillar)
    set(t, b + EV_COPPER, t[b + EV_COPPER] + gained(p[money_at], D.sps[viv[c + SP]].price, money_cap))
    without(viv, c)
    set_terms(t, b, p, REST)
  elseif kind == "insure" then
    set(t, b + EV_COPPER, t[b + EV_COPPER] + gained(p[money_at], -event_with(state, "insurer").price, money_cap))
    set(t, b + EV_INSURED, p[P_MORTAL])
  elseif kind == "racket" then
    if move.args.choice ~= "pay" then return nil end   -- the turn skipped: a trial
    set(t, b + EV_COPPER, t[b + EV_COPPER] + gained(p[money_at], -event_with(state, "racket").fee, money_cap))
  elseif kind == "nature" then
    -- the forest's roll pending, as evaluate weighs it
    set(t, T_STEP, STEP_CODE.roll)
    set(t, T_PENDING, PENDING_CODE.nature)
    whole = true
  elseif kind == "end" then
    -- The turn hands on to the next seat; the last turn of a round starts the next round,
    -- valued here when the game goes on and the time token's next space reveals no event
    -- (chenilles/turn.lua's end_turn and begin_round).
    local next_seat = seat + 1
    local k = income_factor(state)   -- (before the copy changes: tab(state) is that copy)
    local card
    if move.args.take == "card" then
      -- the resource card on top of the deck (the move draws the last of the zone's list)
      local deck = state:zone("resource_deck"):cards()
      card = deck[#deck]
      if not card then return nil end   -- an empty deck is reshuffled first: random
    end
    if seat >= state.player_count then
      if t[T_ENDING] ~= 0 or t[T_ROUND] >= ctx.params.max_rounds then return nil end   -- the game ends
      local space = state:track("time"):get() % #D.spaces + 1
      if D.spaces[space] == "event" then return nil end
      set(t, T_ROUND, t[T_ROUND] + 1)
      set(t, T_EVENT, 0)
      next_seat = 1
      whole = true   -- fewer rounds left
    end
    if move.args.take == "copper" then
      set(t, b + EV_COPPER, t[b + EV_COPPER] + gained(p[money_at], D.income_copper * k, money_cap))
    elseif card then
      for _, g in ipairs(D.rcard[card]) do
        local at = D.ri[g[1]]
        local slot = b + (at == money_at and EV_COPPER or EV_GOODS)
        set(t, slot, t[slot] + gained(p[at], g[2] * k, D.caps[at]))
      end
    end   -- (sick: nothing taken)
    set(t, T_SEAT, next_seat)
  elseif kind ~= "done" then   -- (passing an optional step leaves the record's terms as they are)
    return nil
  end
  local v = whole and value_in(ctx, state, seat, t) or shared_value(t, seat)
  put_back(t)
  return v
end

function M.evaluate_moves(ctx, state, seat, moves)
  local t = begin_reading_table(ctx, state)
  -- The moves valued leave the step neither over nor at a roll of the mover's: value_in's
  -- parts below are the same for each.
  local left = rounds_left(ctx, t)
  local time = math.min(1, left / WEIGHTS.horizon)
  local keep = WEIGHTS.floor + (1 - WEIGHTS.floor) * time
  base.left, base.time, base.keep = left, time, keep
  base.bonus = keep * income_factor(state) * math.max(D.card_units * WEIGHTS.unit, D.income_copper * WEIGHTS.copper)
  local best = 0
  for other = 1, state.player_count do
    if other ~= seat then best = math.max(best, value_of(t, other, left, time, keep)) end
  end
  base.best = best
  base.dromedary[0], base.dromedary[1] = nil, nil
  local values = {}
  for i = 1, #moves do values[i] = move_value(ctx, state, seat, t, moves[i]) end
  return values
end

return M
