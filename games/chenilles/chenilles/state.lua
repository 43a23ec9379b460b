-- Chenilles: the small helpers every rule uses to read and write the state (its layout is in
-- chenilles/layout.lua): the per-call data handles, the resources with their caps, the
-- tallies, the ending, the revealed events and the notes the view shows. Every hook starts
-- with begin(ctx), which compiles the data if needed and starts a new hook call.
--
-- Per-call caches. Moves read and write the table record and the player records through
-- data handles, one number at a time (reading a whole list copies all of it, and storing
-- one converts all of it); read-only hooks that look at many numbers read copies instead.
-- A hook call (GEN names it; begin starts the next one) makes each handle once, and a
-- vivarium is read at most once, as a copy that moves keep up to date. Nothing is kept from
-- one call to the next.

local layout = require("chenilles.layout")
local data = require("chenilles.data")

local load = data.load
local D
data.share(function(d) D = d end)
local P_RES, EVN, EV_COPPER, EV_GOODS = layout.P_RES, layout.EVN, layout.EV_COPPER, layout.EV_GOODS
local T_STEP, T_EVENT, T_ENDING = layout.T_STEP, layout.T_EVENT, layout.T_ENDING
local STEPS_ALL, STEP_CODE, ENDINGS, ENDING_CODE = layout.STEPS_ALL, layout.STEP_CODE, layout.ENDINGS,
                                                   layout.ENDING_CODE
local SEAT_NAMES, VIV_KEYS, P_KEYS = layout.SEAT_NAMES, layout.VIV_KEYS, layout.P_KEYS

local M = {}

local function seat_name(seat) return SEAT_NAMES[seat] end

local GEN = 0
local PH, PH_GEN = {}, {}
local VIV, VIV_GEN, VH, VH_GEN = {}, {}, {}, {}
local TH, TH_GEN

local function begin(ctx)
  GEN = GEN + 1
  return load(ctx)
end

-- For legal_moves, which reads many numbers of the player's record: a copy stands for the
-- handle during this call, so it must not write through it.
function M.use_record_copy(state, seat) PH[seat], PH_GEN[seat] = state:read(P_KEYS[seat]), GEN end

-- begin(ctx) for evaluate, which reads every number of the table record: returns it as a
-- copy, which stands for the handle during this call (read-only). One call, not two: evaluate
-- runs about 1,900 times a 4-player game.
function M.begin_reading_table(ctx, state)
  GEN = GEN + 1
  load(ctx)
  local t = state:read("t")
  TH, TH_GEN = t, GEN
  return t
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

-- Stores a whole vivarium (caterpillars added or removed); chenilles/vivarium.lua's write_viv
-- then summarizes it.
local function store_viv(state, seat, viv)
  VIV[seat], VIV_GEN[seat] = viv, GEN
  state.data[VIV_KEYS[seat]] = viv
  VH_GEN[seat] = nil
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

-- old + n clamped to 0..cap (what a resource becomes; the bot's valuation of a move,
-- chenilles/evaluate.lua, works it out the same way).
local function clamped(old, n, cap)
  local v = old + n
  if v > cap then return cap elseif v < 0 then return 0 end
  return v
end

-- Adds n (may be negative) to the resource at record index i, clamped to 0..cap; what the
-- cap cuts is counted for the report. Returns the amount applied and the amount lost.
local function gain_at(state, seat, i, n)
  local p = rec(state, seat)
  local old = p[i]
  local v = clamped(old, n, D.caps[i])
  local lost = math.max(0, old + n - v)   -- what the cap cuts
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

local function set_ending(state, why)
  if tab(state)[T_ENDING] == 0 then tset(state, T_ENDING, ENDING_CODE[why]) end
end

local function ending_of(state) return ENDINGS[tab(state)[T_ENDING]] end

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

M.seat_name, M.begin = seat_name, begin
M.rec, M.pset, M.tab, M.tset, M.step_of, M.set_step = rec, pset, tab, tset, step_of, set_step
M.ev_set, M.ev_add, M.read_viv, M.vset, M.store_viv = ev_set, ev_add, read_viv, vset, store_viv
M.holdings, M.copper_of, M.tally_at, M.count, M.tally = holdings, copper_of, tally_at, count, tally
M.gain_at, M.pay, M.gain = gain_at, pay, gain
M.set_ending, M.ending_of, M.clamped = set_ending, ending_of, clamped
M.event_with, M.drought, M.current_event, M.current_effect = event_with, drought, current_event, current_effect
M.draw_card, M.note, M.event_note = draw_card, note, event_note

return M
