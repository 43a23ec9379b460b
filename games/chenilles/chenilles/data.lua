-- Chenilles: data/chenilles.json compiled once per VM into D, the tables every module reads
-- (resources and their record indices, species with their chronologies and costs, the forest,
-- the decks, the events, the tallies `stats` reports) and the moves listed again and again,
-- frozen once (ctx.move). The cross-references the schema cannot express are checked here,
-- each failure naming its path in the data file.
--
-- Every module keeps D as an upvalue of its own, handed over through M.share (and again when
-- the data change): a field looked up through this module on each use would cost in the moves
-- a bot tries, and so did one table refilled in place (its fields laid out differently, the
-- hot ones took longer to find: about 1% more instructions a heuristic game, callgrind).

local layout = require("chenilles.layout")
local potentials = require("chenilles.weights").potentials

local P_RES, T_PERM = layout.P_RES, layout.T_PERM
local HOT_KEYS, PLAYER_KEYS, COUNT_KEYS = layout.HOT_KEYS, layout.PLAYER_KEYS, layout.COUNT_KEYS

local M = {}

local D, D_src, ctx_move
local holders = {}

-- Calls set(D) now if the data are compiled, and whenever they are compiled again.
function M.share(set)
  holders[#holders + 1] = set
  if D then set(D) end
end

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
  -- resource and resources left, an evolution by caterpillar id and state (species, stage,
  -- failures, drought: ids start again at 1 each game, so this stays small), filled as needed.
  d.end_moves, d.dromedary_moves, d.evolve_moves = {}, {}, {}
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

-- ctx.move (the same function in every call), kept by load for the moves made on first use.
-- An upvalue, not a field of M: storing it in a table on every hook call cost about 1% of a
-- heuristic game's instructions.
function M.move(spec) return ctx_move(spec) end

-- The compiled data for this call's ctx (compiled again only when the data table changes).
function M.load(ctx)
  local src = ctx.data.chenilles
  ctx_move = ctx.move
  if D_src ~= src then
    D = compile(ctx)
    D_src = src
    for i = 1, #holders do holders[i](D) end
  end
  return D
end

return M
