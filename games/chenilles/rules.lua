-- Chenilles: a caterpillar-breeding management game (a designer's untested prototype). Each
-- round moves the time token on the circular time board (revealing an event card on event
-- spaces); then each player, youngest (seat 1) first, plays the recap order of the rulebook:
-- racket roll, the current event's action, caterpillar powers, nature or market on
-- nature/market days, evolutions, then copper or a resource card. The game ends at the end of
-- the round in which the first butterfly appears or the last event card is revealed.
-- Every number is data (data/chenilles.json); rules choices are manifest parameters. The turn
-- is a small state machine (its step is a field of the table record; see STEPS and advance);
-- README.md explains it all.
--
-- Below the rules, in chenilles/*.lua: layout (where each number lives in state.data),
-- weights (the bot's weights), data (data/chenilles.json compiled), state (handles,
-- resources, tallies) and vivarium (the caterpillars).

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")
local WEIGHTS = require("chenilles.weights").WEIGHTS

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

local D
data.share(function(d) D = d end)
local ID, SP, ST, F, LF, FIELDS = layout.ID, layout.SP, layout.ST, layout.F, layout.LF, layout.FIELDS
local P_INCOMES, P_ATTACKERS, P_MORTAL, P_KCOL, P_INSURED, P_SKIPPED = layout.P_INCOMES, layout.P_ATTACKERS,
  layout.P_MORTAL, layout.P_KCOL, layout.P_INSURED, layout.P_SKIPPED
local EV_POINTS, EV_EXTRA, EV_INCOME, EV_COPPER, EV_GOODS, EV_SKIPPED, EV_INSURED = layout.EV_POINTS,
  layout.EV_EXTRA, layout.EV_INCOME, layout.EV_COPPER, layout.EV_GOODS, layout.EV_SKIPPED, layout.EV_INSURED
local EVN = layout.EVN
local T_EVENTS, T_ROUND, T_SEAT, T_STEP, T_SICK, T_ATTACKS, T_INCOME, T_MARKET_ONLY, T_DAY, T_EVENT, T_ENDING,
      T_NEXT_ID, T_RACKET_ROUND, T_PENDING, T_PENDING_ID, T_PENDING_UNITS =
      layout.T_EVENTS, layout.T_ROUND, layout.T_SEAT, layout.T_STEP, layout.T_SICK, layout.T_ATTACKS,
      layout.T_INCOME, layout.T_MARKET_ONLY, layout.T_DAY, layout.T_EVENT, layout.T_ENDING, layout.T_NEXT_ID,
      layout.T_RACKET_ROUND, layout.T_PENDING, layout.T_PENDING_ID, layout.T_PENDING_UNITS
local STEPS_ALL, STEP_CODE, DAY_CODE, PENDINGS, PENDING_CODE = layout.STEPS_ALL, layout.STEP_CODE, layout.DAY_CODE,
                                                               layout.PENDINGS, layout.PENDING_CODE
local COUNT_KEYS, P_KEYS, VIV_KEYS = layout.COUNT_KEYS, layout.P_KEYS, layout.VIV_KEYS
local begin, seat_name, rec, pset, tab, tset, ev_set, ev_add = S.begin, S.seat_name, S.rec, S.pset, S.tab, S.tset,
                                                               S.ev_set, S.ev_add
local step_of, set_step, read_viv, vset, holdings, copper_of = S.step_of, S.set_step, S.read_viv, S.vset,
                                                               S.holdings, S.copper_of
local tally_at, count, tally, gain_at, pay, gain = S.tally_at, S.count, S.tally, S.gain_at, S.pay, S.gain
local set_ending, ending_of, event_with, drought, current_event, current_effect = S.set_ending, S.ending_of,
  S.event_with, S.drought, S.current_event, S.current_effect
local draw_card, note, event_note, use_record_copy = S.draw_card, S.note, S.event_note, S.use_record_copy
local summarize, write_viv, stage_of, find, species_count = vivarium.summarize, vivarium.write_viv,
  vivarium.stage_of, vivarium.find, vivarium.species_count
local more_evolved, most_evolved, add_caterpillars, remove_caterpillar, reached = vivarium.more_evolved,
  vivarium.most_evolved, vivarium.add_caterpillars, vivarium.remove_caterpillar, vivarium.reached

-- ---------------------------------------------------------------------------------------
-- Rounds and the turn's step machine: the racket roll, then STEPS in order (steps with
-- nothing to do are skipped); the "market" step is entered from "outing" only.

local STEPS = { "sell", "insure", "dromedary", "kamikaze", "outing", "evolve" }
local STEP_INDEX = { racket = 0 }
for i, s in ipairs(STEPS) do STEP_INDEX[s] = i end

local begin_round, begin_turn, advance, end_turn

local function insurance_offered(ctx, state, seat, p)
  local ev = event_with(state, "insurer")
  if not ev or p[P_INSURED] == 1 then return false end
  if ctx.params.insurance_offer == "reveal_round" and current_effect(state) ~= "insurer" then return false end
  return p[D.money_at] >= ev.price
end

local function kamikaze_price(column) return column + D.powers.price_base end

-- The cheapest attacker (lowest column) decides whether an attack can be paid.
local function can_attack(ctx, state, p)
  local col = p[P_KCOL]
  if col == 0 or p[D.money_at] < kamikaze_price(col) then return false end
  return tab(state)[T_ATTACKS] < ctx.params.kamikaze_attacks_per_turn
end

-- Moves the turn to the first step after `from` that has something to do ("evolve" always has).
function advance(ctx, state, seat, from)
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

-- One-shot events that act at once on every vivarium.
local function hitech(ctx, state, ev)
  for seat = 1, state.player_count do
    local viv = read_viv(state, seat)
    local order = {}
    for c = 0, #viv - 1, FIELDS do
      if viv[c + ST] < D.sps[viv[c + SP]].last then order[#order + 1] = c end
    end
    table.sort(order, function(a, b) return more_evolved(viv, b, a) end)   -- least evolved first
    local moved = math.min(ev.caterpillars, #order)
    for k = 1, moved do
      local c = order[k]
      local sp = D.sps[viv[c + SP]]
      viv[c + ST] = viv[c + ST] + 1
      if ctx.params.hitech_advance == "next_transformation" then
        -- The spaces jumped over are passed: they count as reached (reached() counts the last).
        while not sp.stages[viv[c + ST]].trans and viv[c + ST] < sp.last do
          tally_at(state, seat, sp.stages[viv[c + ST]].sp_reached_i)
          viv[c + ST] = viv[c + ST] + 1
        end
      end
      viv[c + F] = 0
    end
    write_viv(state, seat, viv)
    for k = 1, moved do reached(state, seat, viv, order[k]) end
    if moved > 0 then
      tally(state, seat, "hitech advances", moved)
      local what = {}
      for k = 1, moved do
        local st = stage_of(viv, order[k])
        what[k] = D.species[viv[order[k] + SP]] .. " to " .. st.id
      end
      event_note(state, seat_name(seat) .. ": " .. table.concat(what, ", "))
    end
  end
end

local function buyback(state, ev)
  for seat = 1, state.player_count do
    local viv = read_viv(state, seat)
    local c = most_evolved(viv)
    if c then
      local st = stage_of(viv, c).id
      local k = remove_caterpillar(state, seat, viv, c, "buyback")
      gain_at(state, seat, D.money_at, ev.factor * D.sps[k].price)
      event_note(state, string.format("%s sold back its %s (%s) for %d copper", seat_name(seat), D.species[k], st,
                                      ev.factor * D.sps[k].price))
    end
  end
end

local function broken_lamps(state, ev)
  for seat = 1, state.player_count do
    local viv = read_viv(state, seat)
    local kept, burnt = {}, 0
    for c = 0, #viv - 1, FIELDS do
      if stage_of(viv, c).column == ev.column then
        burnt = burnt + 1
      else
        table.move(viv, c + 1, c + FIELDS, #kept + 1, kept)
      end
    end
    if burnt > 0 then
      write_viv(state, seat, kept)
      tally(state, seat, D.lost_key.broken_lamps, burnt)
      event_note(state, string.format("%s lost %d caterpillar(s) in column %d", seat_name(seat), burnt, ev.column))
    end
  end
end

local function reveal_event(ctx, state)
  local deck = state:zone("events")
  if deck:count() == 0 then return end
  local id = deck:draw(state:zone("events_shown"), 1)[1]
  local t = tab(state)
  tset(state, T_EVENTS, t[T_EVENTS] - 1)
  local ev = D.event[id]
  tset(state, T_EVENT, D.event_code[id])
  local slot = D.effect_slot[ev.effect]
  if ev.kind == "permanent" and t[slot] == 0 then
    tset(state, slot, D.event_code[id])
    if ev.effect == "racket" then tset(state, T_RACKET_ROUND, t[T_ROUND]) end
  end
  if ev.effect == "hitech" then hitech(ctx, state, ev)
  elseif ev.effect == "buyback" then buyback(state, ev)
  elseif ev.effect == "broken_lamps" then broken_lamps(state, ev)
  end
  if deck:count() == 0 then set_ending(state, "events") end
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

function game.setup(ctx, state)
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

-- ---------------------------------------------------------------------------------------
-- Legal moves.

local function stage_cost(state, stage)
  if drought(state) then return stage.dcost, stage.dcost_text, stage.dunits end
  return stage.cost, stage.cost_text, stage.units
end

local function affordable(p, cost)
  for _, rc in ipairs(cost) do
    if p[rc[3]] < rc[2] then return false end
  end
  return true
end

local function income_factor(state)
  local ev = current_event(state)
  if ev and ev.effect == "double_income" then return ev.factor end
  return 1
end

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

-- One move per distinct caterpillar state (identical caterpillars give identical moves).
local function evolve_moves(state, seat, moves)
  local viv = read_viv(state, seat)
  local p = rec(state, seat)
  local seen = {}
  local dry = drought(state)
  for c = 0, #viv - 1, FIELDS do
    local k = viv[c + SP]
    local sp = D.sps[k]
    local st = viv[c + ST]
    if st < sp.last then
      local f = viv[c + F]
      local key = ((k * 64 + st) * 64 + f) * 64 + viv[c + LF]
      if not seen[key] then
        seen[key] = true
        local nxt = sp.stages[st + 1]
        local cost = dry and nxt.dcost or nxt.cost
        if affordable(p, cost) then
          local args = { caterpillar = viv[c + ID], species = sp.id, from = sp.stages[st].id, to = nxt.id,
                         cost = dry and nxt.dcost_text or nxt.cost_text }
          if nxt.trans then
            args.needs = nxt.needs
            args.odds = nxt.odds_text
            if f > 0 then args.failures = f end
          end
          moves[#moves + 1] = { type = "evolve", args = args }
        end
      end
    end
  end
  return end_moves(state, moves)
end

local function market_moves(state, seat, moves)
  local viv = read_viv(state, seat)
  local p = rec(state, seat)
  local copper, money_cap = p[D.money_at], D.caps[D.money_at]
  for k, sp in ipairs(D.sps) do
    if copper >= sp.price and species_count(viv, k) < sp.cap then
      moves[#moves + 1] = sp.buy_move
    end
  end
  for _, m in ipairs(D.market) do
    local at = D.ri[m.id]
    local have, cap = p[at], D.caps[at]
    if m.buy > 0 and copper >= m.buy and have < cap then
      moves[#moves + 1] = m.buy_move
    end
    if m.sell > 0 and have > 0 and copper < money_cap then
      moves[#moves + 1] = m.sell_move
    end
  end
  return evolve_moves(state, seat, moves)   -- evolving (or ending the turn) leaves the market
end

local function sell_moves(state, seat)
  local moves, seen = {}, {}
  local viv = read_viv(state, seat)
  for c = 0, #viv - 1, FIELDS do
    local key = viv[c + SP] * 64 + viv[c + ST]
    if not seen[key] then
      seen[key] = true
      local sp = D.sps[viv[c + SP]]
      moves[#moves + 1] = { type = "sell", args = { caterpillar = viv[c + ID], species = sp.id,
                                                    stage = sp.stages[viv[c + ST]].id, price = sp.price_text } }
    end
  end
  moves[#moves + 1] = D.sell_done
  return moves
end

local function attack_targets(ctx, state, seat)
  if ctx.params.kamikaze_target == "next" then return { seat % state.player_count + 1 } end
  local list = {}
  for other = 1, state.player_count do
    if other ~= seat then list[#list + 1] = other end
  end
  return list
end

local function kamikaze_moves(ctx, state, seat, moves)
  local copper = copper_of(state, seat)
  -- one candidate per column: the least evolved kamikaze there (it is the one sacrificed)
  local by_column, columns = {}, {}
  local viv = read_viv(state, seat)
  for c = 0, #viv - 1, FIELDS do
    if D.sps[viv[c + SP]].power == "attack" then
      local col = stage_of(viv, c).column
      local best = by_column[col]
      if not best then columns[#columns + 1] = col end
      if not best or more_evolved(viv, best, c) then by_column[col] = c end
    end
  end
  table.sort(columns)
  local targets = attack_targets(ctx, state, seat)
  for _, col in ipairs(columns) do
    local price = kamikaze_price(col)
    if copper >= price then
      local c = by_column[col]
      local texts = D.attack_text[col]
      if not texts then
        texts = { price .. " copper", (col * D.powers.destroy) .. " food" }
        D.attack_text[col] = texts
      end
      for _, target in ipairs(targets) do
        moves[#moves + 1] = { type = "attack", args = {
          kamikaze = viv[c + ID], stage = stage_of(viv, c).id, target = seat_name(target),
          cost = texts[1], destroys = texts[2] } }
      end
    end
  end
  return moves
end

-- Optional steps list their own moves followed by those of the next step, so playing one of
-- the later moves passes on the optional step (no separate "done" move is needed).
local function outing_moves(state, seat, moves)
  if tab(state)[T_MARKET_ONLY] == 0 then
    moves[#moves + 1] = D.nature_move
  end
  return market_moves(state, seat, moves)   -- a purchase or a trade is the visit to the market
end

function game.to_move(ctx, state)
  local t = state.data.t
  if t[T_STEP] == STEP_CODE.over then return {} end
  return { t[T_SEAT] }
end

function game.legal_moves(ctx, state, seat)
  begin(ctx)
  local t = tab(state)
  if seat ~= t[T_SEAT] then return {} end
  local step = STEPS_ALL[t[T_STEP]]
  use_record_copy(state, seat)   -- legal moves read many numbers: a copy
  if step == "evolve" then return evolve_moves(state, seat, {}) end
  if step == "dromedary" then
    local left = t[T_INCOME]
    local moves = D.dromedary_moves[left]
    if not moves then
      moves = {}
      for _, res in ipairs(D.goods) do
        moves[#moves + 1] = ctx.move{ type = "dromedary", args = { resource = res, left = left } }
      end
      D.dromedary_moves[left] = moves
    end
    return moves
  end
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
  if step == "insure" then
    local price = event_with(state, "insurer").price
    return { { type = "insure", args = { cost = price .. " copper" } }, { type = "done", args = { step = "insure" } } }
  end
  if step == "sell" then return sell_moves(state, seat) end
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

-- ---------------------------------------------------------------------------------------
-- Move handlers. The host applies only listed moves, so handlers trust their arguments.
-- Each one is wrapped (below) to start a hook call and write back what it changed.

local moves = {}

function moves.racket(ctx, state, seat, move)
  if move.args.choice == "pay" then
    gain_at(state, seat, D.money_at, -event_with(state, "racket").fee)
    tally(state, seat, "racket paid")
    return advance(ctx, state, seat, "racket")
  end
  return skip_turn(ctx, state, seat, " refused to pay the racket and skipped the turn")
end

function moves.done(ctx, state, seat, move)
  return advance(ctx, state, seat, step_of(state))
end

function moves.sell(ctx, state, seat, move)
  local viv = read_viv(state, seat)
  local k = remove_caterpillar(state, seat, viv, find(viv, move.args.caterpillar), "sold")
  gain_at(state, seat, D.money_at, D.sps[k].price)
  if #viv == 0 then return advance(ctx, state, seat, "sell") end
end

function moves.insure(ctx, state, seat, move)
  gain_at(state, seat, D.money_at, -event_with(state, "insurer").price)
  pset(state, seat, P_INSURED, 1)
  ev_set(state, seat, EV_INSURED, rec(state, seat)[P_MORTAL])
  tally(state, seat, "insured")
  return advance(ctx, state, seat, "insure")
end

function moves.dromedary(ctx, state, seat, move)
  gain(state, seat, move.args.resource, 1)
  tally(state, seat, "dromedary income")
  local left = tab(state)[T_INCOME] - 1
  tset(state, T_INCOME, left)
  if left <= 0 then return advance(ctx, state, seat, "dromedary") end
end

function moves.attack(ctx, state, seat, move)
  local viv = read_viv(state, seat)
  local c = find(viv, move.args.kamikaze)
  local col = stage_of(viv, c).column
  gain_at(state, seat, D.money_at, -kamikaze_price(col))
  remove_caterpillar(state, seat, viv, c, "kamikaze attack")
  local target = tonumber(move.args.target:sub(2))
  -- the victim loses food from the largest stock first (ties: data order)
  local p = rec(state, target)
  local foods = D.foods_at
  local destroyed = 0
  for _ = 1, col * D.powers.destroy do
    local best
    for _, at in ipairs(foods) do
      if p[at] > 0 and (not best or p[at] > p[best]) then best = at end
    end
    if not best then break end
    pset(state, target, best, p[best] - 1)
    destroyed = destroyed + 1
  end
  if destroyed > 0 then ev_add(state, target, EV_GOODS, -destroyed) end
  tset(state, T_ATTACKS, tab(state)[T_ATTACKS] + 1)
  tally(state, seat, "kamikaze attacks")             -- the game's counts are the players' sums
  tally(state, target, "food destroyed", destroyed)
  note(state, seat_name(seat) .. "'s kamikaze destroyed " .. destroyed .. " food of " .. seat_name(target))
  if not can_attack(ctx, state, rec(state, seat)) then return advance(ctx, state, seat, "kamikaze") end
end

local function apply_hazard(state, seat, id)
  local h = D.hazard[id]
  for _, g in ipairs(h.gain) do gain(state, seat, g[1], g[2]) end
  for _, cn in ipairs(h.caterpillars) do add_caterpillars(state, seat, cn[1], cn[2], "found") end
  for _ = 1, h.lose do
    local viv = read_viv(state, seat)
    local c = most_evolved(viv)
    if c then remove_caterpillar(state, seat, viv, c, "hazard") end
  end
  if h.no_income then tset(state, T_SICK, 1) end
  tally_at(state, seat, h.stat_i)
end

-- Going to nature and paying for a transformation only set up the roll; the forced "roll" move
-- throws the dice. A player (or a bot looking one move ahead) decides before seeing the dice.
function moves.nature(ctx, state, seat, move)
  tset(state, T_PENDING, PENDING_CODE.nature)
  set_step(state, "roll")
end

local function resolve_nature(ctx, state, seat)
  local roll = ctx.dice:roll("d6")
  local lot = D.forest[roll]
  count(state, "nature trips")
  local text = seat_name(seat) .. " rolled " .. roll .. " in the forest"
  if lot then
    for _, cn in ipairs(lot.caterpillars) do add_caterpillars(state, seat, cn[1], cn[2], "found") end
    tally_at(state, seat, lot.stat_i)
    text = text .. " (" .. lot.id .. ")"
  end
  local card = draw_card(state, "hazard_deck", "hazard_discard")
  apply_hazard(state, seat, card)
  note(state, text .. ", then drew the hazard card " .. card)
  if lot and lot.market_after then
    tset(state, T_MARKET_ONLY, 1)   -- "Bredouille": the market is still open
    return set_step(state, "outing")
  end
  return advance(ctx, state, seat, "outing")
end

-- The first purchase or trade of a turn is the visit to the market (no more nature after it).
local function at_market(state, seat)
  if step_of(state) ~= "market" then
    tally(state, seat, "market visits")
    set_step(state, "market")
  end
end

function moves.buy(ctx, state, seat, move)
  at_market(state, seat)
  local k = D.sp_index[move.args.species]
  gain_at(state, seat, D.money_at, -D.sps[k].price)
  add_caterpillars(state, seat, k, 1, "bought")
end

function moves.trade(ctx, state, seat, move)
  at_market(state, seat)
  local res = move.args.resource
  local m = D.market_index[res]
  if move.args.deal == "buy" then
    gain_at(state, seat, D.money_at, -m.buy)
    gain(state, seat, res, 1)
  else
    gain(state, seat, res, -1)
    gain_at(state, seat, D.money_at, m.sell)
  end
  tally(state, seat, "trades")
end

-- Whether a caterpillar of species sp with f failures of this transformation and lf in its
-- life is dead.
local function dies_of(ctx, sp, f, lf)
  if sp.power == "attack" and ctx.params.kamikaze_immune then return false end
  local n = ctx.params.failure_scope == "life" and lf or f
  return n >= ctx.params.failures_to_die
end

-- "<seat>'s <species> grew to <stage>", built once per seat and stage (st.grew, in D).
local function grew_text(seat, sp, st)
  local texts = st.grew
  if not texts then
    texts = {}
    st.grew = texts
  end
  local text = texts[seat]
  if not text then
    text = seat_name(seat) .. "'s " .. sp.id .. " grew to " .. st.id
    texts[seat] = text
  end
  return text
end

function moves.evolve(ctx, state, seat, move)
  if step_of(state) ~= "evolve" then set_step(state, "evolve") end   -- evolving closes the optional steps
  local viv = read_viv(state, seat)
  local c = find(viv, move.args.caterpillar)
  local sp = D.sps[viv[c + SP]]
  local nxt = sp.stages[viv[c + ST] + 1]
  local cost, _, units = stage_cost(state, nxt)
  pay(state, seat, cost, units)
  tally(state, seat, "evolutions")
  if not nxt.trans then
    vset(state, seat, viv, c, ST, viv[c + ST] + 1)
    reached(state, seat, viv, c)
    summarize(state, seat, viv)
    note(state, grew_text(seat, sp, nxt))
    return
  end
  tset(state, T_PENDING, PENDING_CODE.transform)
  tset(state, T_PENDING_ID, viv[c + ID])
  tset(state, T_PENDING_UNITS, units)
  set_step(state, "roll")
end

local function resolve_transformation(ctx, state, seat, id, units)
  local viv = read_viv(state, seat)
  local c = find(viv, id)
  local sp = D.sps[viv[c + SP]]
  local nxt = sp.stages[viv[c + ST] + 1]
  set_step(state, "evolve")
  local total = ctx.dice:roll("2d6")
  count(state, "transformations tried")
  local text = seat_name(seat) .. "'s " .. sp.id .. " tried " .. nxt.id .. ": rolled " .. total .. " (" .. nxt.needs .. "), "
  if total >= nxt.threshold then
    vset(state, seat, viv, c, ST, viv[c + ST] + 1)
    vset(state, seat, viv, c, F, 0)
    summarize(state, seat, viv)
    reached(state, seat, viv, c)
    if sp.power == "gold_refund" and (nxt.kind == "moult" or ctx.params.gold_refund_on == "transformations") then
      gain_at(state, seat, D.money_at, units * D.powers.refund)
      tally(state, seat, "gold refunds", units * D.powers.refund)
    end
    note(state, text .. "success")
    return
  end
  vset(state, seat, viv, c, F, viv[c + F] + 1)
  vset(state, seat, viv, c, LF, viv[c + LF] + 1)
  count(state, "transformations failed")
  tally(state, seat, "failures")
  if dies_of(ctx, sp, viv[c + F], viv[c + LF]) then
    remove_caterpillar(state, seat, viv, c, nil)
    tally_at(state, seat, nxt.death_i)
    count(state, "deaths")
    if rec(state, seat)[P_INSURED] == 1 then
      gain_at(state, seat, D.money_at, sp.price)
      tally(state, seat, "insurance payouts")
    end
    note(state, text .. "failed: the caterpillar died")
    return
  end
  summarize(state, seat, viv)
  note(state, text .. "failed")
end

function moves.roll(ctx, state, seat, move)
  local t = tab(state)
  local pending, id, units = PENDINGS[t[T_PENDING]], t[T_PENDING_ID], t[T_PENDING_UNITS]
  tset(state, T_PENDING, 0)
  if pending == "nature" then return resolve_nature(ctx, state, seat) end
  if pending == "racket" then return resolve_racket(ctx, state, seat) end
  tset(state, T_PENDING_ID, 0)
  tset(state, T_PENDING_UNITS, 0)
  return resolve_transformation(ctx, state, seat, id, units)
end

moves["end"] = function(ctx, state, seat, move)
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

-- Every handler starts a hook call.
game.moves = {}
for name, handler in pairs(moves) do
  game.moves[name] = function(ctx, state, seat, move)
    begin(ctx)
    return handler(ctx, state, seat, move)
  end
end

-- ---------------------------------------------------------------------------------------
-- Scoring, statistics, evaluation and view.

game.categories = { "gold", "dromedary", "kamikaze" }

local function points_by_species(viv)
  local by = {}
  for k, id in ipairs(D.species) do by[id] = 0 end
  for c = 0, #viv - 1, FIELDS do
    local id = D.species[viv[c + SP]]
    by[id] = by[id] + stage_of(viv, c).points
  end
  return by
end

function game.score(ctx, state)
  begin(ctx)
  local lines, totals = {}, {}
  local n = state.player_count
  for seat = 1, n do
    local b = points_by_species(read_viv(state, seat))
    local t = 0
    for _, id in ipairs(D.species) do t = t + b[id] end
    lines[seat] = { total = t, breakdown = b }
    totals[seat] = t
  end
  local best = -1
  for seat = 1, n do best = math.max(best, totals[seat]) end
  local winners = {}
  for seat = 1, n do
    if totals[seat] == best then winners[#winners + 1] = seat end
  end
  local rule = ctx.params.tie_rule
  if #winners > 1 and rule ~= "shared" then
    local key, top = {}, -1
    for _, seat in ipairs(winners) do
      local h = holdings(state, seat)
      local v = h[D.money]
      if rule == "resources" then
        for _, res in ipairs(D.goods) do v = v + h[res] end
      end
      key[seat] = v
      top = math.max(top, v)
    end
    local kept = {}
    for _, seat in ipairs(winners) do
      if key[seat] == top then kept[#kept + 1] = seat end
    end
    winners = kept
  end
  local names = {}
  for i, seat in ipairs(winners) do names[i] = seat_name(seat) end
  local extra = { winner = table.concat(names, "+"), ending = ending_of(state) or "running",
                  rounds = tab(state)[T_ROUND] }
  return lines, extra
end

function game.stats(ctx, state)
  begin(ctx)
  local stats = state:read("stats")
  local players = {}
  for seat = 1, state.player_count do
    local r, p, base = rec(state, seat), {}, (seat - 1) * #D.stat_keys
    for i, key in ipairs(D.stat_keys) do
      local h = D.hot_index[key]
      p[key] = h and r[h] or stats[base + i]
    end
    local viv = read_viv(state, seat)
    for k, sp in ipairs(D.species) do p["held:" .. sp] = species_count(viv, k) end
    players[seat] = p
  end
  local counts, base = {}, state.player_count * #D.stat_keys
  for i, key in ipairs(COUNT_KEYS) do
    local h = D.hot_index[key]   -- counted per player: the game's count is their sum
    if h then
      counts[key] = 0
      for seat = 1, state.player_count do counts[key] = counts[key] + rec(state, seat)[h] end
    else
      counts[key] = stats[base + i]
    end
  end
  local tags = {}
  for i, id in ipairs(state:zone("events_shown"):cards()) do tags[i] = "event:" .. id end
  local ending = ending_of(state) or "running"
  -- The round limit is a safety net, not an ending of the rulebook: the report flags it.
  return { rounds = tab(state)[T_ROUND], ending = ending, stopped = ending == "round_limit", tags = tags,
           counts = counts, players = players }
end

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

function game.evaluate(ctx, state, seat)
  local t = S.begin_reading_table(ctx, state)   -- a copy: read-only, and every number is needed
  local step = t[T_STEP]
  if step == STEP_CODE.over then
    local lines = game.score(ctx, state)
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

local function vivarium_text(viv)
  local lines = {}
  for k, sp in ipairs(D.sps) do
    local groups, order = {}, {}
    for c = 0, #viv - 1, FIELDS do
      if viv[c + SP] == k then
        local f = viv[c + F]
        local key = sp.stages[viv[c + ST]].id
        if f > 0 then key = key .. " (" .. f .. " failure" .. (f > 1 and "s" or "") .. ")" end
        if not groups[key] then
          groups[key] = { n = 0, st = viv[c + ST] }
          order[#order + 1] = key
        end
        groups[key].n = groups[key].n + 1
      end
    end
    table.sort(order, function(a, b) return groups[a].st < groups[b].st or (groups[a].st == groups[b].st and a < b) end)
    local parts = {}
    for _, key in ipairs(order) do parts[#parts + 1] = key .. " x" .. groups[key].n end
    lines[#lines + 1] = string.format("    %-10s %s", sp.id .. ":", #parts > 0 and table.concat(parts, ", ") or "-")
  end
  return table.concat(lines, "\n")
end

-- What each step means at the table (recap order of the rulebook).
local STEP_LABELS = {
  racket = "2. racket: pay or skip the turn", sell = "2. event: sell caterpillars at their price",
  insure = "2. event: the insurer's offer", dromedary = "3. powers: dromedary income",
  kamikaze = "3. powers: kamikaze attack, or go on", outing = "4. nature or market, or go on",
  market = "4. market, or go on", roll = "roll the dice", evolve = "5. evolutions, then 6. end the turn",
}

-- The circular time board, the token's space in brackets, and how many rounds until the next
-- event day and the next nature/market day.
local SPACE_LETTER = { plain = "-", event = "E", nature_market = "N" }
local function time_board_text(position)
  local cells, until_kind = {}, {}
  local n = #D.spaces
  for i = 1, n do
    local letter = SPACE_LETTER[D.spaces[i]] or "?"
    cells[i] = i == position and ("[" .. letter .. "]") or letter
    local ahead = (i - position) % n
    local kind = D.spaces[i]
    if ahead > 0 and (not until_kind[kind] or ahead < until_kind[kind]) then until_kind[kind] = ahead end
  end
  local function rounds(k)
    local r = until_kind[k]
    return r and (r .. (r == 1 and " round" or " rounds")) or "never"
  end
  return string.format("Time board (E event, N nature/market, - plain): %s; next event day in %s, " ..
                       "next nature/market day in %s.", table.concat(cells, " "), rounds("event"),
                       rounds("nature_market"))
end

function game.view(ctx, state, seat)
  begin(ctx)
  local out, t = {}, tab(state)
  local position = state:track("time"):get()
  local kinds = { plain = "plain day", event = "event day", nature_market = "nature/market day" }
  out[#out + 1] = string.format("Round %d. Time token on space %d of %d (%s); %d event card(s) left%s.",
    t[T_ROUND], position, #D.spaces, kinds[D.spaces[position]], state:zone("events"):count(),
    ending_of(state) and ("; the game ends after this round (" .. ending_of(state) .. ")") or "")
  local perm = {}
  for _, effect in ipairs({ "drought", "insurer", "racket" }) do
    if event_with(state, effect) then perm[#perm + 1] = effect end
  end
  out[#out + 1] = "Permanent events: " .. (#perm > 0 and table.concat(perm, ", ") or "none") ..
                  ". Current event (this round): " .. (current_event(state) or { id = "none" }).id .. "."
  out[#out + 1] = time_board_text(position)
  if drought(state) then out[#out + 1] = "Drought: evolutions cost the drought prices." end
  if state.data.event_note then out[#out + 1] = "Event this round: " .. state.data.event_note end
  if state.data.last then out[#out + 1] = "Last: " .. state.data.last end
  for s = 1, state.player_count do
    local h = holdings(state, s)
    local parts = {}
    for _, res in ipairs(D.res) do parts[#parts + 1] = res .. " " .. h[res] .. "/" .. D.res_index[res].cap end
    local flags = {}
    if rec(state, s)[P_INSURED] == 1 then flags[#flags + 1] = "insured" end
    if s == t[T_SEAT] and step_of(state) ~= "over" then
      flags[#flags + 1] = "to play: " .. STEP_LABELS[step_of(state)]
      if t[T_SICK] == 1 then flags[#flags + 1] = "sick: no income this turn" end
    end
    local viv = read_viv(state, s)
    local b = points_by_species(viv)
    local pts = 0
    for _, id in ipairs(D.species) do pts = pts + b[id] end
    out[#out + 1] = string.format("%s%s: %s; %d points%s", seat_name(s), s == 1 and " (youngest)" or "",
                                  table.concat(parts, ", "), pts,
                                  #flags > 0 and (" [" .. table.concat(flags, "; ") .. "]") or "")
    out[#out + 1] = vivarium_text(viv)
  end
  return table.concat(out, "\n")
end

-- ---------------------------------------------------------------------------------------
-- describe: each move in words, with the data's display names ("evolve a gold-moult
-- caterpillar from birth to grow 1 for 1 water + 1 leaf"), for plateau play and the studio.
-- The move's arguments stay what tests and saves use; this only reads them.

local NAMES
local function names(ctx)
  if NAMES then return NAMES end
  NAMES = {}
  local d = ctx.data.chenilles
  for _, list in ipairs({ d.species, d.resources }) do
    for _, e in ipairs(list) do NAMES[e.id] = e.name and e.name.en or e.id end
  end
  return NAMES
end

local function stage_words(id) return (tostring(id):gsub("_", " ")) end

function game.describe(ctx, state, seat, move)
  local a = move.args or {}
  local n = names(ctx)
  local t = move.type
  if t == "evolve" then
    local text = "evolve a " .. (n[a.species] or a.species) .. " from " .. stage_words(a.from) .. " to " ..
                 stage_words(a.to) .. " for " .. a.cost
    if a.needs then text = text .. " (a transformation: needs " .. a.needs .. ", " .. a.odds .. " chance)" end
    if a.failures then text = text .. ", " .. a.failures .. " failure(s) so far" end
    return text
  elseif t == "dromedary" then
    return "take 1 " .. (n[a.resource] or a.resource) .. " (dromedary income, " .. a.left .. " to take)"
  elseif t == "nature" then
    return "go to nature (roll " .. (a.roll or "d6 on the forest board") .. ")"
  elseif t == "roll" then
    local text = "roll " .. a.dice .. (a.on and (" on " .. a.on) or "")
    if a.to then text = text .. " for the transformation to " .. stage_words(a.to) end
    if a.needs then text = text .. " (needs " .. a.needs .. ")" end
    if a.hits_on then text = text .. " (the racket hits on " .. a.hits_on .. ")" end
    return text
  elseif t == "buy" then
    return "buy a " .. (n[a.species] or a.species) .. " at the market for " .. a.price
  elseif t == "trade" then
    if a.deal == "buy" then return "buy " .. a.get .. " at the market for " .. a.give end
    return "sell " .. a.give .. " at the market for " .. a.get
  elseif t == "attack" then
    return "send a kamikaze caterpillar (" .. stage_words(a.stage) .. ") against " .. a.target .. ": pay " .. a.cost ..
           ", destroy " .. a.destroys
  elseif t == "sell" then
    return "sell a " .. (n[a.species] or a.species) .. " (" .. stage_words(a.stage) .. ") for " .. a.price
  elseif t == "insure" then
    return "buy insurance for " .. a.cost
  elseif t == "done" then
    return "go on (no more " .. (a.step == "insure" and "insurance" or a.step == "sell" and "sales" or "of this step") .. ")"
  elseif t == "racket" then
    if a.choice == "pay" then return "pay the racket " .. a.cost end
    return "skip the turn rather than pay the racket"
  elseif t == "end" then
    return "end the turn and take " .. a.gain
  end
  return nil
end

return game
