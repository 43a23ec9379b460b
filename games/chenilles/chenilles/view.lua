-- Chenilles: the table as a player reads it (the `view` hook, shown by plateau play and the
-- studio): the round and the time board, the events in force, what this round's event and
-- the last action did, then each player's resources against their caps, points, the step to
-- play, and the vivarium by species and space.

local layout = require("chenilles.layout")
local data = require("chenilles.data")
local S = require("chenilles.state")
local scoring = require("chenilles.scoring")

local D
data.share(function(d) D = d end)
local SP, ST, F, FIELDS = layout.SP, layout.ST, layout.F, layout.FIELDS
local P_INSURED, T_ROUND, T_SEAT, T_SICK = layout.P_INSURED, layout.T_ROUND, layout.T_SEAT, layout.T_SICK
local begin, seat_name, rec, tab, step_of, read_viv = S.begin, S.seat_name, S.rec, S.tab, S.step_of, S.read_viv
local holdings, ending_of, event_with, current_event, drought = S.holdings, S.ending_of, S.event_with,
                                                                S.current_event, S.drought
local points_by_species = scoring.points_by_species

local M = {}

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

function M.view(ctx, state, seat)
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

return M
