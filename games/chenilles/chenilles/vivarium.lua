-- Chenilles: the vivarium, five numbers per caterpillar (chenilles/layout.lua): finding,
-- ranking, adding and removing caterpillars, the bookkeeping of a stage reached, and the
-- summary each change leaves in the player record and in the bot's value terms.

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local WEIGHTS = require("chenilles.weights").WEIGHTS

local D
data.share(function(d) D = d end)
local ID, SP, ST, F, LF, FIELDS = layout.ID, layout.SP, layout.ST, layout.F, layout.LF, layout.FIELDS
local P_INCOMES, P_ATTACKERS, P_MORTAL, P_KCOL, P_INSURED = layout.P_INCOMES, layout.P_ATTACKERS, layout.P_MORTAL,
                                                             layout.P_KCOL, layout.P_INSURED
local EV_POINTS, EV_EXTRA, EV_INCOME, EV_INSURED = layout.EV_POINTS, layout.EV_EXTRA, layout.EV_INCOME,
                                                   layout.EV_INSURED
local T_NEXT_ID = layout.T_NEXT_ID
local rec, pset, tab, tset, ev_set = S.rec, S.pset, S.tab, S.tset, S.ev_set
local read_viv, store_viv = S.read_viv, S.store_viv
local tally, tally_at, count, set_ending = S.tally, S.tally_at, S.count, S.set_ending

local M = {}

-- What a vivarium adds up to: its caterpillars with an income, that attack (and the cheapest
-- attacker's column), or that can die, and the bot's value terms of the table record: points,
-- expected extra points with the attackers' option (no time discount), income. Shared by
-- summarize and the bot's valuation of a move (chenilles/evaluate.lua), which must add up
-- exactly as summarize does.
local function terms(viv)
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
  local w = WEIGHTS
  return incomes, attackers, mortal, kcol, points, w.progress * extra + w.attack * attackers,
         incomes * D.powers.income * w.income
end

-- After a change in a vivarium: its summary in the player record (income caterpillars,
-- attackers, the others, the cheapest attacker's column) and its value terms in the table
-- record (points, expected extra points with no time discount, income, insured caterpillars).
local function summarize(state, seat, viv)
  local incomes, attackers, mortal, kcol, points, extra, income = terms(viv)
  local p = rec(state, seat)
  if p[P_INCOMES] ~= incomes then
    pset(state, seat, P_INCOMES, incomes)
    ev_set(state, seat, EV_INCOME, income)
  end
  if p[P_ATTACKERS] ~= attackers then pset(state, seat, P_ATTACKERS, attackers) end
  if p[P_MORTAL] ~= mortal then
    pset(state, seat, P_MORTAL, mortal)
    if p[P_INSURED] == 1 then ev_set(state, seat, EV_INSURED, mortal) end
  end
  if p[P_KCOL] ~= kcol then pset(state, seat, P_KCOL, kcol) end
  ev_set(state, seat, EV_POINTS, points)
  ev_set(state, seat, EV_EXTRA, extra)
end

-- Stores a vivarium whose caterpillars were added or removed.
local function write_viv(state, seat, viv)
  store_viv(state, seat, viv)
  summarize(state, seat, viv)
end

local function stage_of(viv, c) return D.sps[viv[c + SP]].stages[viv[c + ST]] end

-- The offset of caterpillar `id` in the vivarium list.
local function find(viv, id)
  for c = 0, #viv - 1, FIELDS do
    if viv[c + ID] == id then return c end
  end
end

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

M.terms, M.summarize, M.write_viv, M.stage_of, M.find, M.species_count = terms, summarize, write_viv, stage_of, find, species_count
M.more_evolved, M.most_evolved = more_evolved, most_evolved
M.add_caterpillars, M.remove_caterpillar, M.reached = add_caterpillars, remove_caterpillar, reached

return M
