-- Chenilles: a caterpillar-breeding management game (a designer's untested prototype). Each
-- round moves the time token on the circular time board (revealing an event card on event
-- spaces); then each player, youngest (seat 1) first, plays the recap order of the rulebook:
-- racket roll, the current event's action, caterpillar powers, nature or market on
-- nature/market days, evolutions, then copper or a resource card. The game ends at the end of
-- the round in which the first butterfly appears or the last event card is revealed.
-- Every number is data (data/chenilles.json); rules choices are manifest parameters. The turn
-- is a small state machine kept in state.data.step (see STEPS); README.md explains it all.
--
-- State layout (compact on purpose: the host copies the state before every move):
--   viv_<seat>  the vivarium, a list of caterpillars {id, species index, stage index,
--               failures of the current transformation, failures in its life}
--   stats       per seat, a list of tallies in the order of D.stat_keys (see `stats`)
--   counts      game-level tallies in the order of D.count_keys
--   counters    one per resource and seat (copper, water, foods), capped by the data

local game = { api_version = 1, version = 1 }

-- Weights of the heuristic `evaluate` (bots only, not rules). Units are "points at the end".
local WEIGHTS = {
  unit = 0.45,            -- a unit of water or food held while the game has time left
  copper = 0.3,           -- a copper coin held while the game has time left
  plan_unit = 0.55,       -- a unit spent on a future evolution (above `unit`, so evolving pays)
  floor = 0.1,            -- share of those values kept when the game is about to end
  horizon = 4,            -- rounds left under which future value fades out linearly
  progress = 1.0,         -- weight of a caterpillar's expected future points (see potentials)
  income = 0.45,          -- per dromedary per round left (counting at most `income_rounds`)
  income_rounds = 6,
  attack = 0.4,           -- option value of a kamikaze able to attack
  insured = 0.15,         -- per mortal caterpillar while insured
  opponent = 0.3,         -- share of the best opponent's value subtracted
  skipped = 2.5,          -- per turn lost to the racket
  final = 10,             -- finished game: weight of the score margin
}

-- Fields of a caterpillar record.
local ID, SP, ST, F, LF = 1, 2, 3, 4, 5

-- Per-player tallies reported by `stats` besides the per-species, per-stage, per-resource,
-- per-lot and per-card ones built from the data.
local PLAYER_KEYS = { "kamikaze attacks", "food destroyed", "insured", "insurance payouts", "evolutions",
                      "failures", "racket hits", "racket paid", "racket skips", "dromedary income",
                      "gold refunds", "took copper", "took card", "trades", "hitech advances",
                      "lost:hazard", "lost:buyback", "lost:broken_lamps", "lost:sold", "lost:kamikaze attack" }
local COUNT_KEYS = { "kamikaze attacks", "food destroyed", "nature trips", "market visits", "transformations tried",
                     "transformations failed", "deaths", "butterflies" }

-- ---------------------------------------------------------------------------------------
-- Data, compiled once per VM (a cache of pure data, rebuilt if the data table changes).

local D, D_src

local function fail_data(path, message)
  error("data/chenilles.json: " .. path .. ": " .. message, 0)
end

local function odds_of(threshold)
  local ways = 0
  for a = 1, 6 do
    for b = 1, 6 do
      if a + b >= threshold then ways = ways + 1 end
    end
  end
  return ways / 36
end

-- A cost map as an ordered list {res, n} (resource order of the data), its text and units.
local function compile_cost(cost, path, goods_index, goods)
  local list, parts, units = {}, {}, 0
  if cost then
    for res in pairs(cost) do
      if not goods_index[res] then fail_data(path, "unknown resource '" .. res .. "' (money cannot be a cost)") end
    end
    for _, res in ipairs(goods) do
      local n = cost[res]
      if n and n > 0 then
        list[#list + 1] = { res, n }
        parts[#parts + 1] = n .. " " .. res
        units = units + n
      end
    end
  end
  return list, (#parts > 0 and table.concat(parts, " + ") or "free"), units
end

local function compile_gain(gain, path, res_index)
  local list = {}
  if gain then
    for res, n in pairs(gain) do
      if not res_index[res] then fail_data(path, "unknown resource '" .. res .. "'") end
      if n ~= 0 then list[#list + 1] = { res, n } end
    end
  end
  return list
end

local function compile_caterpillars(map, path, sp_index)
  local list = {}
  if map then
    for sp, n in pairs(map) do
      if not sp_index[sp] then fail_data(path, "unknown species '" .. sp .. "'") end
      if n > 0 then list[#list + 1] = { sp_index[sp], n } end
    end
  end
  return list
end

-- Expected worth of a caterpillar on each stage if it is pushed on while that pays (used by
-- `evaluate` only). v[i]: no failure yet; vf[i]: one failure already (the next one kills a
-- mortal caterpillar). v(last) = points; otherwise the best of stopping (points) and trying
-- the next stage, which costs its resources at WEIGHTS.plan_unit; the kamikaze retries freely.
local function potentials(sp)
  local v, vf = {}, {}
  local stages = sp.stages
  v[#stages] = stages[#stages].points
  vf[#stages] = v[#stages]
  for i = #stages - 1, 1, -1 do
    local nxt = stages[i + 1]
    local pts = stages[i].points
    local c = nxt.units * WEIGHTS.plan_unit
    if sp.power == "gold_refund" and nxt.kind == "moult" then c = c - nxt.units * WEIGHTS.copper end
    if not nxt.trans then
      v[i] = math.max(pts, v[i + 1] - c)
      vf[i] = v[i]
    elseif sp.power == "attack" then
      v[i] = math.max(pts, v[i + 1] - c / math.max(nxt.odds, 0.05))
      vf[i] = v[i]
    else
      local p = nxt.odds
      vf[i] = math.max(pts, p * v[i + 1] - c)
      v[i] = math.max(pts, p * v[i + 1] + (1 - p) * vf[i] - c)
    end
  end
  return v, vf
end

local function compile(ctx)
  local src = ctx.data.chenilles
  local d = { res = {}, res_index = {}, goods = {}, goods_index = {}, foods = {}, species = {}, sp_index = {},
              sps = {}, trans_ids = {}, forest = {}, hazard = {}, rcard = {}, event = {}, market = {},
              market_index = {}, spaces = {} }
  local registry = {}
  for _, card in ipairs(ctx.data.cards.cards) do registry[card.id] = true end
  local function registered(id, path)
    if not registry[id] then fail_data(path, "card '" .. id .. "' is missing from data/cards.json") end
  end
  -- resources
  for i, r in ipairs(src.resources) do
    local path = "resources." .. r.id
    if d.res_index[r.id] then fail_data(path, "duplicate id") end
    d.res[#d.res + 1] = r.id
    d.res_index[r.id] = { cap = r.cap, start = r.start, kind = r.kind, order = i }
    if r.kind == "money" then
      if d.money then fail_data(path, "a second 'money' resource (only one is allowed)") end
      d.money = r.id
    else
      d.goods[#d.goods + 1] = r.id
      d.goods_index[r.id] = #d.goods
      if r.kind == "food" then d.foods[#d.foods + 1] = r.id end
    end
  end
  if not d.money then fail_data("resources", "one resource must have kind 'money' (the copper)") end
  if #d.foods == 0 then fail_data("resources", "at least one 'food' resource is needed") end
  -- species and their chronologies
  local seen_trans = {}
  for k, s in ipairs(src.species) do
    if d.sp_index[s.id] then fail_data("species." .. s.id, "duplicate id") end
    d.species[k] = s.id
    d.sp_index[s.id] = k
    local sp = { id = s.id, power = s.power, price = s.price, cap = s.cap, start = s.start, stages = {} }
    local ids = {}
    for i, st in ipairs(s.stages) do
      local path = "species." .. s.id .. ".stages." .. st.id
      if ids[st.id] then fail_data(path, "duplicate id") end
      ids[st.id] = true
      if (i == 1) ~= (st.kind == "start") then fail_data(path, "the first stage, and only it, has kind 'start'") end
      local trans = st.kind == "moult" or st.kind == "chrysalis" or st.kind == "butterfly"
      if trans and not st.threshold then fail_data(path, "a transformation needs a threshold") end
      local cost, cost_text, units = compile_cost(st.cost, path .. ".cost", d.goods_index, d.goods)
      local dcost, dcost_text, dunits = compile_cost(st.drought_cost or st.cost, path .. ".drought_cost",
                                                     d.goods_index, d.goods)
      local c = { id = st.id, column = st.column, kind = st.kind, points = st.points, trans = trans,
                  threshold = st.threshold, cost = cost, cost_text = cost_text, units = units,
                  dcost = dcost, dcost_text = dcost_text, dunits = dunits }
      if trans then
        c.odds = odds_of(st.threshold)
        c.needs = "2d6>=" .. st.threshold
        c.odds_text = string.format("%d%%", math.floor(c.odds * 100 + 0.5))
        if not seen_trans[st.id] then
          seen_trans[st.id] = true
          d.trans_ids[#d.trans_ids + 1] = st.id
        end
      end
      sp.stages[i] = c
    end
    sp.last = #sp.stages
    sp.potential, sp.potential_failed = potentials(sp)
    d.sps[k] = sp
  end
  -- powers, income, market
  d.powers = { refund = src.powers.gold_refund_per_resource, income = src.powers.dromedary_income,
               price_base = src.powers.kamikaze_price_base, destroy = src.powers.kamikaze_destroy_per_column }
  d.income_copper = src.income.copper
  for _, m in ipairs(src.market.resources) do
    if not d.goods_index[m.id] then fail_data("market.resources." .. m.id, "unknown resource") end
    d.market[#d.market + 1] = { id = m.id, buy = m.buy, sell = m.sell }
    d.market_index[m.id] = d.market[#d.market]
  end
  -- time board
  d.event_spaces = 0
  for i, space in ipairs(src.time_board.spaces) do
    d.spaces[i] = space.kind
    if space.kind == "event" then d.event_spaces = d.event_spaces + 1 end
  end
  -- forest lots by die face
  d.lots, d.avg_found = {}, {}
  for k = 1, #d.sps do d.avg_found[k] = 0 end
  for _, lot in ipairs(src.forest) do
    for sp, n in pairs(lot.caterpillars) do
      if d.sp_index[sp] then d.avg_found[d.sp_index[sp]] = d.avg_found[d.sp_index[sp]] + n / 6 end
    end
    local path = "forest." .. lot.id
    if d.forest[lot.roll] then fail_data(path, "a second lot for roll " .. lot.roll) end
    d.forest[lot.roll] = { id = lot.id, caterpillars = compile_caterpillars(lot.caterpillars, path, d.sp_index),
                           market_after = lot.market_after == true }
    d.lots[#d.lots + 1] = lot.id
  end
  -- decks
  d.hazard_deck, d.rcard_deck, d.event_deck, d.hazard_ids = {}, {}, {}, {}
  for _, h in ipairs(src.hazards) do
    local path = "hazards." .. h.id
    registered(h.id, path)
    d.hazard[h.id] = { id = h.id, gain = compile_gain(h.gain, path .. ".gain", d.res_index),
                       caterpillars = compile_caterpillars(h.caterpillars, path, d.sp_index),
                       lose = h.lose_most_evolved or 0, no_income = h.no_income == true }
    d.hazard_ids[#d.hazard_ids + 1] = h.id
    for _ = 1, h.count do d.hazard_deck[#d.hazard_deck + 1] = h.id end
  end
  local card_units = 0
  for _, c in ipairs(src.resource_cards) do
    local path = "resource_cards." .. c.id
    registered(c.id, path)
    d.rcard[c.id] = compile_gain(c.gain, path .. ".gain", d.res_index)
    for _ = 1, c.count do d.rcard_deck[#d.rcard_deck + 1] = c.id end
    for _, g in ipairs(d.rcard[c.id]) do card_units = card_units + c.count * g[2] end
  end
  d.card_units = #d.rcard_deck > 0 and card_units / #d.rcard_deck or 0   -- average units per card
  for _, e in ipairs(src.events) do
    local path = "events." .. e.id
    registered(e.id, path)
    d.event[e.id] = { id = e.id, effect = e.effect, kind = e.kind, price = e.price or 5, fail_max = e.fail_max or 1,
                      fee = e.fee or 1, factor = e.factor or 2, caterpillars = e.caterpillars or 2,
                      column = e.column or 4 }
    for _ = 1, e.count do d.event_deck[#d.event_deck + 1] = e.id end
  end
  if #d.hazard_deck == 0 then fail_data("hazards", "the hazard deck is empty (every count is 0)") end
  if #d.rcard_deck == 0 then fail_data("resource_cards", "the resource deck is empty (every count is 0)") end
  -- the tallies `stats` reports, in a fixed order
  local keys = {}
  for _, k in ipairs(PLAYER_KEYS) do keys[#keys + 1] = k end
  for _, sp in ipairs(d.species) do
    for _, group in ipairs({ "bought:", "found:", "caterpillars lost to cap:" }) do keys[#keys + 1] = group .. sp end
  end
  for _, id in ipairs(d.trans_ids) do
    keys[#keys + 1] = "death:" .. id
    keys[#keys + 1] = "reached:" .. id
  end
  for _, res in ipairs(d.res) do keys[#keys + 1] = "lost to cap:" .. res end
  for _, id in ipairs(d.lots) do keys[#keys + 1] = "forest:" .. id end
  for _, id in ipairs(d.hazard_ids) do keys[#keys + 1] = "hazard:" .. id end
  d.stat_keys, d.stat_index = keys, {}
  for i, k in ipairs(keys) do d.stat_index[k] = i end
  d.count_index = {}
  for i, k in ipairs(COUNT_KEYS) do d.count_index[k] = i end
  return d
end

local function data(ctx)
  local src = ctx.data.chenilles
  if D_src ~= src then
    D = compile(ctx)
    D_src = src
  end
  return D
end

-- ---------------------------------------------------------------------------------------
-- Small helpers over the state. They use the module's D, which every hook sets first through
-- data(ctx).

local function seat_name(seat) return "P" .. seat end

local VIV_KEYS = {}
for seat = 1, 16 do VIV_KEYS[seat] = "viv_" .. seat end

local function read_viv(state, seat) return state:read(VIV_KEYS[seat]) end

-- Writes a vivarium and its summary for `evaluate` (points, expected extra points with no
-- time discount, income caterpillars, attackers, mortal ones), so that evaluating a position
-- reads one small list instead of every vivarium.
local function write_viv(state, seat, viv)
  state.data[VIV_KEYS[seat]] = viv
  local points, extra, incomes, attackers, mortal = 0, 0, 0, 0, 0
  for _, c in ipairs(viv) do
    local sp = D.sps[c[SP]]
    local pts = sp.stages[c[ST]].points
    points = points + pts
    extra = extra + (c[F] > 0 and sp.potential_failed[c[ST]] or sp.potential[c[ST]]) - pts
    local power = sp.power
    if power == "income" then incomes = incomes + 1 end
    if power == "attack" then attackers = attackers + 1 else mortal = mortal + 1 end
  end
  state.data.summary[seat] = { points, extra, incomes, attackers, mortal }
end

local function stage_of(c) return D.sps[c[SP]].stages[c[ST]] end

local function find(viv, id)
  for i, c in ipairs(viv) do
    if c[ID] == id then return i, c end
  end
end

-- Every resource counter of a seat, as a plain table.
local function holdings(state, seat)
  local h = {}
  for _, res in ipairs(D.res) do h[res] = state:counter(res, seat):get() end
  return h
end

local function copper_of(state, seat) return state:counter(D.money, seat):get() end

local function tally(state, seat, key, n)
  local i = D.stat_index[key]
  local t = state.data.stats[seat]
  t[i] = t[i] + (n or 1)
end

local function count(state, key, n)
  local i = D.count_index[key]
  local t = state.data.counts
  t[i] = t[i] + (n or 1)
end

-- Adds n (may be negative) to a resource; what the cap cuts is counted for the report.
local function gain(state, seat, res, n)
  local applied, lost = state:counter(res, seat):add(n)
  if lost and lost > 0 then tally(state, seat, "lost to cap:" .. res, lost) end
  return applied, lost
end

local function species_count(viv, k)
  local n = 0
  for _, c in ipairs(viv) do
    if c[SP] == k then n = n + 1 end
  end
  return n
end

-- Evolution order of two caterpillars: column, then stage index, then points; the older one
-- (lower id) counts as more evolved among equals, so choices are deterministic.
local function more_evolved(a, b)
  local sa, sb = stage_of(a), stage_of(b)
  if sa.column ~= sb.column then return sa.column > sb.column end
  if a[ST] ~= b[ST] then return a[ST] > b[ST] end
  if sa.points ~= sb.points then return sa.points > sb.points end
  return a[ID] < b[ID]
end

local function most_evolved_index(viv)
  local best
  for i, c in ipairs(viv) do
    if not best or more_evolved(c, viv[best]) then best = i end
  end
  return best
end

-- Adds caterpillars at their first stage; those over the species cap are lost and counted.
local function add_caterpillars(state, seat, k, n, how)
  local viv = read_viv(state, seat)
  local have = species_count(viv, k)
  local added = 0
  for _ = 1, n do
    if have >= D.sps[k].cap then break end
    local id = state.data.next_id
    state.data.next_id = id + 1
    viv[#viv + 1] = { id, k, 1, 0, 0 }
    have = have + 1
    added = added + 1
  end
  write_viv(state, seat, viv)
  local sp = D.species[k]
  if how and added > 0 then tally(state, seat, how .. ":" .. sp, added) end
  if n > added then tally(state, seat, "caterpillars lost to cap:" .. sp, n - added) end
  return added
end

local function remove_caterpillar(state, seat, viv, index, why)
  local c = table.remove(viv, index)
  write_viv(state, seat, viv)
  if why then tally(state, seat, "lost:" .. why) end
  return c
end

local function set_ending(state, why)
  if not state.data.ending then state.data.ending = why end
end

-- Bookkeeping once a caterpillar stands on a new stage (a butterfly triggers the end).
local function reached(state, seat, c)
  local st = stage_of(c)
  if st.trans then tally(state, seat, "reached:" .. st.id) end
  if st.kind == "butterfly" then
    count(state, "butterflies")
    set_ending(state, "butterfly")
  end
end

local function drought(state) return state.data.permanent.drought ~= nil end

local function current_effect(state)
  local id = state.data.current_event
  return id and D.event[id].effect or nil
end

-- The first revealed permanent event card with this effect (its numbers apply).
local function event_with(state, effect)
  local id = state.data.permanent[effect]
  return id and D.event[id]
end

local function draw_card(state, deck, discard)
  local z = state:zone(deck)
  if z:count() == 0 then state:zone(discard):reshuffle_into(z) end
  return z:draw(state:zone(discard), 1)[1]
end

local function note(state, text) state.data.last = text end

-- ---------------------------------------------------------------------------------------
-- Rounds and the turn's step machine: racket roll, then STEPS in order (steps with nothing
-- to do are skipped); the "market" step is entered from "outing" only.

local STEPS = { "sell", "insure", "dromedary", "kamikaze", "outing", "evolve" }
local STEP_INDEX = { racket = 0 }
for i, s in ipairs(STEPS) do STEP_INDEX[s] = i end

local begin_round, begin_turn, advance, end_turn

local function insurance_offered(ctx, state, seat)
  local ev = event_with(state, "insurer")
  if not ev or state.data.insured[seat] then return false end
  if ctx.params.insurance_offer == "reveal_round" and current_effect(state) ~= "insurer" then return false end
  return copper_of(state, seat) >= ev.price
end

local function kamikaze_price(column) return column + D.powers.price_base end

local function can_attack(ctx, state, seat, viv)
  if state.data.attacks >= ctx.params.kamikaze_attacks_per_turn then return false end
  local copper = copper_of(state, seat)
  for _, c in ipairs(viv) do
    if D.sps[c[SP]].power == "attack" and copper >= kamikaze_price(stage_of(c).column) then return true end
  end
  return false
end

-- Moves the turn to the first step after `from` that has something to do ("evolve" always has).
function advance(ctx, state, seat, from)
  local viv = read_viv(state, seat)
  local data_ = state.data
  for i = STEP_INDEX[from] + 1, #STEPS do
    local step = STEPS[i]
    local go
    if step == "sell" then
      go = current_effect(state) == "sell_at_price" and #viv > 0
    elseif step == "insure" then
      go = insurance_offered(ctx, state, seat)
    elseif step == "dromedary" then
      local n = 0
      for _, c in ipairs(viv) do
        if D.sps[c[SP]].power == "income" then n = n + D.powers.income end
      end
      if n > 0 then data_.income_left = n end
      go = n > 0
    elseif step == "kamikaze" then
      go = can_attack(ctx, state, seat, viv)
    elseif step == "outing" then
      go = data_.day == "nature_market"
    else
      go = true
    end
    if go then
      data_.step = step
      return
    end
  end
end

local function racket_active(ctx, state)
  local ev = event_with(state, "racket")
  if not ev then return nil end
  local rounds = ctx.params.racket_rounds
  if rounds > 0 and state.data.round >= state.data.racket_round + rounds then return nil end
  return ev
end

function begin_turn(ctx, state, seat)
  local data_ = state.data
  data_.seat = seat
  data_.sick = false
  data_.attacks = 0
  data_.market_only = false
  local racket = racket_active(ctx, state)
  if racket then
    local total = ctx.dice:roll("d6")
    if total <= racket.fail_max then
      tally(state, seat, "racket hits")
      if copper_of(state, seat) >= racket.fee then
        data_.step = "racket"
        return
      end
      tally(state, seat, "racket skips")
      state.data.skipped[seat] = state.data.skipped[seat] + 1
      note(state, seat_name(seat) .. " could not pay the racket and skipped the turn")
      return end_turn(ctx, state, seat)
    end
  end
  return advance(ctx, state, seat, "racket")
end

function end_turn(ctx, state, seat)
  if seat < state.player_count then return begin_turn(ctx, state, seat + 1) end
  if not state.data.ending and state.data.round >= ctx.params.max_rounds then state.data.ending = "round_limit" end
  if state.data.ending then
    state.data.step = "over"
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
    for i, c in ipairs(viv) do
      if c[ST] < D.sps[c[SP]].last then order[#order + 1] = i end
    end
    table.sort(order, function(a, b) return more_evolved(viv[b], viv[a]) end)   -- least evolved first
    local moved = math.min(ev.caterpillars, #order)
    for k = 1, moved do
      local c = viv[order[k]]
      local sp = D.sps[c[SP]]
      c[ST] = c[ST] + 1
      if ctx.params.hitech_advance == "next_transformation" then
        while not sp.stages[c[ST]].trans and c[ST] < sp.last do c[ST] = c[ST] + 1 end
      end
      c[F] = 0
    end
    write_viv(state, seat, viv)
    for k = 1, moved do reached(state, seat, viv[order[k]]) end
    if moved > 0 then tally(state, seat, "hitech advances", moved) end
  end
end

local function buyback(state, ev)
  for seat = 1, state.player_count do
    local viv = read_viv(state, seat)
    local i = most_evolved_index(viv)
    if i then
      local c = remove_caterpillar(state, seat, viv, i, "buyback")
      gain(state, seat, D.money, ev.factor * D.sps[c[SP]].price)
    end
  end
end

local function broken_lamps(state, ev)
  for seat = 1, state.player_count do
    local viv = read_viv(state, seat)
    local kept, burnt = {}, 0
    for _, c in ipairs(viv) do
      if stage_of(c).column == ev.column then burnt = burnt + 1 else kept[#kept + 1] = c end
    end
    if burnt > 0 then
      write_viv(state, seat, kept)
      tally(state, seat, "lost:broken_lamps", burnt)
    end
  end
end

local function reveal_event(ctx, state)
  local deck = state:zone("events")
  if deck:count() == 0 then return end
  local id = deck:draw(state:zone("events_shown"), 1)[1]
  local ev = D.event[id]
  state.data.current_event = id
  local tags = state.data.tags
  tags[#tags + 1] = "event:" .. id
  if ev.kind == "permanent" and not state.data.permanent[ev.effect] then
    state.data.permanent[ev.effect] = id
    if ev.effect == "racket" then state.data.racket_round = state.data.round end
  end
  if ev.effect == "hitech" then hitech(ctx, state, ev)
  elseif ev.effect == "buyback" then buyback(state, ev)
  elseif ev.effect == "broken_lamps" then broken_lamps(state, ev)
  end
  if deck:count() == 0 then set_ending(state, "events") end
end

function begin_round(ctx, state)
  local round = state.data.round + 1
  state.data.round = round
  state:set_round(round)
  state.data.current_event = nil
  local position = state:track("time"):move(1)
  state.data.day = D.spaces[position]
  if D.spaces[position] == "event" then reveal_event(ctx, state) end
  return begin_turn(ctx, state, 1)
end

local function zeros(n)
  local t = {}
  for i = 1, n do t[i] = 0 end
  return t
end

function game.setup(ctx, state)
  local d = data(ctx)
  local stats, insured = {}, {}
  for seat = 1, state.player_count do
    stats[seat] = zeros(#d.stat_keys)
    insured[seat] = false
  end
  state.data.stats, state.data.insured = stats, insured
  state.data.summary = {}
  state.data.skipped = zeros(state.player_count)   -- per seat: turns lost to the racket (for evaluate)
  state.data.counts = zeros(#COUNT_KEYS)
  state.data.tags, state.data.permanent = {}, {}
  state.data.next_id = 1
  state.data.round = 0
  for seat = 1, state.player_count do
    for _, res in ipairs(d.res) do
      local r = d.res_index[res]
      state:add_counter(res, seat, { value = math.min(r.start, r.cap), max = r.cap })
    end
    write_viv(state, seat, {})
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

local function affordable(h, cost)
  for _, rc in ipairs(cost) do
    if h[rc[1]] < rc[2] then return false end
  end
  return true
end

local function income_factor(state)
  if current_effect(state) == "double_income" then return D.event[state.data.current_event].factor end
  return 1
end

local function end_moves(state, moves)
  if state.data.sick then
    moves[#moves + 1] = { type = "end", args = { take = "nothing", gain = "nothing (sick)" } }
    return moves
  end
  local k = income_factor(state)
  moves[#moves + 1] = { type = "end", args = { take = "copper", gain = (D.income_copper * k) .. " copper" } }
  moves[#moves + 1] = { type = "end", args = { take = "card", gain = k == 1 and "a resource card" or
                                                ("a resource card x" .. k) } }
  return moves
end

-- One move per distinct caterpillar state (identical caterpillars give identical moves).
local function evolve_moves(state, seat, moves)
  local viv = read_viv(state, seat)
  local h = holdings(state, seat)
  local seen = {}
  local dry = drought(state)
  for _, c in ipairs(viv) do
    local sp = D.sps[c[SP]]
    local st = c[ST]
    if st < sp.last then
      local key = ((c[SP] * 64 + st) * 64 + c[F]) * 64 + c[LF]
      if not seen[key] then
        seen[key] = true
        local nxt = sp.stages[st + 1]
        local cost = dry and nxt.dcost or nxt.cost
        if affordable(h, cost) then
          local args = { caterpillar = c[ID], species = sp.id, from = sp.stages[st].id, to = nxt.id,
                         cost = dry and nxt.dcost_text or nxt.cost_text }
          if nxt.trans then
            args.needs = nxt.needs
            args.odds = nxt.odds_text
            if c[F] > 0 then args.failures = c[F] end
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
  local h = holdings(state, seat)
  local copper, money_cap = h[D.money], D.res_index[D.money].cap
  for k, sp in ipairs(D.sps) do
    if copper >= sp.price and species_count(viv, k) < sp.cap then
      moves[#moves + 1] = { type = "buy", args = { species = sp.id, price = sp.price .. " copper" } }
    end
  end
  for _, m in ipairs(D.market) do
    local have, cap = h[m.id], D.res_index[m.id].cap
    if m.buy > 0 and copper >= m.buy and have < cap then
      moves[#moves + 1] = { type = "trade", args = { resource = m.id, deal = "buy",
                                                     give = m.buy .. " copper", get = "1 " .. m.id } }
    end
    if m.sell > 0 and have > 0 and copper < money_cap then
      moves[#moves + 1] = { type = "trade", args = { resource = m.id, deal = "sell",
                                                     give = "1 " .. m.id, get = m.sell .. " copper" } }
    end
  end
  return evolve_moves(state, seat, moves)   -- evolving (or ending the turn) leaves the market
end

local function sell_moves(state, seat)
  local moves, seen = {}, {}
  for _, c in ipairs(read_viv(state, seat)) do
    local key = c[SP] * 64 + c[ST]
    if not seen[key] then
      seen[key] = true
      local sp = D.sps[c[SP]]
      moves[#moves + 1] = { type = "sell", args = { caterpillar = c[ID], species = sp.id,
                                                    stage = sp.stages[c[ST]].id, price = sp.price .. " copper" } }
    end
  end
  moves[#moves + 1] = { type = "done", args = { step = "sell" } }
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
  for _, c in ipairs(read_viv(state, seat)) do
    if D.sps[c[SP]].power == "attack" then
      local col = stage_of(c).column
      local best = by_column[col]
      if not best then columns[#columns + 1] = col end
      if not best or more_evolved(best, c) then by_column[col] = c end
    end
  end
  table.sort(columns)
  local targets = attack_targets(ctx, state, seat)
  for _, col in ipairs(columns) do
    local price = kamikaze_price(col)
    if copper >= price then
      local c = by_column[col]
      for _, target in ipairs(targets) do
        moves[#moves + 1] = { type = "attack", args = {
          kamikaze = c[ID], stage = stage_of(c).id, target = seat_name(target),
          cost = price .. " copper", destroys = (col * D.powers.destroy) .. " food" } }
      end
    end
  end
  return moves
end

-- Optional steps list their own moves followed by those of the next step, so playing one of
-- the later moves passes on the optional step (no separate "done" move is needed).
local function outing_moves(state, seat, moves)
  if not state.data.market_only then moves[#moves + 1] = { type = "nature", args = { roll = "d6 on the forest board" } } end
  return market_moves(state, seat, moves)   -- a purchase or a trade is the visit to the market
end

function game.to_move(ctx, state)
  if state.data.step == "over" then return {} end
  return { state.data.seat }
end

function game.legal_moves(ctx, state, seat)
  data(ctx)
  if seat ~= state.data.seat then return {} end
  local step = state.data.step
  if step == "evolve" then return evolve_moves(state, seat, {}) end
  if step == "dromedary" then
    local moves, left = {}, state.data.income_left
    for _, res in ipairs(D.goods) do
      moves[#moves + 1] = { type = "dromedary", args = { resource = res, left = left } }
    end
    return moves
  end
  if step == "outing" then return outing_moves(state, seat, {}) end
  if step == "market" then return market_moves(state, seat, {}) end
  if step == "kamikaze" then
    local moves = kamikaze_moves(ctx, state, seat, {})
    if state.data.day == "nature_market" then return outing_moves(state, seat, moves) end
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
    local pending = state:read("pending")
    if pending[1] == "nature" then return { { type = "roll", args = { dice = "d6", on = "the forest board" } } } end
    local _, c = find(read_viv(state, seat), pending[2])
    local nxt = D.sps[c[SP]].stages[c[ST] + 1]
    return { { type = "roll", args = { dice = "2d6", needs = nxt.needs, caterpillar = c[ID], to = nxt.id } } }
  end
  return {}
end

-- ---------------------------------------------------------------------------------------
-- Move handlers. The host applies only listed moves, so handlers trust their arguments.

game.moves = {}

function game.moves.racket(ctx, state, seat, move)
  data(ctx)
  if move.args.choice == "pay" then
    gain(state, seat, D.money, -event_with(state, "racket").fee)
    tally(state, seat, "racket paid")
    return advance(ctx, state, seat, "racket")
  end
  tally(state, seat, "racket skips")
  state.data.skipped[seat] = state.data.skipped[seat] + 1
  note(state, seat_name(seat) .. " refused to pay the racket and skipped the turn")
  return end_turn(ctx, state, seat)
end

function game.moves.done(ctx, state, seat, move)
  data(ctx)
  return advance(ctx, state, seat, state.data.step)
end

function game.moves.sell(ctx, state, seat, move)
  data(ctx)
  local viv = read_viv(state, seat)
  local i, c = find(viv, move.args.caterpillar)
  remove_caterpillar(state, seat, viv, i, "sold")
  gain(state, seat, D.money, D.sps[c[SP]].price)
  if #viv == 0 then return advance(ctx, state, seat, "sell") end
end

function game.moves.insure(ctx, state, seat, move)
  data(ctx)
  gain(state, seat, D.money, -event_with(state, "insurer").price)
  state.data.insured[seat] = true
  tally(state, seat, "insured")
  return advance(ctx, state, seat, "insure")
end

function game.moves.dromedary(ctx, state, seat, move)
  data(ctx)
  gain(state, seat, move.args.resource, 1)
  tally(state, seat, "dromedary income")
  local left = state.data.income_left - 1
  state.data.income_left = left
  if left <= 0 then return advance(ctx, state, seat, "dromedary") end
end

function game.moves.attack(ctx, state, seat, move)
  data(ctx)
  local viv = read_viv(state, seat)
  local i, c = find(viv, move.args.kamikaze)
  local col = stage_of(c).column
  gain(state, seat, D.money, -kamikaze_price(col))
  remove_caterpillar(state, seat, viv, i, "kamikaze attack")
  local target = tonumber(move.args.target:sub(2))
  -- the victim loses food from the largest stock first (ties: data order)
  local h = holdings(state, target)
  local destroyed = 0
  for _ = 1, col * D.powers.destroy do
    local best
    for _, food in ipairs(D.foods) do
      if h[food] > 0 and (not best or h[food] > h[best]) then best = food end
    end
    if not best then break end
    h[best] = h[best] - 1
    destroyed = destroyed + 1
  end
  for _, food in ipairs(D.foods) do
    local now = state:counter(food, target):get()
    if now ~= h[food] then gain(state, target, food, h[food] - now) end
  end
  state.data.attacks = state.data.attacks + 1
  tally(state, seat, "kamikaze attacks")
  tally(state, target, "food destroyed", destroyed)
  count(state, "kamikaze attacks")
  count(state, "food destroyed", destroyed)
  note(state, seat_name(seat) .. "'s kamikaze destroyed " .. destroyed .. " food of " .. seat_name(target))
  if not can_attack(ctx, state, seat, read_viv(state, seat)) then return advance(ctx, state, seat, "kamikaze") end
end

local function apply_hazard(state, seat, id)
  local h = D.hazard[id]
  for _, g in ipairs(h.gain) do gain(state, seat, g[1], g[2]) end
  for _, cn in ipairs(h.caterpillars) do add_caterpillars(state, seat, cn[1], cn[2], "found") end
  for _ = 1, h.lose do
    local viv = read_viv(state, seat)
    local i = most_evolved_index(viv)
    if i then remove_caterpillar(state, seat, viv, i, "hazard") end
  end
  if h.no_income then state.data.sick = true end
  tally(state, seat, "hazard:" .. id)
end

-- Going to nature and paying for a transformation only set up the roll; the forced "roll" move
-- throws the dice. A player (or a bot looking one move ahead) decides before seeing the dice.
function game.moves.nature(ctx, state, seat, move)
  state.data.pending = { "nature" }
  state.data.step = "roll"
end

local function resolve_nature(ctx, state, seat)
  local roll = ctx.dice:roll("d6")
  local lot = D.forest[roll]
  count(state, "nature trips")
  local text = seat_name(seat) .. " rolled " .. roll .. " in the forest"
  if lot then
    for _, cn in ipairs(lot.caterpillars) do add_caterpillars(state, seat, cn[1], cn[2], "found") end
    tally(state, seat, "forest:" .. lot.id)
    text = text .. " (" .. lot.id .. ")"
  end
  local card = draw_card(state, "hazard_deck", "hazard_discard")
  apply_hazard(state, seat, card)
  note(state, text .. ", then drew the hazard card " .. card)
  if lot and lot.market_after then
    state.data.market_only = true   -- "Bredouille": the market is still open
    state.data.step = "outing"
    return
  end
  return advance(ctx, state, seat, "outing")
end

-- The first purchase or trade of a turn is the visit to the market (no more nature after it).
local function at_market(state)
  if state.data.step ~= "market" then
    count(state, "market visits")
    state.data.step = "market"
  end
end

function game.moves.buy(ctx, state, seat, move)
  data(ctx)
  at_market(state)
  local k = D.sp_index[move.args.species]
  gain(state, seat, D.money, -D.sps[k].price)
  add_caterpillars(state, seat, k, 1, "bought")
end

function game.moves.trade(ctx, state, seat, move)
  data(ctx)
  at_market(state)
  local res = move.args.resource
  local m = D.market_index[res]
  if move.args.deal == "buy" then
    gain(state, seat, D.money, -m.buy)
    gain(state, seat, res, 1)
  else
    gain(state, seat, res, -1)
    gain(state, seat, D.money, m.sell)
  end
  tally(state, seat, "trades")
end

local function dies_of(ctx, sp, c)
  if sp.power == "attack" and ctx.params.kamikaze_immune then return false end
  local n = ctx.params.failure_scope == "life" and c[LF] or c[F]
  return n >= ctx.params.failures_to_die
end

function game.moves.evolve(ctx, state, seat, move)
  data(ctx)
  state.data.step = "evolve"   -- evolving closes the earlier optional steps
  local viv = read_viv(state, seat)
  local _, c = find(viv, move.args.caterpillar)
  local sp = D.sps[c[SP]]
  local nxt = sp.stages[c[ST] + 1]
  local cost, _, units = stage_cost(state, nxt)
  for _, rc in ipairs(cost) do gain(state, seat, rc[1], -rc[2]) end
  tally(state, seat, "evolutions")
  if not nxt.trans then
    c[ST] = c[ST] + 1
    write_viv(state, seat, viv)
    note(state, seat_name(seat) .. "'s " .. sp.id .. " grew to " .. nxt.id)
    return
  end
  state.data.pending = { "transform", c[ID], units }
  state.data.step = "roll"
end

local function resolve_transformation(ctx, state, seat, id, units)
  local viv = read_viv(state, seat)
  local i, c = find(viv, id)
  local sp = D.sps[c[SP]]
  local nxt = sp.stages[c[ST] + 1]
  state.data.step = "evolve"
  local total = ctx.dice:roll("2d6")
  count(state, "transformations tried")
  local text = seat_name(seat) .. "'s " .. sp.id .. " tried " .. nxt.id .. ": rolled " .. total .. " (" .. nxt.needs .. "), "
  if total >= nxt.threshold then
    c[ST] = c[ST] + 1
    c[F] = 0
    write_viv(state, seat, viv)
    reached(state, seat, c)
    if sp.power == "gold_refund" and (nxt.kind == "moult" or ctx.params.gold_refund_on == "transformations") then
      gain(state, seat, D.money, units * D.powers.refund)
      tally(state, seat, "gold refunds", units * D.powers.refund)
    end
    note(state, text .. "success")
    return
  end
  c[F] = c[F] + 1
  c[LF] = c[LF] + 1
  count(state, "transformations failed")
  tally(state, seat, "failures")
  if dies_of(ctx, sp, c) then
    remove_caterpillar(state, seat, viv, i, nil)
    tally(state, seat, "death:" .. nxt.id)
    count(state, "deaths")
    if state.data.insured[seat] then
      gain(state, seat, D.money, sp.price)
      tally(state, seat, "insurance payouts")
    end
    note(state, text .. "failed: the caterpillar died")
    return
  end
  write_viv(state, seat, viv)
  note(state, text .. "failed")
end

function game.moves.roll(ctx, state, seat, move)
  data(ctx)
  local pending = state:read("pending")
  state.data.pending = nil
  if pending[1] == "nature" then return resolve_nature(ctx, state, seat) end
  return resolve_transformation(ctx, state, seat, pending[2], pending[3])
end

game.moves["end"] = function(ctx, state, seat, move)
  data(ctx)
  local take = move.args.take
  local k = income_factor(state)
  if take == "copper" then
    gain(state, seat, D.money, D.income_copper * k)
    tally(state, seat, "took copper")
  elseif take == "card" then
    local card = draw_card(state, "resource_deck", "resource_discard")
    for _, g in ipairs(D.rcard[card]) do gain(state, seat, g[1], g[2] * k) end
    tally(state, seat, "took card")
  end
  return end_turn(ctx, state, seat)
end

-- ---------------------------------------------------------------------------------------
-- Scoring, statistics, evaluation and view.

game.categories = { "gold", "dromedary", "kamikaze" }

local function points_by_species(viv)
  local by = {}
  for k, id in ipairs(D.species) do by[id] = 0 end
  for _, c in ipairs(viv) do
    local id = D.species[c[SP]]
    by[id] = by[id] + stage_of(c).points
  end
  return by
end

function game.score(ctx, state)
  data(ctx)
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
  local extra = { winner = table.concat(names, "+"), ending = state.data.ending or "running", rounds = state.data.round }
  if ctx.params.stats_in_score then extra.stats = game.stats(ctx, state) end
  return lines, extra
end

function game.stats(ctx, state)
  data(ctx)
  local stats = state:read("stats")
  local players = {}
  for seat = 1, state.player_count do
    local s, p = stats[seat], {}
    for i, key in ipairs(D.stat_keys) do p[key] = s[i] end
    local viv = read_viv(state, seat)
    for k, sp in ipairs(D.species) do p["held:" .. sp] = species_count(viv, k) end
    players[seat] = p
  end
  local counts, raw = {}, state:read("counts")
  for i, key in ipairs(COUNT_KEYS) do counts[key] = raw[i] end
  return { rounds = state.data.round, ending = state.data.ending or "running", tags = state:read("tags"),
           counts = counts, players = players }
end

-- Rounds probably left after this one: event cards left spread over the board's event spaces
-- (0 once an ending is triggered).
local function rounds_left(ctx, state)
  if state.data.ending then return 0 end
  local events = state:zone("events"):count()
  local by_events = D.event_spaces > 0 and events * #D.spaces / D.event_spaces or 99
  return math.min(by_events, ctx.params.max_rounds - state.data.round)
end

local function value_of(state, seat, left, time, summary, insured, skipped)
  local w = WEIGHTS
  local s = summary[seat]
  local v = s[1] + time * w.progress * s[2] + s[3] * math.min(left, w.income_rounds) * D.powers.income * w.income
            + s[4] * time * w.attack
  local mortal = s[5]
  local keep = w.floor + (1 - w.floor) * time
  local goods = 0
  for _, res in ipairs(D.goods) do goods = goods + state:counter(res, seat):get() end
  v = v + keep * (w.copper * copper_of(state, seat) + w.unit * goods)
  if insured[seat] then v = v + time * w.insured * mortal end
  v = v - w.skipped * skipped[seat]
  return v
end

-- Worth of a caterpillar of species k on stage st with f failures (as in write_viv's summary).
local function worth(sp, st, f, time)
  local pts = sp.stages[st].points
  return pts + time * WEIGHTS.progress * ((f > 0 and sp.potential_failed[st] or sp.potential[st]) - pts)
end

-- What a pending roll is expected to add to the value of the position.
local function pending_value(ctx, state, seat, left, time)
  local w = WEIGHTS
  local keep = w.floor + (1 - w.floor) * time
  local pending = state:read("pending")
  if pending[1] == "nature" then
    local v = 0
    for k, sp in ipairs(D.sps) do
      local each = worth(sp, 1, 0, time)
      if sp.power == "income" then each = each + math.min(left, w.income_rounds) * D.powers.income * w.income end
      if sp.power == "attack" then each = each + time * w.attack end
      v = v + D.avg_found[k] * each
    end
    return v
  end
  local _, c = find(read_viv(state, seat), pending[2])
  local sp = D.sps[c[SP]]
  local st, f = c[ST], c[F]
  local now = worth(sp, st, f, time)
  local nxt = sp.stages[st + 1]
  local success = worth(sp, st + 1, 0, time)
  if sp.power == "gold_refund" and (nxt.kind == "moult" or ctx.params.gold_refund_on == "transformations") then
    success = success + keep * w.copper * pending[3] * D.powers.refund
  end
  local failure
  if dies_of(ctx, sp, { c[ID], c[SP], st, f + 1, c[LF] + 1 }) then
    failure = state.data.insured[seat] and keep * w.copper * sp.price or 0
  else
    failure = worth(sp, st, f + 1, time)
  end
  return nxt.odds * success + (1 - nxt.odds) * failure - now
end

function game.evaluate(ctx, state, seat)
  data(ctx)
  if state.data.step == "over" then
    local lines = game.score(ctx, state)
    local best = -math.huge
    for other = 1, state.player_count do
      if other ~= seat then best = math.max(best, lines[other].total) end
    end
    return WEIGHTS.final * (lines[seat].total - best)
  end
  local left = rounds_left(ctx, state)
  local time = math.min(1, left / WEIGHTS.horizon)
  local summary, insured, skipped = state:read("summary"), state:read("insured"), state:read("skipped")
  local mine = value_of(state, seat, left, time, summary, insured, skipped)
  -- The income still to come at the end of the turn, so that evolving is not compared with
  -- ending the turn and cashing it.
  if state.data.seat == seat then
    if not state.data.sick then
      local keep = WEIGHTS.floor + (1 - WEIGHTS.floor) * time
      local k = income_factor(state)
      mine = mine + keep * k * math.max(D.card_units * WEIGHTS.unit, D.income_copper * WEIGHTS.copper)
    end
    if state.data.step == "roll" then mine = mine + pending_value(ctx, state, seat, left, time) end
  end
  local best = 0
  for other = 1, state.player_count do
    if other ~= seat then best = math.max(best, value_of(state, other, left, time, summary, insured, skipped)) end
  end
  return mine - WEIGHTS.opponent * best
end

local function vivarium_text(viv)
  local lines = {}
  for k, sp in ipairs(D.sps) do
    local groups, order = {}, {}
    for _, c in ipairs(viv) do
      if c[SP] == k then
        local key = sp.stages[c[ST]].id
        if c[F] > 0 then key = key .. " (" .. c[F] .. " failure" .. (c[F] > 1 and "s" or "") .. ")" end
        if not groups[key] then
          groups[key] = { n = 0, st = c[ST] }
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

function game.view(ctx, state, seat)
  data(ctx)
  local out = {}
  local position = state:track("time"):get()
  local kinds = { plain = "plain day", event = "event day", nature_market = "nature/market day" }
  out[#out + 1] = string.format("Round %d. Time token on space %d of %d (%s); %d event card(s) left%s.",
    state.data.round, position, #D.spaces, kinds[D.spaces[position]], state:zone("events"):count(),
    state.data.ending and ("; the game ends after this round (" .. state.data.ending .. ")") or "")
  local perm = {}
  for _, effect in ipairs({ "drought", "insurer", "racket" }) do
    if state.data.permanent[effect] then perm[#perm + 1] = effect end
  end
  out[#out + 1] = "Permanent events: " .. (#perm > 0 and table.concat(perm, ", ") or "none") ..
                  ". Current event (this round): " .. (state.data.current_event or "none") .. "."
  if drought(state) then out[#out + 1] = "Drought: evolutions cost the drought prices." end
  if state.data.last then out[#out + 1] = "Last: " .. state.data.last end
  for s = 1, state.player_count do
    local h = holdings(state, s)
    local parts = {}
    for _, res in ipairs(D.res) do parts[#parts + 1] = res .. " " .. h[res] .. "/" .. D.res_index[res].cap end
    local flags = {}
    if state.data.insured[s] then flags[#flags + 1] = "insured" end
    if s == state.data.seat and state.data.step ~= "over" then
      flags[#flags + 1] = "to play: " .. STEP_LABELS[state.data.step]
      if state.data.sick then flags[#flags + 1] = "sick: no income this turn" end
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

return game
