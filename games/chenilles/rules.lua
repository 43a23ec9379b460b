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
-- State layout (compact on purpose: a bot tries every legal move on a scratch state, and the
-- host journals each top-level key of state.data that a move writes, then puts it back;
-- every key written costs, and so does every call into the host):
--   p_<seat>    the player record, a flat list of numbers (P_* below): a summary of the
--               vivarium for the turn steps, the resources (capped by the data; what a cap
--               cuts is counted), and the tallies most moves make
--   t           the table record, a flat list of numbers: the turn (T_* below: round, seat,
--               step, pending roll, ...), the revealed events, then EVN value terms per
--               seat for `evaluate` (EV_* below), which reads the whole record in one call
--   viv_<seat>  the vivarium, a flat list of numbers, five per caterpillar: id, species
--               index, stage index, failures of the current transformation, failures in
--               its life (a caterpillar is named by its offset c: viv[c + ID] ... viv[c + LF])
--   stats       the other tallies: for each seat, one number per key of D.stat_keys (see
--               `stats`), then the game-level ones (COUNT_KEYS)
--   last        the text of the last roll or action, for the view
-- Moves read and write single numbers through data handles (tab, rec, tset, pset, vset), made
-- once per hook call; a vivarium is read once per call as a copy that moves keep up to date
-- (read_viv). Read-only hooks that need many numbers read copies (state:read).

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

local ctx_move   -- ctx.move (the same function in every call), kept by data(ctx)

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

-- Fields of a caterpillar in a vivarium list, after its offset (0, 5, 10, ...).
local ID, SP, ST, F, LF = 1, 2, 3, 4, 5
local FIELDS = 5

-- Fields of a player record (state.data.p_<seat>): caterpillars with the income power, with
-- the attack power, the others, the lowest column of an attacker (0: none), insured (0/1),
-- turns lost to the racket; then resource r (data order) at P_RES + r, "lost to
-- cap:<resource r>" at D.p_lost + r, and the HOT_KEYS tallies after those.
local P_INCOMES, P_ATTACKERS, P_MORTAL, P_KCOL, P_INSURED, P_SKIPPED = 1, 2, 3, 4, 5, 6
local P_RES = 6

-- The value terms of a seat in the table record (see value_of): points of the vivarium; its
-- expected extra points (WEIGHTS.progress) plus the attackers' option value; the dromedaries'
-- income per round; copper; water and food units; turns lost to the racket; caterpillars
-- covered by the insurance.
local EV_POINTS, EV_EXTRA, EV_INCOME, EV_COPPER, EV_GOODS, EV_SKIPPED, EV_INSURED = 1, 2, 3, 4, 5, 6, 7
local EVN = 7

-- Fields of the table record (state.data.t): event cards left, round, seat to play, step
-- (STEPS_ALL), sick this turn (0/1), attacks this turn, dromedary resources still to take,
-- market only (0/1: after the empty-handed lot), the day (DAYS), the current event (index in
-- D.event_ids, 0: none), the ending (ENDINGS, 0: none), the next caterpillar id, the round the
-- racket came, the pending roll (PENDINGS, 0: none) with its caterpillar and units paid; then
-- per event effect (D.effects) the first revealed permanent card with it (index in
-- D.event_ids, 0: none); then the seats' value terms from D.t_seats on.
local T_EVENTS, T_ROUND, T_SEAT, T_STEP, T_SICK, T_ATTACKS, T_INCOME, T_MARKET_ONLY, T_DAY, T_EVENT, T_ENDING,
      T_NEXT_ID, T_RACKET_ROUND, T_PENDING, T_PENDING_ID, T_PENDING_UNITS = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
      13, 14, 15, 16
local T_PERM = 16   -- effect e at T_PERM + its index in D.effects

local function codes(names)
  local code = {}
  for i, name in ipairs(names) do code[name] = i end
  return code
