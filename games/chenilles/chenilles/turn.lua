-- Chenilles: the setup, the rounds and the turn's step machine. A round moves the time token
-- (revealing an event card on event spaces); then each player, seat 1 first, plays the recap
-- order of the rulebook: the racket roll, then STEPS in order (steps with nothing to do are
-- skipped; the "market" step is entered from "outing" only), then the end of the turn with
-- its income. The step is a field of the table record; legal_moves lists what it offers, and
-- the rule modules' moves hand the turn on through advance and end_turn.

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")
local events = require("chenilles.events")
local powers = require("chenilles.powers")
local evolution = require("chenilles.evolution")
local market = require("chenilles.market")
local nature = require("chenilles.nature")

local D
data.share(function(d) D = d end)
local ID, SP, ST = layout.ID, layout.SP, layout.ST
local P_INCOMES, P_ATTACKERS, P_MORTAL, P_SKIPPED = layout.P_INCOMES, layout.P_ATTACKERS, layout.P_MORTAL,
                                                    layout.P_SKIPPED
local EVN, EV_COPPER, EV_GOODS, EV_SKIPPED = layout.EVN, layout.EV_COPPER, layout.EV_GOODS, layout.EV_SKIPPED
local T_EVENTS, T_ROUND, T_SEAT, T_STEP, T_SICK, T_ATTACKS, T_INCOME, T_MARKET_ONLY, T_DAY, T_EVENT, T_ENDING,
      T_NEXT_ID, T_RACKET_ROUND, T_PENDING, T_PENDING_ID, T_PENDING_UNITS =
      layout.T_EVENTS, layout.T_ROUND, layout.T_SEAT, layout.T_STEP, layout.T_SICK, layout.T_ATTACKS,
      layout.T_INCOME, layout.T_MARKET_ONLY, layout.T_DAY, layout.T_EVENT, layout.T_ENDING, layout.T_NEXT_ID,
      layout.T_RACKET_ROUND, layout.T_PENDING, layout.T_PENDING_ID, layout.T_PENDING_UNITS
local STEPS_ALL, STEP_CODE, DAY_CODE, PENDINGS, PENDING_CODE = layout.STEPS_ALL, layout.STEP_CODE, layout.DAY_CODE,
                                                               layout.PENDINGS, layout.PENDING_CODE
local COUNT_KEYS, P_KEYS, VIV_KEYS = layout.COUNT_KEYS, layout.P_KEYS, layout.VIV_KEYS
local begin, seat_name, rec, pset, tab, tset, ev_set = S.begin, S.seat_name, S.rec, S.pset, S.tab, S.tset, S.ev_set
local step_of, set_step, read_viv, copper_of, tally = S.step_of, S.set_step, S.read_viv, S.copper_of, S.tally
local gain_at, gain, set_ending, event_with, current_effect = S.gain_at, S.gain, S.set_ending, S.event_with,
                                                              S.current_effect
local draw_card, note, use_record_copy = S.draw_card, S.note, S.use_record_copy
local add_caterpillars, find = vivarium.add_caterpillars, vivarium.find
local reveal_event, insurance_offered, income_factor = events.reveal_event, events.insurance_offered,
                                                       events.income_factor
local can_attack, kamikaze_moves = powers.can_attack, powers.kamikaze_moves
local evolve_moves, resolve_transformation = evolution.evolve_moves, evolution.resolve_transformation
local market_moves = market.market_moves
local outing_moves, resolve_nature = nature.outing_moves, nature.resolve_nature

local M = {}

local STEPS = { "sell", "insure", "dromedary", "kamikaze", "outing", "evolve" }
local STEP_INDEX = { racket = 0 }
for i, s in ipairs(STEPS) do STEP_INDEX[s] = i end

local begin_round, begin_turn, end_turn

-- Moves the turn to the first step after `from` that has something to do ("evolve" always has).
local function advance(ctx, state, seat, from)
  local p = rec(state, seat)
  for i = STEP_INDEX[from] + 1, #STEPS do
    local step = STEPS[i]
    local go
    if step == "sell" then
      go = p[P_ATTACKERS] + p[P_MORTAL] > 0 and current_effect(state) == "sell_at_price"
    elseif step == "insure" then
      go = insurance_offered(ctx, state, seat, p)
    elseif step == "dromedary" then
      local n = p[P_INCOMES] * D.powers.income
      if n > 0 then tset(state, T_INCOME, n) end
      go = n > 0
    elseif step == "kamikaze" then
      go = can_attack(ctx, state, p)
    elseif step == "outing" then
      go = tab(state)[T_DAY] == DAY_CODE.nature_market
    else
      go = true
    end
    if go then return set_step(state, step) end
  end
end

