-- Écosystème base: scoring loops over a grid written in Lua, for rules that grid views and
-- compiled queries cannot express (a score searched over choices, groups a card looks
-- around). Grids are dense: index i = r * cols + c + 1 with r and c counted from the top-left
-- corner of the bounding box, the index of grid:snapshot() and of grid views (scripting/
-- README.md §5). The cells a rule looks at are given twice, as a "member" array (member[i]
-- true, false elsewhere) for neighbour tests and as a "list" of their indices in reading order
-- for the loops, so a loop visits those cells only; M.members builds both from a snapshot.
--
-- The functions write into tables the caller passes (`out`, `label`, ...) so that a search
-- that scores a grid thousands of times makes no garbage; they hold no game state.

local M = {}

-- Geometry of a rows x cols grid, cached per shape: orth[i] lists the orthogonal neighbours
-- of i in reading order (up, left, right, down); row[i] and col[i] are 0-based.
local shapes = {}
function M.shape(rows, cols)
  local key = rows * 64 + cols
  local s = shapes[key]
  if s then return s end
  s = { orth = {}, row = {}, col = {}, rows = rows, cols = cols }
  for r = 0, rows - 1 do
    for c = 0, cols - 1 do
      local i = r * cols + c + 1
      s.row[i], s.col[i] = r, c
      local o = {}
      if r > 0 then o[#o + 1] = i - cols end
      if c > 0 then o[#o + 1] = i - 1 end
      if c < cols - 1 then o[#o + 1] = i + 1 end
      if r < rows - 1 then o[#o + 1] = i + cols end
      s.orth[i] = o
    end
  end
  shapes[key] = s
  return s
end

-- The grid coordinates {r, c} of dense index i of a snapshot (or any table with min_row,
-- min_col, cols), for moves and for what the score reports.
function M.cell_of(snap, i)
  return { snap.min_row + (i - 1) // snap.cols, snap.min_col + (i - 1) % snap.cols }
end

-- The face-down flags of a snapshot as plain booleans in `out` (1..rows * cols): a search
-- turns cards over in this copy, never in the state.
function M.down_flags(snap, out)
  local sd = snap.down
  for i = 1, snap.rows * snap.cols do out[i] = sd[i] == true end
  return out
end

-- The face-up cells (down[i] not true; `down` may be nil: all face up) whose card is in `set`
-- ({id = true}), among cells[1..n]: member[i] true or false, and their indices in `list`
-- (cleared first). Returns how many there are.
function M.members(cells, down, n, set, member, list)
  local count = 0
  for i = 1, n do
    local c = cells[i]
    if c and set[c] and not (down and down[i]) then
      member[i] = true
      count = count + 1
      list[count] = i
    else
      member[i] = false
    end
  end
  for i = count + 1, #list do list[i] = nil end
  return count
end

-- Labels the orthogonally connected groups of the cells in `list` (member[i] true for exactly
-- those): label[i] is the group of cell i (1, 2, ... in reading order of each group's first
-- cell), size[g] its size. Labels of other cells are left as they were. Returns the number of
-- groups.
local stack = {}   -- flood-fill scratch, reused by every call
function M.label_groups(member, list, rows, cols, label, size)
  local orth = M.shape(rows, cols).orth
  local n = #list
  for t = 1, n do label[list[t]] = false end
  local groups = 0
  for t = 1, n do
    local start = list[t]
    if not label[start] then
      groups = groups + 1
      label[start] = groups
      local top, count = 1, 0
      stack[1] = start
      while top > 0 do
        local i = stack[top]
        top = top - 1
        count = count + 1
        local o = orth[i]
        for k = 1, #o do
          local j = o[k]
          if member[j] and not label[j] then
            label[j] = groups
            top = top + 1
            stack[top] = j
          end
        end
      end
      size[groups] = count
    end
  end
  return groups
end

-- Points of labelled groups: each group scores points[min(size, #points)] ("1/4/9/16 for
-- 1/2/3/4+ cards").
function M.group_points(size, groups, points)
  local total, top = 0, #points
  for g = 1, groups do
    local s = size[g]
    total = total + points[s < top and s or top]
  end
  return total
end

-- The distinct groups orthogonally next to cell i (a group touching it twice counts once),
-- from label_groups: their number, and the sum of their sizes. `member` says which
-- neighbours carry a label.
function M.adjacent_groups(member, label, size, shape, i)
  local o = shape.orth[i]
  local a, b, c, count, sum = nil, nil, nil, 0, 0
  for k = 1, #o do
    local j = o[k]
    local g = member[j] and label[j]
    if g and g ~= a and g ~= b and g ~= c then
      count, sum = count + 1, sum + size[g]
      if not a then a = g elseif not b then b = g else c = g end
    end
  end
  return count, sum
end

-- Rows and columns of the cells in `list`: row_out[r] and col_out[c] (0-based, cleared
-- first) count them by row and by column. Returns how many rows, and how many columns, hold
-- at least one ("2 per row and 2 per column holding a turtle").
function M.line_counts(list, rows, cols, row_out, col_out)
  for r = 0, rows - 1 do row_out[r] = 0 end
  for c = 0, cols - 1 do col_out[c] = 0 end
  local nrows, ncols = 0, 0
  for t = 1, #list do
    local i = list[t]
    local r, c = (i - 1) // cols, (i - 1) % cols
    if row_out[r] == 0 then nrows = nrows + 1 end
    if col_out[c] == 0 then ncols = ncols + 1 end
    row_out[r], col_out[c] = row_out[r] + 1, col_out[c] + 1
  end
  return nrows, ncols
end

return M
