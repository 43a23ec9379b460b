-- Chenilles: evolutions, step 5 of a turn. A simple evolution pays the next space's cost and
-- moves there; a transformation (a moult, the chrysalis, the butterfly) pays, then a forced
-- "roll" move throws 2d6 against the space's threshold: a failure loses the resources, and the
-- second failure kills the caterpillar (parameters: failure_scope, failures_to_die,
-- kamikaze_immune). A successful gold-moult refunds its resources in copper; an insured
-- player is paid for a caterpillar that dies here.

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")

local D
data.share(function(d) D = d end)
local make_move = data.move
local ID, SP, ST, F, LF, FIELDS = layout.ID, layout.SP, layout.ST, layout.F, layout.LF, layout.FIELDS
local P_INSURED, T_PENDING, T_PENDING_ID, T_PENDING_UNITS = layout.P_INSURED, layout.T_PENDING, layout.T_PENDING_ID,
                                                            layout.T_PENDING_UNITS
local PENDING_CODE = layout.PENDING_CODE
local seat_name, rec, tset, step_of, set_step, read_viv, vset = S.seat_name, S.rec, S.tset, S.step_of, S.set_step,
                                                                S.read_viv, S.vset
local tally, tally_at, count, gain_at, pay, drought, note = S.tally, S.tally_at, S.count, S.gain_at, S.pay,
                                                            S.drought, S.note
local summarize, find, reached, remove_caterpillar = vivarium.summarize, vivarium.find, vivarium.reached,
                                                     vivarium.remove_caterpillar

local M = {}

-- chenilles/turn.lua's moves ending the turn, listed after the evolutions (the same step):
-- turn.lua requires this module and hands them over through link.
local end_moves
function M.link(turn) end_moves = turn.end_moves end

local function stage_cost(state, stage)
  if drought(state) then return stage.dcost, stage.dcost_text, stage.dunits end
  return stage.cost, stage.cost_text, stage.units
end

M.stage_cost = stage_cost

local function affordable(p, cost)
  for _, rc in ipairs(cost) do
    if p[rc[3]] < rc[2] then return false end
  end
  return true
end

-- One move per distinct caterpillar state (identical caterpillars give identical moves).
function M.evolve_moves(state, seat, moves)
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
          -- made once per caterpillar and state (frozen: listing it costs no conversion)
          local id = viv[c + ID]
          local by_state = D.evolve_moves[id]
          if not by_state then
            by_state = {}
            D.evolve_moves[id] = by_state
          end
          local made = ((k * 64 + st) * 1024 + f) * 2 + (dry and 1 or 0)
          local move = by_state[made]
          if not move then
            local args = { caterpillar = id, species = sp.id, from = sp.stages[st].id, to = nxt.id,
                           cost = dry and nxt.dcost_text or nxt.cost_text }
            if nxt.trans then
              args.needs = nxt.needs
              args.odds = nxt.odds_text
              if f > 0 then args.failures = f end
            end
            move = make_move{ type = "evolve", args = args }
            by_state[made] = move
          end
          moves[#moves + 1] = move
        end
      end
    end
  end
  return end_moves(state, moves)
end

-- Whether a caterpillar of species sp with f failures of this transformation and lf in its
-- life is dead.
function M.dies_of(ctx, sp, f, lf)
  if sp.power == "attack" and ctx.params.kamikaze_immune then return false end
  local n = ctx.params.failure_scope == "life" and lf or f
  return n >= ctx.params.failures_to_die
end
local dies_of = M.dies_of

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

M.moves = {}

function M.moves.evolve(ctx, state, seat, move)
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

-- The "roll" after a paid transformation (chenilles/turn.lua's moves.roll).
function M.resolve_transformation(ctx, state, seat, id, units)
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

return M
