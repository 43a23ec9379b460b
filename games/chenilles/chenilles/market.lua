-- Chenilles: the market, step 4 of a turn on a nature/market day (or after the empty-handed
-- lot): buy caterpillars for copper, and exchange copper and resources one unit at a time at
-- the data's rates, as often as one likes. The first purchase or trade is the visit, which
-- closes nature for the turn. Nothing is offered that a cap would only take away.

local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")
local evolution = require("chenilles.evolution")

local D
data.share(function(d) D = d end)
local rec, step_of, set_step, read_viv = S.rec, S.step_of, S.set_step, S.read_viv
local tally, gain_at, gain = S.tally, S.gain_at, S.gain
local species_count, add_caterpillars = vivarium.species_count, vivarium.add_caterpillars
local evolve_moves = evolution.evolve_moves

local M = {}

function M.market_moves(state, seat, moves)
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

-- The first purchase or trade of a turn is the visit to the market (no more nature after it).
local function at_market(state, seat)
  if step_of(state) ~= "market" then
    tally(state, seat, "market visits")
    set_step(state, "market")
  end
end

M.moves = {}

function M.moves.buy(ctx, state, seat, move)
  at_market(state, seat)
  local k = D.sp_index[move.args.species]
  gain_at(state, seat, D.money_at, -D.sps[k].price)
  add_caterpillars(state, seat, k, 1, "bought")
end

function M.moves.trade(ctx, state, seat, move)
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

return M
