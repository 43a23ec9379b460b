-- Écosystème base: majorities ("the most gazelles score 5, the second most 2"). Every seat
-- with a count takes part, the neutral pile and the solo opponent included; a seat needs a
-- count above 0 to take a place, and a seat without a place scores 0.
--
-- The rulebooks say tied seats "score the points of their place and the next place is not
-- awarded", which reads more than one way once three or more seats tie. The reading is a
-- parameter of each majority:
--   "competition" (default): a seat's place is 1 + the number of seats with a larger count,
--                 so tied seats share a place and fill as many places as they are
--                 (5,5,3 -> places 1,1,3; 5,5,5,3 -> 1,1,1,4)
--   "skip_one":   after a tie only the one next place goes unpaid (5,5,5,3 -> 1,1,1,3)
--   "dense":      the next different count takes the next place (5,5,3 -> 1,1,2)

local M = {}

-- How many places a group of `size` tied seats fills, by reading.
local STEP = {
  dense = function() return 1 end,
  skip_one = function(size) return size >= 2 and 2 or 1 end,
}

M.READINGS = { "competition", "skip_one", "dense" }

-- The place of `seat` among `counts[1..n]` (nil or 0: no place), or nil.
function M.rank(counts, n, seat, ties)
  local v = counts[seat]
  if not v or v <= 0 then return nil end
  local rank = 1
  if ties == nil or ties == "competition" then
    for b = 1, n do
      local w = counts[b]
      if w and w > v then rank = rank + 1 end
    end
    return rank
  end
  local step = STEP[ties]
  if not step then error("majority: unknown tie reading '" .. tostring(ties) .. "' (competition, skip_one or dense)", 2) end
  -- Each larger count once, at the first seat holding it, with the number of seats holding it.
  for b = 1, n do
    local w = counts[b]
    if w and w > v then
      local first, size = true, 0
      for b2 = 1, n do
        if counts[b2] == w then
          size = size + 1
          if b2 < b then first = false end
        end
      end
      if first then rank = rank + step(size) end
    end
  end
  return rank
end

-- The points of every seat 1..n: `points[place]`, or 0 without a place or past the table.
-- Written into `out` when given (the bots' totals reuse one table), else into a new table.
function M.points(counts, n, points, ties, out)
  out = out or {}
  if ties == nil or ties == "competition" then
    -- The common reading, inline: scoring runs for every move a greedy bot weighs.
    for seat = 1, n do
      local v, p = counts[seat], 0
      if v and v > 0 then
        local rank = 1
        for b = 1, n do
          local w = counts[b]
          if w and w > v then rank = rank + 1 end
        end
        p = points[rank] or 0
      end
      out[seat] = p
    end
    return out
  end
  for seat = 1, n do
    local rank = M.rank(counts, n, seat, ties)
    out[seat] = rank and points[rank] or 0
  end
  return out
end

return M
