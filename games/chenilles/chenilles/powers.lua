-- Chenilles: the caterpillars' powers played at step 3 of a turn: the dromedary's resource of
-- choice per dromedary, and the kamikaze's attack on an opponent's food. (The gold-moult's
-- refund belongs to a successful moult: chenilles/evolution.lua.)

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")

local D
data.share(function(d) D = d end)
local ID, SP, FIELDS = layout.ID, layout.SP, layout.FIELDS
local P_KCOL, EV_GOODS, T_ATTACKS, T_INCOME = layout.P_KCOL, layout.EV_GOODS, layout.T_ATTACKS, layout.T_INCOME
local seat_name, rec, pset, tab, tset, ev_add = S.seat_name, S.rec, S.pset, S.tab, S.tset, S.ev_add
local read_viv, copper_of, tally, gain_at, gain, note = S.read_viv, S.copper_of, S.tally, S.gain_at, S.gain, S.note
local stage_of, find, more_evolved, remove_caterpillar = vivarium.stage_of, vivarium.find, vivarium.more_evolved,
                                                         vivarium.remove_caterpillar

local M = {}

-- chenilles/turn.lua's step machine, which needs this module's can_attack: turn.lua requires
-- this module and hands it over through link.
local advance
function M.link(turn) advance = turn.advance end

local function kamikaze_price(column) return column + D.powers.price_base end

-- The cheapest attacker (lowest column) decides whether an attack can be paid.
local function can_attack(ctx, state, p)
  local col = p[P_KCOL]
  if col == 0 or p[D.money_at] < kamikaze_price(col) then return false end
  return tab(state)[T_ATTACKS] < ctx.params.kamikaze_attacks_per_turn
end
M.can_attack = can_attack

-- The dromedary's resources, one move per resource, made once per number still to take.
function M.dromedary_moves(ctx, left)
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

local function attack_targets(ctx, state, seat)
  if ctx.params.kamikaze_target == "next" then return { seat % state.player_count + 1 } end
  local list = {}
  for other = 1, state.player_count do
    if other ~= seat then list[#list + 1] = other end
  end
  return list
end

function M.kamikaze_moves(ctx, state, seat, moves)
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

M.moves = {}

function M.moves.dromedary(ctx, state, seat, move)
  gain(state, seat, move.args.resource, 1)
  tally(state, seat, "dromedary income")
  local left = tab(state)[T_INCOME] - 1
  tset(state, T_INCOME, left)
  if left <= 0 then return advance(ctx, state, seat, "dromedary") end
end

function M.moves.attack(ctx, state, seat, move)
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

return M
