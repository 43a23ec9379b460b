-- Chenilles: a trip to nature, the other half of step 4 on a nature/market day: roll a d6 on
-- the forest board, take that lot of newborn caterpillars, then draw a hazard card and apply
-- it. Nature excludes the market, except after the empty-handed lot ("Bredouille").

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")
local market = require("chenilles.market")

local D
data.share(function(d) D = d end)
local T_SICK, T_PENDING, T_MARKET_ONLY = layout.T_SICK, layout.T_PENDING, layout.T_MARKET_ONLY
local PENDING_CODE = layout.PENDING_CODE
local seat_name, tab, tset, set_step, read_viv = S.seat_name, S.tab, S.tset, S.set_step, S.read_viv
local tally_at, count, gain, draw_card, note = S.tally_at, S.count, S.gain, S.draw_card, S.note
local add_caterpillars, most_evolved, remove_caterpillar = vivarium.add_caterpillars, vivarium.most_evolved,
                                                           vivarium.remove_caterpillar
local market_moves = market.market_moves

local M = {}

-- chenilles/turn.lua's step machine: turn.lua requires this module (for the forest's roll)
-- and hands it over through link.
local advance
function M.link(turn) advance = turn.advance end

-- Optional steps list their own moves followed by those of the next step, so playing one of
-- the later moves passes on the optional step (no separate "done" move is needed).
function M.outing_moves(state, seat, moves)
  if tab(state)[T_MARKET_ONLY] == 0 then
    moves[#moves + 1] = D.nature_move
  end
  return market_moves(state, seat, moves)   -- a purchase or a trade is the visit to the market
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

M.moves = {}

-- Going to nature and paying for a transformation only set up the roll; the forced "roll" move
-- throws the dice. A player (or a bot looking one move ahead) decides before seeing the dice.
function M.moves.nature(ctx, state, seat, move)
  tset(state, T_PENDING, PENDING_CODE.nature)
  set_step(state, "roll")
end

-- The "roll" after going to nature (chenilles/turn.lua's moves.roll).
function M.resolve_nature(ctx, state, seat)
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

return M
