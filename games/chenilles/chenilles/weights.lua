-- Chenilles: the weights of the heuristic bot's `evaluate` (bots only, not rules), and the
-- expected worth of a caterpillar on each stage that they imply. They sit below every other
-- module because the moves keep the bot's value terms up to date as they play
-- (chenilles/vivarium.lua's summarize) and the data compiles the worths once
-- (chenilles/data.lua); chenilles/evaluate.lua adds them up.

local M = {}

-- Units are "points at the end".
M.WEIGHTS = {
  unit = 0.45,            -- a unit of water or food held while the game has time left
  copper = 0.3,           -- a copper coin held while the game has time left
  plan_unit = 0.55,       -- a unit spent on a future evolution (above `unit`, so evolving pays)
  floor = 0.1,            -- share of those values kept when the game is about to end
  horizon = 4,            -- rounds left under which future value fades out linearly
  progress = 1.0,         -- weight of a caterpillar's expected future points (see potentials)
  income = 0.45,          -- per dromedary per round left (counting at most `income_rounds`)
  income_rounds = 6,
  attack = 0.4,           -- option value of a kamikaze able to attack
  insured = 0.15,         -- per mortal caterpillar while insured
  opponent = 0.3,         -- share of the best opponent's value subtracted
  skipped = 2.5,          -- per turn lost to the racket
  final = 10,             -- finished game: weight of the score margin
}
local WEIGHTS = M.WEIGHTS

-- Expected worth of a caterpillar on each stage if it is pushed on while that pays (used by
-- `evaluate` only). v[i]: no failure yet; vf[i]: one failure already (the next one kills a
-- mortal caterpillar). v(last) = points; otherwise the best of stopping (points) and trying
-- the next stage, which costs its resources at WEIGHTS.plan_unit; the kamikaze retries freely.
function M.potentials(sp)
  local v, vf = {}, {}
  local stages = sp.stages
  v[#stages] = stages[#stages].points
  vf[#stages] = v[#stages]
  for i = #stages - 1, 1, -1 do
    local nxt = stages[i + 1]
    local pts = stages[i].points
    local c = nxt.units * WEIGHTS.plan_unit
    if sp.power == "gold_refund" and nxt.kind == "moult" then c = c - nxt.units * WEIGHTS.copper end
    if not nxt.trans then
      v[i] = math.max(pts, v[i + 1] - c)
      vf[i] = v[i]
    elseif sp.power == "attack" then
      v[i] = math.max(pts, v[i + 1] - c / math.max(nxt.odds, 0.05))
      vf[i] = v[i]
    else
      local p = nxt.odds
      vf[i] = math.max(pts, p * v[i + 1] - c)
      v[i] = math.max(pts, p * v[i + 1] + (1 - p) * vf[i] - c)
    end
  end
  return v, vf
end

return M
