-- Chenilles: the layout of the game's state, where every module finds the same numbers at the
-- same places. Compact on purpose: a bot tries every legal move on a scratch state, and the
-- host journals each top-level key of state.data that a move writes, then puts it back; every
-- key written costs, and so does every call into the host.
--   p_<seat>    the player record, a flat list of numbers (P_* below): a summary of the
--               vivarium for the turn steps, the resources (capped by the data; what a cap
--               cuts is counted), and the tallies most moves make
--   t           the table record, a flat list of numbers: the turn (T_* below: round, seat,
--               step, pending roll, ...), the revealed events, then EVN value terms per
--               seat for `evaluate` (EV_* below), which reads the whole record in one call
--   viv_<seat>  the vivarium, a flat list of numbers, five per caterpillar: id, species
--               index, stage index, failures of the current transformation, failures in
--               its life (a caterpillar is named by its offset c: viv[c + ID] ... viv[c + LF])
--   stats       the other tallies: for each seat, one number per key of D.stat_keys (see
--               chenilles/scoring.lua), then the game-level ones (COUNT_KEYS)
--   last        the text of the last roll or action, for the view
-- Moves read and write single numbers through the data handles of chenilles/state.lua.
-- The names are copied into each module's locals (upvalues): a field looked up in this table
-- on every use would cost in the moves a bot tries.

local M = {}

-- Fields of a caterpillar in a vivarium list, after its offset (0, 5, 10, ...).
M.ID, M.SP, M.ST, M.F, M.LF = 1, 2, 3, 4, 5
M.FIELDS = 5

-- Fields of a player record (state.data.p_<seat>): caterpillars with the income power, with
-- the attack power, the others, the lowest column of an attacker (0: none), insured (0/1),
-- turns lost to the racket; then resource r (data order) at P_RES + r, "lost to
-- cap:<resource r>" at D.p_lost + r, and the HOT_KEYS tallies after those.
M.P_INCOMES, M.P_ATTACKERS, M.P_MORTAL, M.P_KCOL, M.P_INSURED, M.P_SKIPPED = 1, 2, 3, 4, 5, 6
M.P_RES = 6

-- The value terms of a seat in the table record (see chenilles/evaluate.lua): points of the
-- vivarium; its expected extra points (WEIGHTS.progress) plus the attackers' option value; the
-- dromedaries' income per round; copper; water and food units; turns lost to the racket;
-- caterpillars covered by the insurance.
M.EV_POINTS, M.EV_EXTRA, M.EV_INCOME, M.EV_COPPER, M.EV_GOODS, M.EV_SKIPPED, M.EV_INSURED = 1, 2, 3, 4, 5, 6, 7
M.EVN = 7

-- Fields of the table record (state.data.t): event cards left, round, seat to play, step
-- (STEPS_ALL), sick this turn (0/1), attacks this turn, dromedary resources still to take,
-- market only (0/1: after the empty-handed lot), the day (DAYS), the current event (index in
-- D.event_ids, 0: none), the ending (ENDINGS, 0: none), the next caterpillar id, the round the
-- racket came, the pending roll (PENDINGS, 0: none) with its caterpillar and units paid; then
-- per event effect (D.effects) the first revealed permanent card with it (index in
-- D.event_ids, 0: none); then the seats' value terms from D.t_seats on.
M.T_EVENTS, M.T_ROUND, M.T_SEAT, M.T_STEP, M.T_SICK, M.T_ATTACKS, M.T_INCOME, M.T_MARKET_ONLY, M.T_DAY, M.T_EVENT,
  M.T_ENDING, M.T_NEXT_ID, M.T_RACKET_ROUND, M.T_PENDING, M.T_PENDING_ID, M.T_PENDING_UNITS =
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
M.T_PERM = 16   -- effect e at T_PERM + its index in D.effects

local function codes(names)
  local code = {}
  for i, name in ipairs(names) do code[name] = i end
  return code
end
M.STEPS_ALL = { "racket", "sell", "insure", "dromedary", "kamikaze", "outing", "market", "roll", "evolve", "over" }
M.STEP_CODE = codes(M.STEPS_ALL)
M.DAYS = { "event", "nature_market", "plain" }
M.DAY_CODE = codes(M.DAYS)
M.ENDINGS = { "butterfly", "events", "round_limit" }
M.ENDING_CODE = codes(M.ENDINGS)
M.PENDINGS = { "nature", "racket", "transform" }
M.PENDING_CODE = codes(M.PENDINGS)

-- The tallies that moves a bot tries often make (so they live in the player record, which
-- those moves write anyway), besides "lost to cap:<resource>" and "bought:<species>".
-- "market visits" is counted per player but reported for the game only.
M.HOT_KEYS = { "dromedary income", "took copper", "took card", "evolutions", "trades", "kamikaze attacks",
               "food destroyed", "lost:kamikaze attack", "market visits" }

-- Per-player tallies reported by `stats` besides the per-species, per-stage, per-resource,
-- per-lot and per-card ones built from the data.
M.PLAYER_KEYS = { "kamikaze attacks", "food destroyed", "insured", "insurance payouts", "evolutions",
                  "failures", "racket hits", "racket paid", "racket skips", "dromedary income",
                  "gold refunds", "took copper", "took card", "trades", "hitech advances",
                  "lost:hazard", "lost:buyback", "lost:broken_lamps", "lost:sold", "lost:kamikaze attack" }
M.COUNT_KEYS = { "kamikaze attacks", "food destroyed", "nature trips", "market visits", "transformations tried",
                 "transformations failed", "deaths", "butterflies" }

-- The seats' names and state.data keys, made once so that no move builds a string.
M.SEAT_NAMES, M.VIV_KEYS, M.P_KEYS = {}, {}, {}
for seat = 1, 16 do
  M.SEAT_NAMES[seat] = "P" .. seat
  M.VIV_KEYS[seat] = "viv_" .. seat
  M.P_KEYS[seat] = "p_" .. seat
end

return M
