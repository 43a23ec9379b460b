-- Écosystème's moves in the players' words: the rules' `describe` hook, shared by every variant
-- (plateau play lists moves with it, the studio labels its moves and log with it). The host's
-- grid floats, so its coordinates ("place zebra at (-3, -3)") mean nothing at the table; a card
-- placed is named with where it lands as the players see their grid (row and column counted
-- from the top-left card, or a new row or column at an edge) and the cards it touches. The
-- variants' own moves (a lion eating, an octopus moving a card, a whale turning one face down)
-- name the card at their cell the same way.
local M = {}

-- Card names by id, read once per data set (ctx is shared by every call of the rules).
local names_of, names = nil, nil
local function card_name(ctx, id)
  if names_of ~= ctx.data.cards then
    names_of, names = ctx.data.cards, {}
    for _, c in ipairs(ctx.data.cards.cards or {}) do
      local n = c.name
      names[c.id] = type(n) == "table" and (n.en or n.fr) or n or c.id
    end
  end
  return names[id] or tostring(id)
end

-- Where (r, c) lies in the grid as its owner sees it.
local function where(grid, r, c)
  local r0, r1, c0, c1 = grid:bounds()
  if not r0 then return "the first card of the grid" end
  local row = r < r0 and "a new top row" or r > r1 and "a new bottom row" or ("row " .. (r - r0 + 1))
  local col = c < c0 and "a new left column" or c > c1 and "a new right column" or ("column " .. (c - c0 + 1))
  return row .. ", " .. col
end

-- The face-up cards beside (r, c), by name.
local function beside(ctx, grid, r, c)
  local out = {}
  for _, d in ipairs({ { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }) do
    local id, down = grid:get(r + d[1], c + d[2])
    if id and not down then out[#out + 1] = card_name(ctx, id) end
  end
  return #out > 0 and ", next to " .. table.concat(out, ", ") or ""
end

local function grid_of(state, key)
  local ok, grid = pcall(state.grid, state, key)
  return ok and grid or nil
end

-- The card at a move's cell, with where it is.
local function at_cell(ctx, grid, cell)
  local id, down = grid:get(cell[1], cell[2])
  local what = id and (down and "a face-down card" or "the " .. card_name(ctx, id)) or "the empty cell"
  return what .. " (" .. where(grid, cell[1], cell[2]) .. ")"
end

function M.describe(ctx, state, seat, move)
  local grid = grid_of(state, move.grid or seat)
  if move.type == "place" and move.card and move.cell then
    local name = card_name(ctx, move.card)
    if not grid then return name end
    return name .. ": " .. where(grid, move.cell[1], move.cell[2]) .. beside(ctx, grid, move.cell[1], move.cell[2])
  end
  if not grid or not move.cell then return nil end  -- the host's own words
  local verb = move.type == "eat" and "the lion eats" or move.type == "flip" and "the whale turns face down"
    or move.type == "octopus" and (move.action == "swap" and "the octopus swaps" or "the octopus moves") or move.type
  local text = verb .. " " .. at_cell(ctx, grid, move.cell)
  if move.to then text = text .. (move.action == "swap" and " with " .. at_cell(ctx, grid, move.to) or " to " .. where(grid, move.to[1], move.to[2])) end
  return text
end

return M
