-- Chenilles: the event cards. A card is revealed when the time token stops on an event space
-- (chenilles/turn.lua's begin_round calls reveal_event); a permanent card stays in force, a
-- one-shot card is the current event of its round only. The cards that act on everybody
-- (hi-tech vivarium, buyback, broken lamps) act at the reveal; the per-player choices they
-- offer (the detour by the market's sales, the insurer's offer) are step 2 of each turn. The
-- drought and the racket only change other rules: chenilles/evolution.lua's costs and
-- chenilles/turn.lua's racket roll.

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")

local D
data.share(function(d) D = d end)
local ID, SP, ST, F, FIELDS = layout.ID, layout.SP, layout.ST, layout.F, layout.FIELDS
local P_MORTAL, P_INSURED, EV_INSURED = layout.P_MORTAL, layout.P_INSURED, layout.EV_INSURED
local T_EVENTS, T_ROUND, T_EVENT, T_RACKET_ROUND = layout.T_EVENTS, layout.T_ROUND, layout.T_EVENT,
                                                  layout.T_RACKET_ROUND
local seat_name, rec, pset, tab, tset, ev_set = S.seat_name, S.rec, S.pset, S.tab, S.tset, S.ev_set
local read_viv, tally, tally_at, gain_at = S.read_viv, S.tally, S.tally_at, S.gain_at
local set_ending, event_with, current_event, current_effect = S.set_ending, S.event_with, S.current_event,
                                                              S.current_effect
local event_note = S.event_note
local write_viv, stage_of, more_evolved, most_evolved = vivarium.write_viv, vivarium.stage_of,
                                                        vivarium.more_evolved, vivarium.most_evolved
local remove_caterpillar, reached, find = vivarium.remove_caterpillar, vivarium.reached, vivarium.find

local M = {}

-- chenilles/turn.lua's step machine, which needs this module's insurance_offered and
-- reveal_event: turn.lua requires this module and hands it over through link.
local advance
function M.link(turn) advance = turn.advance end

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

function M.reveal_event(ctx, state)
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

function M.insurance_offered(ctx, state, seat, p)
  local ev = event_with(state, "insurer")
  if not ev or p[P_INSURED] == 1 then return false end
  if ctx.params.insurance_offer == "reveal_round" and current_effect(state) ~= "insurer" then return false end
  return p[D.money_at] >= ev.price
end

-- The end of the turn's income counts this many times (the double-resources round).
function M.income_factor(state)
  local ev = current_event(state)
  if ev and ev.effect == "double_income" then return ev.factor end
  return 1
end

-- The detour by the market: one sale per distinct caterpillar state, then "done".
function M.sell_moves(state, seat)
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

function M.insure_moves(state)
  local price = event_with(state, "insurer").price
  return { { type = "insure", args = { cost = price .. " copper" } }, { type = "done", args = { step = "insure" } } }
end

M.moves = {}

function M.moves.sell(ctx, state, seat, move)
  local viv = read_viv(state, seat)
  local k = remove_caterpillar(state, seat, viv, find(viv, move.args.caterpillar), "sold")
  gain_at(state, seat, D.money_at, D.sps[k].price)
  if #viv == 0 then return advance(ctx, state, seat, "sell") end
end

function M.moves.insure(ctx, state, seat, move)
  gain_at(state, seat, D.money_at, -event_with(state, "insurer").price)
  pset(state, seat, P_INSURED, 1)
  ev_set(state, seat, EV_INSURED, rec(state, seat)[P_MORTAL])
  tally(state, seat, "insured")
  return advance(ctx, state, seat, "insure")
end

return M
