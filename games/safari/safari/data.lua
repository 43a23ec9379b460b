-- Safari: the game's constants and the data derived once per VM from ctx.data (species, their
-- letters, each tile's segments with their animals and birds), with the small pure helpers
-- every rule module uses (the diversity points, the species on a feature).

local M = {}

M.MAP = "savanna"
M.CORNERS = { "NE", "SE", "SW", "NW" }
-- The cell a corner of cell (r, c) lies on, as the vertex's (top-left) coordinates, and which
-- quarter of that vertex's circle the cell is: 1 NW of the vertex, 2 NE, 3 SE, 4 SW.
M.CORNER_VERTEX = { NE = { 0, 1, 4 }, SE = { 1, 1, 1 }, SW = { 1, 0, 2 }, NW = { 0, 0, 3 } }
M.CATEGORIES = { "trails", "bushes", "holes", "vehicles", "final_trails", "final_bushes", "markers" }

-- ---- data derived once per VM (pure functions of ctx.data) ---------------------------------

local derived_for, D
function M.data(ctx)
  if derived_for == ctx.data then return D end
  local S = ctx.data.safari
  D = { species = {}, letter = {}, is_species = {}, tiles = {}, S = S }
  for i, sp in ipairs(S.species) do
    D.species[i] = sp.id
    D.letter[sp.id] = sp.letter
    D.is_species[sp.id] = true
  end
  for _, t in ipairs(ctx.data.tiles.tiles) do
    local info = { id = t.id, count = t.count or 0, variants = t.variants, segments = {},
                   baobab = t.properties ~= nil and t.properties.baobab == true }
    for i, seg in ipairs(t.segments or {}) do
      local animals = {}
      for key, n in pairs(seg.tally or {}) do
        if D.is_species[key] then
          for _ = 1, n do animals[#animals + 1] = key end
        end
      end
      info.segments[i] = { kind = seg.kind, animals = animals, birds = (seg.tally and seg.tally.bird) or 0,
                           sides = seg.sides or {} }
    end
    D.tiles[t.id] = info
  end
  derived_for = ctx.data
  return D
end

-- The kinds a tile's corner may show and still be free for a watering hole: savanna, and the
-- inside of a trail curve unless trail_curve_corner_free is false (a bush covering both sides
-- around a corner always closes it).
local FREE_WITH_CURVES, FREE_SAVANNA = { "savanna", "trail" }, { "savanna" }
function M.free_corner_kinds(ctx)
  return ctx.params.trail_curve_corner_free and FREE_WITH_CURVES or FREE_SAVANNA
end

function M.is_free_corner(ctx, kind)
  return kind == "savanna" or (kind == "trail" and ctx.params.trail_curve_corner_free)
end

function M.in_variant(entry, variant)
  if entry.variants == nil then return true end
  for _, v in ipairs(entry.variants) do
    if v == variant then return true end
  end
  return false
end

function M.key_of(r, c) return r .. "," .. c end

-- "a zebra", "an elephant".
function M.a(word) return (word:match("^[aeiou]") and "an " or "a ") .. word end

function M.triangle(S, species)
  local t = S.diversity_points
  if species <= 0 then return 0 end
  return t[math.min(species, #t)]
end

-- Species present in a feature's tally (a list, in data order) and its birds.
function M.species_of(d, tally)
  local out = {}
  for _, sp in ipairs(d.species) do
    if (tally[sp] or 0) > 0 then out[#out + 1] = sp end
  end
  return out, tally.bird or 0
end

function M.animals_in(d, tally, with_birds)
  local n = 0
  for _, sp in ipairs(d.species) do n = n + (tally[sp] or 0) end
  if with_birds then n = n + (tally.bird or 0) end
  return n
end

function M.distinct(list)
  local seen, out = {}, {}
  for _, x in ipairs(list) do
    if not seen[x] then
      seen[x] = true
      out[#out + 1] = x
    end
  end
  table.sort(out)
  return out
end

return M
