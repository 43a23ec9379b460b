-- Écosystème base: the card data of a variant (its "cards" data file), read once per VM.
-- ctx.data is the same for every game a rules instance plays, so these module caches hold
-- pure data and are safe (scripting/README.md §1). The lists returned are shared caches:
-- read them, never change them. A card id or field a variant names that the data does not
-- have is an error at the variant's line (ecosysteme.check), never an empty list.

local check = require("ecosysteme.check")

local M = {}

local ids_cache            -- card ids in data order
local field_cache = {}     -- field name -> { by = {value -> ids}, none = ids }

-- Every card id of the "cards" data file, in data order.
function M.ids(ctx)
  if not ids_cache then
    local ids = {}
    for _, card in ipairs(check.cards_data(ctx).cards) do ids[#ids + 1] = card.id end
    ids_cache = ids
  end
  return ids_cache
end

-- The cards grouped by a data field ("kind", "group", ...): `by[value]` lists the ids with
-- that value and `none` the ids without the field, both in data order. A field no card has,
-- or reading `by` at a value no card has (`by.animl`), is an error naming the values there are.
function M.by_field(ctx, field)
  local c = field_cache[field]
  if not c then
    local data = check.cards_data(ctx)
    local by, none, values = {}, {}, {}
    for _, card in ipairs(data.cards) do
      local v = card[field]
      if v == nil then
        none[#none + 1] = card.id
      else
        local list = by[v]
        if not list then list = {}; by[v] = list; values[#values + 1] = v end
        list[#list + 1] = card.id
      end
    end
    if #values == 0 then
      check.fail("cards.by_field: no card of " .. (data["$file"] or "data/cards.json") .. " has a field '" ..
                 tostring(field) .. "'")
    end
    setmetatable(by, { __index = function(_, v)
      check.fail("cards.by_field: no card has " .. tostring(field) .. " '" .. tostring(v) .. "' (the values: " ..
                 check.names(values) .. ")")
    end })
    c = { by = by, none = none }
    field_cache[field] = c
  end
  return c.by, c.none
end

-- A new list: `list` without the ids given after it. Each id must be in the list: dropping a
-- card that is not there is a typo or a card that moved to another kind.
function M.without(list, ...)
  local drop = {}
  local present = M.set(list)
  for _, id in ipairs({ ... }) do
    if not present[id] then
      check.fail("cards.without: '" .. tostring(id) .. "' is not in the list (it holds " .. check.names(list) .. ")")
    end
    drop[id] = true
  end
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

-- The deck the draft deals: {card id = count}, every card of the data. The cards schema
-- lets `count` out (other games deal no deck from it); a deck from counts needs every one.
function M.deck(ctx)
  local deck = {}
  local data = check.cards_data(ctx)
  for i, card in ipairs(data.cards) do
    if card.count == nil then   -- the data's mistake: named by its file and JSON path
      error((data["$file"] or "data/cards.json") .. ": at /cards/" .. (i - 1) .. ": card '" .. card.id ..
            "' has no count (the copies of it in the deck)", 0)
    end
    deck[card.id] = card.count
  end
  return deck
end

return M