local function racket_active(ctx, state)
  local ev = event_with(state, "racket")
  if not ev then return nil end
  local rounds = ctx.params.racket_rounds
  local t = tab(state)
  if rounds > 0 and t[T_ROUND] >= t[T_RACKET_ROUND] + rounds then return nil end
  return ev
end

local function skip_turn(ctx, state, seat, text)
  tally(state, seat, "racket skips")
  local skipped = rec(state, seat)[P_SKIPPED] + 1
  pset(state, seat, P_SKIPPED, skipped)
  ev_set(state, seat, EV_SKIPPED, skipped)
  note(state, seat_name(seat) .. text)
  return end_turn(ctx, state, seat)
end

function begin_turn(ctx, state, seat)
  local t = tab(state)
  tset(state, T_SEAT, seat)
  if t[T_SICK] ~= 0 then tset(state, T_SICK, 0) end
  if t[T_ATTACKS] ~= 0 then tset(state, T_ATTACKS, 0) end
  if t[T_MARKET_ONLY] ~= 0 then tset(state, T_MARKET_ONLY, 0) end
  if racket_active(ctx, state) then
    -- The racket's d6 is the turn's first move (a forced "roll"), so that ending a turn
    -- draws no random number: a bot weighing its last move need not sample the next roll.
    tset(state, T_PENDING, PENDING_CODE.racket)
    return set_step(state, "roll")
  end
  return advance(ctx, state, seat, "racket")
end

local function resolve_racket(ctx, state, seat)
  local racket = racket_active(ctx, state)
  local total = ctx.dice:roll("d6")
  if total <= racket.fail_max then
    tally(state, seat, "racket hits")
    if copper_of(state, seat) >= racket.fee then return set_step(state, "racket") end
    return skip_turn(ctx, state, seat, " could not pay the racket and skipped the turn")
  end
  return advance(ctx, state, seat, "racket")
end

function end_turn(ctx, state, seat)
  if seat < state.player_count then return begin_turn(ctx, state, seat + 1) end
  if tab(state)[T_ROUND] >= ctx.params.max_rounds then set_ending(state, "round_limit") end
  if tab(state)[T_ENDING] ~= 0 then
    set_step(state, "over")
    state:set_phase("over")
    return
  end
  return begin_round(ctx, state)
end

function begin_round(ctx, state)
  if state.data.event_note then state.data.event_note = nil end
  local round = tab(state)[T_ROUND] + 1
  tset(state, T_ROUND, round)
  state:set_round(round)
  tset(state, T_EVENT, 0)
  local position = state:track("time"):move(1)
  tset(state, T_DAY, DAY_CODE[D.spaces[position]])
  if D.spaces[position] == "event" then reveal_event(ctx, state) end
  return begin_turn(ctx, state, 1)
end

local function zeros(n)
  local t = {}
  for i = 1, n do t[i] = 0 end
  return t
end

