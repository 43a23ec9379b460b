-- Écosystème base: cards turned face down. Some cards turn others over before later cards
-- are scored (a cheetah's hunted gazelle, a lion's prey, a whale's neighbour), and later
-- cards look at what is face down (hyenas, vultures) or ignore it. A choice a player makes
-- is a move recorded in state.data as {grid = seat, cell = {r, c}}; a choice nobody has made
-- yet (boards given to `plateau score`, questions not answered yet) is searched when scoring,
-- in a grid view's face-down overlay, which a read-only hook may change.

local M = {}

-- The cells chosen for `seat`'s grid in `list` (a plain copy of a state.data list of
-- {grid =, cell =} entries, from state:read), as dense indices of view `v`, in the order they
-- were chosen; nil when there are none.
function M.chosen(list, seat, v)
  if not list then return nil end
  local out
  for t = 1, #list do
    local e = list[t]
    if e.grid == seat then
      local i = v:index(e.cell[1], e.cell[2])
      if i then
        out = out or {}
        out[#out + 1] = i
      end
    end
  end
  return out
end

-- A question "which of these cells?": one move {type = mtype, grid = seat, cell = {r, c}} per
-- dense index of view `v` in `cells`, in that order (the answer records itself with `record`).
function M.cell_moves(v, cells, mtype, seat)
  local moves = {}
  for t = 1, #cells do
    local r, c = v:cell(cells[t])
    moves[t] = { type = mtype, grid = seat, cell = { r, c } }
  end
  return moves
end

-- Appends `entry` to the list state.data[key] (created when missing) and returns the new
-- plain list. Writing hooks only.
function M.record(state, key, entry)
  local list = state:read(key) or {}
  list[#list + 1] = entry
  state.data[key] = list
  return list
end

-- The best `k` of `candidates` (dense indices) to turn face down when each one's gain does not
-- depend on the others: the k largest `gain(arg, i)` (`arg`, often the view, saves a closure
-- per call), the earliest candidate first among equals. All of them when k >= #candidates.
function M.best_additive(candidates, k, gain, arg)
  local m = #candidates
  if k >= m then return candidates end
  local gains = {}
  for t = 1, m do gains[t] = gain(arg, candidates[t]) end
  local chosen, taken = {}, {}
  for c = 1, k do
    local bt
    for t = 1, m do
      if not taken[t] and (not bt or gains[t] > gains[bt]) then bt = t end
    end
    taken[bt] = true
    chosen[c] = candidates[bt]
  end
  return chosen
end

-- The best `k` of `candidates` to turn face down in view `v` when gains interact: every
-- combination is turned down in the overlay, `value(v)` is read, and the overlay is put back.
-- The first best combination (in lexicographic order of the candidates) wins.
function M.best_set(v, candidates, k, value)
  local m = #candidates
  if k >= m then return candidates end
  local best, best_set = -math.huge, nil
  local pick = {}
  local function rec(start, depth)
    if depth > k then
      for t = 1, k do v:set_down(candidates[pick[t]], true) end
      local x = value(v)
      for t = 1, k do v:set_down(candidates[pick[t]], false) end
      if x > best then
        best = x
        best_set = {}
        for t = 1, k do best_set[t] = candidates[pick[t]] end
      end
      return
    end
    for t = start, m - (k - depth) do
      pick[depth] = t
      rec(t + 1, depth + 1)
    end
  end
  rec(1, 1)
  return best_set
end

return M
