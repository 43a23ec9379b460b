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
local SP, ST, F, LF = layout.SP, layout.ST, layout.F, layout.LF
local P_INSURED, EVN = layout.P_INSURED, layout.EVN
local EV_POINTS, EV_EXTRA, EV_INCOME, EV_COPPER, EV_GOODS, EV_SKIPPED, EV_INSURED = layout.EV_POINTS,
  layout.EV_EXTRA, layout.EV_INCOME, layout.EV_COPPER, layout.EV_GOODS, layout.EV_SKIPPED, layout.EV_INSURED
local T_EVENTS, T_ROUND, T_SEAT, T_STEP, T_SICK, T_ENDING, T_PENDING, T_PENDING_ID, T_PENDING_UNITS =
  layout.T_EVENTS, layout.T_ROUND, layout.T_SEAT, layout.T_STEP, layout.T_SICK, layout.T_ENDING, layout.T_PENDING,
  layout.T_PENDING_ID, layout.T_PENDING_UNITS
local STEP_CODE, PENDINGS = layout.STEP_CODE, layout.PENDINGS
local begin_reading_table, rec, tab, read_viv = S.begin_reading_table, S.rec, S.tab, S.read_viv
local find, income_factor, dies_of, score = vivarium.find, events.income_factor, evolution.dies_of, scoring.score

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

function M.evaluate(ctx, state, seat)
  local t = begin_reading_table(ctx, state)   -- a copy: read-only, and every number is needed
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

return M