function M.setup(ctx, state)
  local d = begin(ctx)
  local n = state.player_count
  state.data.stats = zeros(n * #d.stat_keys + #COUNT_KEYS)
  local t = zeros(d.t_seats + EVN * n)
  t[T_EVENTS], t[T_NEXT_ID], t[T_STEP] = #d.event_deck, 1, STEP_CODE.evolve
  for seat = 1, n do
    local p = zeros(d.p_len)
    for _, res in ipairs(d.res) do
      local r = d.res_index[res]
      local at = d.ri[res]
      p[at] = math.min(r.start, r.cap)
      local slot = d.t_seats + (seat - 1) * EVN + (at == d.money_at and EV_COPPER or EV_GOODS)
      t[slot] = t[slot] + p[at]
    end
    state.data[P_KEYS[seat]] = p
    state.data[VIV_KEYS[seat]] = {}
  end
  state.data.t = t
  for seat = 1, state.player_count do
    for k, sp in ipairs(d.sps) do
      if sp.start > 0 then add_caterpillars(state, seat, k, sp.start, nil) end
    end
  end
  state:add_track("time", { length = #d.spaces, circular = true })
  state:add_zone("resource_deck", nil, "hidden", d.rcard_deck)
  state:add_zone("resource_discard", nil, "public")
  state:add_zone("hazard_deck", nil, "hidden", d.hazard_deck)
  state:add_zone("hazard_discard", nil, "public")
  state:add_zone("events", nil, "hidden", d.event_deck)
  state:add_zone("events_shown", nil, "public")
  state:zone("resource_deck"):shuffle()
  state:zone("hazard_deck"):shuffle()
  state:zone("events"):shuffle()
  begin_round(ctx, state)
end

-- Step 6, listed after the evolutions of step 5 (chenilles/evolution.lua): the end of the
-- turn takes copper or a resource card, or nothing when the rain made the player sick.
local function end_moves(state, moves)
  if tab(state)[T_SICK] == 1 then
    moves[#moves + 1] = D.end_sick
    return moves
  end
  local k = income_factor(state)
  local pair = D.end_moves[k]
  if not pair then
    local ctx_move = data.move
    pair = { ctx_move{ type = "end", args = { take = "copper", gain = (D.income_copper * k) .. " copper" } },
             ctx_move{ type = "end", args = { take = "card", gain = k == 1 and "a resource card" or
                                               ("a resource card x" .. k) } } }
    D.end_moves[k] = pair
  end
  moves[#moves + 1] = pair[1]
  moves[#moves + 1] = pair[2]
  return moves
end

function M.to_move(ctx, state)
  local t = state.data.t
  if t[T_STEP] == STEP_CODE.over then return {} end
  return { t[T_SEAT] }
end

function M.legal_moves(ctx, state, seat)
  begin(ctx)
  local t = tab(state)
  if seat ~= t[T_SEAT] then return {} end
  local step = STEPS_ALL[t[T_STEP]]
  use_record_copy(state, seat)   -- legal moves read many numbers: a copy
  if step == "evolve" then return evolve_moves(state, seat, {}) end
  if step == "dromedary" then return powers.dromedary_moves(ctx, t[T_INCOME]) end
  if step == "outing" then return outing_moves(state, seat, {}) end
  if step == "market" then return market_moves(state, seat, {}) end
  if step == "kamikaze" then
    local moves = kamikaze_moves(ctx, state, seat, {})
    if t[T_DAY] == DAY_CODE.nature_market then return outing_moves(state, seat, moves) end
    return evolve_moves(state, seat, moves)
  end
  if step == "racket" then
    local fee = event_with(state, "racket").fee
    return { { type = "racket", args = { choice = "pay", cost = fee .. " copper" } },
             { type = "racket", args = { choice = "skip", cost = "the whole turn" } } }
  end
  if step == "insure" then return events.insure_moves(state) end
  if step == "sell" then return events.sell_moves(state, seat) end
  if step == "roll" then
    local pending = PENDINGS[t[T_PENDING]]
    if pending == "nature" then return { { type = "roll", args = { dice = "d6", on = "the forest board" } } } end
    if pending == "racket" then
      local hits = "d6<=" .. event_with(state, "racket").fail_max
      return { { type = "roll", args = { dice = "d6", on = "the racket", hits_on = hits } } }
    end
    local viv = read_viv(state, seat)
    local c = find(viv, t[T_PENDING_ID])
    local nxt = D.sps[viv[c + SP]].stages[viv[c + ST] + 1]
    return { { type = "roll", args = { dice = "2d6", needs = nxt.needs, caterpillar = viv[c + ID], to = nxt.id } } }
  end
  return {}
end

-- The moves of the turn itself. The host applies only listed moves, so handlers trust their
-- arguments.
M.moves = {}

function M.moves.racket(ctx, state, seat, move)
  if move.args.choice == "pay" then
    gain_at(state, seat, D.money_at, -event_with(state, "racket").fee)
    tally(state, seat, "racket paid")
    return advance(ctx, state, seat, "racket")
  end
  return skip_turn(ctx, state, seat, " refused to pay the racket and skipped the turn")
end

function M.moves.done(ctx, state, seat, move)
  return advance(ctx, state, seat, step_of(state))
end

function M.moves.roll(ctx, state, seat, move)
  local t = tab(state)
  local pending, id, units = PENDINGS[t[T_PENDING]], t[T_PENDING_ID], t[T_PENDING_UNITS]
  tset(state, T_PENDING, 0)
  if pending == "nature" then return resolve_nature(ctx, state, seat) end
  if pending == "racket" then return resolve_racket(ctx, state, seat) end
  tset(state, T_PENDING_ID, 0)
  tset(state, T_PENDING_UNITS, 0)
  return resolve_transformation(ctx, state, seat, id, units)
end

M.moves["end"] = function(ctx, state, seat, move)
  local take = move.args.take
  local k = income_factor(state)
  if take == "copper" then
    gain_at(state, seat, D.money_at, D.income_copper * k)
    tally(state, seat, "took copper")
    note(state, seat_name(seat) .. " took " .. D.income_copper * k .. " copper")
  elseif take == "card" then
    local card = draw_card(state, "resource_deck", "resource_discard")
    local got = {}
    for i, g in ipairs(D.rcard[card]) do
      gain(state, seat, g[1], g[2] * k)
      got[i] = (g[2] * k) .. " " .. g[1]
    end
    tally(state, seat, "took card")
    note(state, seat_name(seat) .. " drew the resource card " .. card .. ": " .. table.concat(got, ", "))
  end
  return end_turn(ctx, state, seat)
end

M.advance, M.end_turn, M.end_moves = advance, end_turn, end_moves
events.link(M)
powers.link(M)
nature.link(M)
evolution.link(M)

return M