end
local STEPS_ALL = { "racket", "sell", "insure", "dromedary", "kamikaze", "outing", "market", "roll", "evolve", "over" }
local STEP_CODE = codes(STEPS_ALL)
local DAYS = { "event", "nature_market", "plain" }
local DAY_CODE = codes(DAYS)
local ENDINGS = { "butterfly", "events", "round_limit" }
local ENDING_CODE = codes(ENDINGS)
local PENDINGS = { "nature", "racket", "transform" }
local PENDING_CODE = codes(PENDINGS)

-- The tallies that moves a bot tries often make (so they live in the player record, which
-- those moves write anyway), besides "lost to cap:<resource>" and "bought:<species>".
-- "market visits" is counted per player but reported for the game only.
local HOT_KEYS = { "dromedary income", "took copper", "took card", "evolutions", "trades", "kamikaze attacks",
                   "food destroyed", "lost:kamikaze attack", "market visits" }

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
local function compile_cost(cost, path, goods_index, goods, res_index)
  local list, parts, units = {}, {}, 0
  if cost then
    for res in pairs(cost) do
      if not goods_index[res] then fail_data(path, "unknown resource '" .. res .. "' (money cannot be a cost)") end
    end
    for _, res in ipairs(goods) do
      local n = cost[res]
      if n and n > 0 then
        list[#list + 1] = { res, n, P_RES + res_index[res].order }
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
    local sp = { id = s.id, power = s.power, price = s.price, cap = s.cap, start = s.start, stages = {},
                 price_text = s.price .. " copper",
                 buy_move = ctx.move{ type = "buy", args = { species = s.id, price = s.price .. " copper" } } }
    local ids = {}
    for i, st in ipairs(s.stages) do
      local path = "species." .. s.id .. ".stages." .. st.id
      if ids[st.id] then fail_data(path, "duplicate id") end
      ids[st.id] = true
      if (i == 1) ~= (st.kind == "start") then fail_data(path, "the first stage, and only it, has kind 'start'") end
      local trans = st.kind == "moult" or st.kind == "chrysalis" or st.kind == "butterfly"
      if trans and not st.threshold then fail_data(path, "a transformation needs a threshold") end
      local cost, cost_text, units = compile_cost(st.cost, path .. ".cost", d.goods_index, d.goods, d.res_index)
      local dcost, dcost_text, dunits = compile_cost(st.drought_cost or st.cost, path .. ".drought_cost",
                                                     d.goods_index, d.goods, d.res_index)
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
  d.attack_text = {}   -- attack texts by column: filled as needed
  -- The moves listed again and again, made once and frozen (ctx.move): listing one then costs
  -- the host no conversion. The end of the turn by income factor, the dromedary's resource by
  -- resource and resources left, filled as needed.
  d.end_moves, d.dromedary_moves = {}, {}
  d.end_sick = ctx.move{ type = "end", args = { take = "nothing", gain = "nothing (sick)" } }
  d.nature_move = ctx.move{ type = "nature", args = { roll = "d6 on the forest board" } }
  d.sell_done = ctx.move{ type = "done", args = { step = "sell" } }
  for _, m in ipairs(src.market.resources) do
    if not d.goods_index[m.id] then fail_data("market.resources." .. m.id, "unknown resource") end
    d.market[#d.market + 1] = { id = m.id, buy = m.buy, sell = m.sell,
      buy_move = ctx.move{ type = "trade", args = { resource = m.id, deal = "buy", give = m.buy .. " copper",
                                                     get = "1 " .. m.id } },
      sell_move = ctx.move{ type = "trade", args = { resource = m.id, deal = "sell", give = "1 " .. m.id,
                                                      get = m.sell .. " copper" } } }
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
  -- the table record: events by index, a slot per effect, then the seats' value terms
  d.event_ids, d.event_code, d.effects, d.effect_slot = {}, {}, {}, {}
  for _, e in ipairs(src.events) do
    d.event_ids[#d.event_ids + 1] = e.id
    d.event_code[e.id] = #d.event_ids
    if not d.effect_slot[e.effect] then
      d.effects[#d.effects + 1] = e.effect
      d.effect_slot[e.effect] = T_PERM + #d.effects
    end
  end
  d.t_seats = T_PERM + #d.effects
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
  -- Stages reached per species, every stage after birth: "a stage nobody reaches" is a finding
  -- about one species' chronology (a threshold of 13 for the kamikaze's chrysalis), which the
  -- stage totals above would hide behind the other species.
  for k, sp in ipairs(d.species) do
    for i = 2, #d.sps[k].stages do keys[#keys + 1] = "reached:" .. sp .. "/" .. d.sps[k].stages[i].id end
  end
  for _, res in ipairs(d.res) do keys[#keys + 1] = "lost to cap:" .. res end
  for _, id in ipairs(d.lots) do keys[#keys + 1] = "forest:" .. id end
  for _, id in ipairs(d.hazard_ids) do keys[#keys + 1] = "hazard:" .. id end
  d.stat_keys, d.stat_index = keys, {}
  for i, k in ipairs(keys) do d.stat_index[k] = i end
  d.count_index = {}
  for i, k in ipairs(COUNT_KEYS) do d.count_index[k] = i end
  -- player records: where each resource and each hot tally lives
  d.ri, d.caps, d.goods_at, d.foods_at = {}, {}, {}, {}
  for r, id in ipairs(d.res) do
    d.ri[id] = P_RES + r
    d.caps[P_RES + r] = d.res_index[id].cap
  end
  d.money_at = d.ri[d.money]
  for k, id in ipairs(d.goods) do d.goods_at[k] = d.ri[id] end
  for k, id in ipairs(d.foods) do d.foods_at[k] = d.ri[id] end
  d.p_lost = P_RES + #d.res
  d.hot_index = {}
  for r, id in ipairs(d.res) do d.hot_index["lost to cap:" .. id] = d.p_lost + r end
  local hot = {}
  for _, key in ipairs(HOT_KEYS) do hot[#hot + 1] = key end
  for _, sp in ipairs(d.species) do hot[#hot + 1] = "bought:" .. sp end
  for k, key in ipairs(hot) do d.hot_index[key] = d.p_lost + #d.res + k end
  d.p_len = d.p_lost + #d.res + #hot
  -- tally indices of the keys built from ids, so that moves build no strings
  for k, sp in ipairs(d.species) do
    d.sps[k].bought_key = "bought:" .. sp
    d.sps[k].found_i = d.stat_index["found:" .. sp]
    d.sps[k].capped_i = d.stat_index["caterpillars lost to cap:" .. sp]
    for i, st in ipairs(d.sps[k].stages) do
      if st.trans then
        st.reached_i = d.stat_index["reached:" .. st.id]
        st.death_i = d.stat_index["death:" .. st.id]
      end
      if i > 1 then st.sp_reached_i = d.stat_index["reached:" .. sp .. "/" .. st.id] end
    end
  end
  for _, lot in pairs(d.forest) do lot.stat_i = d.stat_index["forest:" .. lot.id] end
  for id, h in pairs(d.hazard) do h.stat_i = d.stat_index["hazard:" .. id] end
  d.lost_key = {}
  for _, why in ipairs({ "hazard", "buyback", "broken_lamps", "sold", "kamikaze attack" }) do
    d.lost_key[why] = "lost:" .. why
  end
  return d
end

local function data(ctx)
  local src = ctx.data.chenilles
  ctx_move = ctx.move
  if D_src ~= src then
    D = compile(ctx)
    D_src = src
  end
  return D
end

-- ---------------------------------------------------------------------------------------
-- Small helpers over the state. They use the module's D, which every hook sets first through
-- begin(ctx).

local SEAT_NAMES, VIV_KEYS, P_KEYS = {}, {}, {}
for seat = 1, 16 do
  SEAT_NAMES[seat] = "P" .. seat
  VIV_KEYS[seat] = "viv_" .. seat
  P_KEYS[seat] = "p_" .. seat
end

local function seat_name(seat) return SEAT_NAMES[seat] end

-- Per-call caches. Moves read and write the table record and the player records through
-- data handles, one number at a time (reading a whole list copies all of it, and storing
-- one converts all of it); read-only hooks that look at many numbers read copies instead.
-- A hook call (GEN names it; begin starts the next one) makes each handle once, and a
-- vivarium is read at most once, as a copy that moves keep up to date. Nothing is kept from
-- one call to the next.
local GEN = 0
local PH, PH_GEN = {}, {}
local VIV, VIV_GEN, VH, VH_GEN = {}, {}, {}, {}
local TH, TH_GEN

local function begin(ctx)
  GEN = GEN + 1
  return data(ctx)
end

-- A player record (a handle).
local function rec(state, seat)
  if PH_GEN[seat] ~= GEN then PH[seat], PH_GEN[seat] = state.data[P_KEYS[seat]], GEN end
  return PH[seat]
end

local function pset(state, seat, i, v) rec(state, seat)[i] = v end

-- The table record (a handle).
local function tab(state)
  if TH_GEN ~= GEN then TH, TH_GEN = state.data.t, GEN end
  return TH
end

local function tset(state, i, v) tab(state)[i] = v end

local function step_of(state) return STEPS_ALL[tab(state)[T_STEP]] end
local function set_step(state, step) tset(state, T_STEP, STEP_CODE[step]) end

local function ev_set(state, seat, slot, v) tset(state, D.t_seats + (seat - 1) * EVN + slot, v) end

local function ev_add(state, seat, slot, n)
  local i = D.t_seats + (seat - 1) * EVN + slot
  tset(state, i, tab(state)[i] + n)
end

local function read_viv(state, seat)
  if VIV_GEN[seat] ~= GEN then VIV[seat], VIV_GEN[seat] = state:read(VIV_KEYS[seat]), GEN end
  return VIV[seat]
end

-- Sets a field of the caterpillar at offset c (call summarize afterwards).
local function vset(state, seat, viv, c, field, v)
  viv[c + field] = v
  if VH_GEN[seat] ~= GEN then VH[seat], VH_GEN[seat] = state.data[VIV_KEYS[seat]], GEN end
  local handle = VH[seat]   -- a data handle: the write goes into the state
  handle[c + field] = v
end

-- After a change in a vivarium: its summary in the player record (income caterpillars,
-- attackers, the others, the cheapest attacker's column) and its value terms in the table
-- record (points, expected extra points with no time discount, income, insured caterpillars).
local function summarize(state, seat, viv)
  local points, extra, incomes, attackers, mortal, kcol = 0, 0, 0, 0, 0, 0
  local sps = D.sps
  for c = 0, #viv - 1, FIELDS do
    local sp = sps[viv[c + SP]]
    local st = viv[c + ST]
    local pts = sp.stages[st].points
    points = points + pts
    extra = extra + (viv[c + F] > 0 and sp.potential_failed[st] or sp.potential[st]) - pts
    local power = sp.power
    if power == "income" then incomes = incomes + 1 end
    if power == "attack" then
      attackers = attackers + 1
      local col = sp.stages[st].column
      if kcol == 0 or col < kcol then kcol = col end
    else
      mortal = mortal + 1
    end
  end
  local p, w = rec(state, seat), WEIGHTS
  if p[P_INCOMES] ~= incomes then
    pset(state, seat, P_INCOMES, incomes)
    ev_set(state, seat, EV_INCOME, incomes * D.powers.income * w.income)
  end
  if p[P_ATTACKERS] ~= attackers then pset(state, seat, P_ATTACKERS, attackers) end
  if p[P_MORTAL] ~= mortal then
    pset(state, seat, P_MORTAL, mortal)
    if p[P_INSURED] == 1 then ev_set(state, seat, EV_INSURED, mortal) end
  end
  if p[P_KCOL] ~= kcol then pset(state, seat, P_KCOL, kcol) end
  ev_set(state, seat, EV_POINTS, points)
  ev_set(state, seat, EV_EXTRA, w.progress * extra + w.attack * attackers)
end

-- Stores a vivarium whose caterpillars were added or removed.
local function write_viv(state, seat, viv)
  VIV[seat], VIV_GEN[seat] = viv, GEN
  state.data[VIV_KEYS[seat]] = viv
  VH_GEN[seat] = nil
  summarize(state, seat, viv)
end

local function stage_of(viv, c) return D.sps[viv[c + SP]].stages[viv[c + ST]] end

-- The offset of caterpillar `id` in the vivarium list.
local function find(viv, id)
  for c = 0, #viv - 1, FIELDS do
    if viv[c + ID] == id then return c end
  end
end

-- Every resource of a seat, by id (for the view and the tie rule).
local function holdings(state, seat)
  local p, h = rec(state, seat), {}
  for _, res in ipairs(D.res) do h[res] = p[D.ri[res]] end
  return h
end

local function copper_of(state, seat) return rec(state, seat)[D.money_at] end

-- A tally by its index in D.stat_keys (state.data.stats).
local function tally_at(state, seat, i, n)
  local t, k = state.data.stats, (seat - 1) * #D.stat_keys + i
  t[k] = t[k] + (n or 1)
end

-- A game-level tally, after the seats' ones.
local function count(state, key, n)
  local t, k = state.data.stats, state.player_count * #D.stat_keys + D.count_index[key]
  t[k] = t[k] + (n or 1)
end

local function tally(state, seat, key, n)
  local h = D.hot_index[key]
  if h then return pset(state, seat, h, rec(state, seat)[h] + (n or 1)) end
  tally_at(state, seat, D.stat_index[key], n)
end

-- Adds n (may be negative) to the resource at record index i, clamped to 0..cap; what the
-- cap cuts is counted for the report. Returns the amount applied and the amount lost.
local function gain_at(state, seat, i, n)
  local p = rec(state, seat)
  local old = p[i]
  local v, lost = old + n, 0
  local cap = D.caps[i]
  if v > cap then
    lost = v - cap
    v = cap
  elseif v < 0 then
    v = 0
  end
  if v ~= old then
    pset(state, seat, i, v)
    ev_add(state, seat, i == D.money_at and EV_COPPER or EV_GOODS, v - old)
  end
  if lost > 0 then
    local j = D.p_lost + i - P_RES
    pset(state, seat, j, p[j] + lost)
  end
  return v - old, lost
end

-- Pays an affordable cost (a list of {resource, units, record index}; never copper).
local function pay(state, seat, cost, units)
  local p = rec(state, seat)
  for _, rc in ipairs(cost) do pset(state, seat, rc[3], p[rc[3]] - rc[2]) end
  ev_add(state, seat, EV_GOODS, -units)
end

local function gain(state, seat, res, n) return gain_at(state, seat, D.ri[res], n) end

local function species_count(viv, k)
  local n = 0
  for c = 0, #viv - 1, FIELDS do
    if viv[c + SP] == k then n = n + 1 end
  end
  return n
end

-- Evolution order of two caterpillars of a vivarium (offsets a, b): column, then stage index,
-- then points; the older one (lower id) counts as more evolved among equals, so choices are
-- deterministic.
local function more_evolved(viv, a, b)
  local sa, sb = stage_of(viv, a), stage_of(viv, b)
  if sa.column ~= sb.column then return sa.column > sb.column end
  if viv[a + ST] ~= viv[b + ST] then return viv[a + ST] > viv[b + ST] end
  if sa.points ~= sb.points then return sa.points > sb.points end
  return viv[a + ID] < viv[b + ID]
end

local function most_evolved(viv)
  local best
  for c = 0, #viv - 1, FIELDS do
    if not best or more_evolved(viv, c, best) then best = c end
  end
  return best
end

-- Adds caterpillars at their first stage; those over the species cap are lost and counted.
-- `how` is "bought", "found" or nil (setup).
local function add_caterpillars(state, seat, k, n, how)
  local viv = read_viv(state, seat)
  local have = species_count(viv, k)
  local sp = D.sps[k]
  local added = 0
  for _ = 1, n do
    if have >= sp.cap then break end
    local id = tab(state)[T_NEXT_ID]
    tset(state, T_NEXT_ID, id + 1)
    local n0 = #viv
    viv[n0 + ID], viv[n0 + SP], viv[n0 + ST], viv[n0 + F], viv[n0 + LF] = id, k, 1, 0, 0
    have = have + 1
    added = added + 1
  end
  write_viv(state, seat, viv)
  if how == "bought" and added > 0 then tally(state, seat, sp.bought_key, added) end
  if how == "found" and added > 0 then tally_at(state, seat, sp.found_i, added) end
  if n > added then tally_at(state, seat, sp.capped_i, n - added) end
  return added
end

-- Removes the caterpillar at offset c; returns its species index.
local function remove_caterpillar(state, seat, viv, c, why)
  local k = viv[c + SP]
  local n = #viv
  table.move(viv, c + FIELDS + 1, n, c + 1)
  for i = n, n - FIELDS + 1, -1 do viv[i] = nil end
  write_viv(state, seat, viv)
  if why then tally(state, seat, D.lost_key[why]) end
  return k
end

local function set_ending(state, why)
  if tab(state)[T_ENDING] == 0 then tset(state, T_ENDING, ENDING_CODE[why]) end
end

local function ending_of(state) return ENDINGS[tab(state)[T_ENDING]] end

-- Bookkeeping once a caterpillar stands on a new stage (a butterfly triggers the end).
local function reached(state, seat, viv, c)
  local st = stage_of(viv, c)
  if st.trans then tally_at(state, seat, st.reached_i) end
  if st.sp_reached_i then tally_at(state, seat, st.sp_reached_i) end
  if st.kind == "butterfly" then
    count(state, "butterflies")
    set_ending(state, "butterfly")
  end
end

-- The first revealed permanent event card with this effect (its numbers apply), or nil.
local function event_with(state, effect)
  local slot = D.effect_slot[effect]
  local code = slot and tab(state)[slot] or 0
  return code > 0 and D.event[D.event_ids[code]] or nil
end

local function drought(state) return event_with(state, "drought") ~= nil end

-- The card revealed this round, or nil.
local function current_event(state)
  local code = tab(state)[T_EVENT]
  return code > 0 and D.event[D.event_ids[code]] or nil
end

local function current_effect(state)
  local ev = current_event(state)
  return ev and ev.effect
end

local function draw_card(state, deck, discard)
  local z = state:zone(deck)
  if z:count() == 0 then state:zone(discard):reshuffle_into(z) end
  return z:draw(state:zone(discard), 1)[1]
end

-- The last action, for the view; printed too, so plateau play narrates what a move did (the
-- host shows the printed lines of real moves only, not of a bot's trial moves).
local function note(state, text)
  state.data.last = text
  print(text)
end

-- What the event revealed this round did (hi-tech, buyback, broken lamps), for the view; the
-- next round starts with none.
local function event_note(state, text)
  local old = state.data.event_note
  state.data.event_note = old and (old .. "; " .. text) or text
end

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
  PH[seat], PH_GEN[seat] = state:read(P_KEYS[seat]), GEN   -- legal moves read many numbers: a copy
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
  begin(ctx)
  local t = state:read("t")
  TH, TH_GEN = t, GEN   -- a copy: read-only, and every number is needed
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
