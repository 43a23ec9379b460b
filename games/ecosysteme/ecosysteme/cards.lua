-- Écosystème base: the card data of a variant (its "cards" data file), read once per VM.
-- ctx.data is the same for every game a rules instance plays, so these module caches hold
-- pure data and are safe (scripting/README.md §1). The lists returned are shared caches:
-- read them, never change them.

local M = {}

local ids_cache            -- card ids in data order
local field_cache = {}     -- field name -> { by = {value -> ids}, none = ids }

-- Every card id of the "cards" data file, in data order.
function M.ids(ctx)
  if not ids_cache then
    local ids = {}
    for _, card in ipairs(ctx.data.cards.cards) do ids[#ids + 1] = card.id end
    ids_cache = ids
  end
  return ids_cache
end

-- The cards grouped by a data field ("kind", "group", ...): `by[value]` lists the ids with
-- that value and `none` the ids without the field, both in data order.
function M.by_field(ctx, field)
  local c = field_cache[field]
  if not c then
    local by, none = {}, {}
    for _, card in ipairs(ctx.data.cards.cards) do
      local v = card[field]
      if v == nil then
        none[#none + 1] = card.id
      else
        local list = by[v]
        if not list then list = {}; by[v] = list end
        list[#list + 1] = card.id
      end
    end
    c = { by = by, none = none }
    field_cache[field] = c
  end
  return c.by, c.none
end

-- A new list: `list` without the ids given after it.
function M.without(list, ...)
  local drop = {}
  for _, id in ipairs({ ... }) do drop[id] = true end
  local out = {}
  for _, id in ipairs(list) do
    if not drop[id] then out[#out + 1] = id end
  end
  return out
end

-- A set {id = true} of the ids of a list, for membership tests in Lua loops.
function M.set(list)
  local out = {}
  for _, id in ipairs(list) do out[id] = true end
  return out
end

-- The deck the draft deals: {card id = count}, every card of the data.
function M.deck(ctx)
  local deck = {}
  for _, card in ipairs(ctx.data.cards.cards) do deck[card.id] = card.count end
  return deck
end

return M
