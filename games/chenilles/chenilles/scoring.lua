-- Chenilles: the score (each caterpillar scores its space on the points grid, shown per
-- species; ties by the `tie_rule` parameter) and the statistics `plateau simulate` reports
-- once per game (the `stats` hook). The tallies behind the statistics are made by the moves:
-- the hot ones in the player records, the others in state.data.stats (chenilles/layout.lua).

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local vivarium = require("chenilles.vivarium")

local D
data.share(function(d) D = d end)
local SP, FIELDS, T_ROUND, COUNT_KEYS = layout.SP, layout.FIELDS, layout.T_ROUND, layout.COUNT_KEYS
local begin, seat_name, rec, tab, read_viv, holdings = S.begin, S.seat_name, S.rec, S.tab, S.read_viv, S.holdings
local ending_of = S.ending_of
local stage_of, species_count = vivarium.stage_of, vivarium.species_count

local M = {}

M.categories = { "gold", "dromedary", "kamikaze" }

function M.points_by_species(viv)
  local by = {}
  for k, id in ipairs(D.species) do by[id] = 0 end
  for c = 0, #viv - 1, FIELDS do
    local id = D.species[viv[c + SP]]
    by[id] = by[id] + stage_of(viv, c).points
  end
  return by
end
local points_by_species = M.points_by_species

function M.score(ctx, state)
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

function M.stats(ctx, state)
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

return M
