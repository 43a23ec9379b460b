-- Écosystème base: errors about what a variant passed to a base function (an unknown card id,
-- a grid function that returns too little, a missing data file). Such a mistake is the
-- modder's, so the message starts at the modder's own line: check.fail walks up the call
-- stack to the first frame outside this folder (the variant's rules.lua or test file) and
-- names it first, then the base line that found the mistake:
--
--   games/foret/rules.lua:31: cards.without: 'elefant' is not in the list (...)
--     (found by games/ecosysteme/ecosysteme/cards.lua:52)
--
-- The sandbox has no `debug` library; `pcall(error, "", level)` gives the "file:line: " of a
-- frame the way error() itself would name it ("" for a C frame), which is all the walk needs.
-- It runs only when an error is raised, never on the scoring path.

local M = {}

-- "games/<base folder>/ecosysteme/": the prefix of every chunk name of this folder, read from
-- this file's own chunk name so the check holds wherever the base is installed.
local BASE
do
  local _, here = pcall(error, "", 2)   -- level 2: this chunk (level 1 is pcall)
  BASE = here:match("^(.*/)[^/]*:%d+: $") or "games/ecosysteme/ecosysteme/"
end

-- Raises `msg` at the first stack frame outside the base's folder, adding the first base
-- frame (where the mistake was found). A variant's `return base.f(...)` is a tail call, which
-- leaves no frame of the variant on the stack: the message then starts at the base's line and
-- says so (the template and the docs call the base without `return` for this reason).
function M.fail(msg, relocate)
  local found
  -- Level 1 is pcall, 2 this function, 3 the base function that called it.
  for level = 3, 60 do
    local _, at = pcall(error, "", level)
    if at ~= "" then
      if at:sub(1, #BASE) == BASE then
        -- The first base line that is not this module's own helpers.
        if at:sub(#BASE + 1, #BASE + 10) ~= "check.lua:" then found = found or at end
      else
        error((relocate and relocate(at) or at) .. msg .. (found and ("\n  (found by " .. found:sub(1, -3) .. ")") or ""), 0)
      end
    end
  end
  error((found or "") .. msg .. "\n  (no line of the variant on the stack: a `return base_function(...)` tail call" ..
        " drops it; `local a, b = base_function(...) return a, b` keeps it)", 0)
end

-- The "file:line: " of the first stack frame outside the base's folder (the variant's call
-- into the base), or nil: where a sheet was written, for `plateau score --explain`.
function M.caller()
  for level = 3, 60 do
    local _, at = pcall(error, "", level)
    if at ~= "" and at:sub(1, #BASE) ~= BASE then return at end
  end
  return nil
end

-- As fail, at the line where entry `k` of the list the variant's call passes begins: a score
-- sheet's entry #3 is named at its own line, not at the line of the call that lists it. Lua
-- keeps no line per table field; ctx.entry_line reads it from the variant's source (nil when
-- the list is not written in the call itself, and the call's line is named then).
function M.fail_entry(ctx, k, msg)
  M.fail(msg, function(at)
    local line = ctx.entry_line and ctx.entry_line(at, k)
    if not line then return at end
    return (at:gsub(":%d+: $", ":" .. line .. ": "))
  end)
end

-- A short list of names for messages: "a, b, c" (the first 12, then how many more).
function M.names(list)
  local out = {}
  for i = 1, math.min(#list, 12) do out[i] = tostring(list[i]) end
  local text = table.concat(out, ", ")
  if #list > 12 then text = text .. ", ... (" .. #list .. " in all)" end
  return text
end

-- The "cards" data document, or an error saying what the manifest lacks (the mistake is in
-- game.json, not at a line of Lua).
function M.cards_data(ctx)
  local data = ctx.data and ctx.data.cards
  if type(data) ~= "table" or type(data.cards) ~= "table" then
    error("game '" .. tostring(ctx.game_id) .. "' has no \"cards\" data file: a variant of the Écosystème base " ..
          "needs in its game.json \"data\": {\"cards\": {\"file\": \"data/cards.json\", \"schema\": \"cards\"}}", 0)
  end
  return data
end

-- The edit distance of two short strings (a swap of two neighbours counts one).
local function distance(a, b)
  local d = {}
  for i = 0, #a do d[i] = { [0] = i } end
  for j = 0, #b do d[0][j] = j end
  for i = 1, #a do
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      local v = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1 and j > 1 and a:byte(i) == b:byte(j - 1) and a:byte(i - 1) == b:byte(j) then
        v = math.min(v, d[i - 2][j - 2] + 1)
      end
      d[i][j] = v
    end
  end
  return d[#a][#b]
end

-- For a name that is not a card id: " (did you mean 'marmott' (games/x/data/cards.json
-- /cards/4/id)?)" with the closest ids (at most 3), or "". The typo may be on either side,
-- the data's or the rules': naming where the close id is written shows which.
function M.suggest(ctx, id)
  if type(id) ~= "string" or #id > 64 then return "" end
  local limit = #id < 5 and 1 or #id < 10 and 2 or 3
  local data = M.cards_data(ctx)
  local file = data["$file"] or "data/cards.json"
  local close, all = {}, {}
  for i, card in ipairs(data.cards) do
    if type(card.id) == "string" and #card.id <= 64 then
      local dist = distance(id, card.id)
      close[#close + 1] = { dist = dist, i = i, id = card.id }
      all[#all + 1] = card.id
    end
  end
  -- The closest within the limit; else within one more edit ('hair' for 'hare' is two);
  -- else every id the data defines, so the modder still sees what the data calls its cards.
  local best = math.huge
  for _, c in ipairs(close) do best = math.min(best, c.dist) end
  if best > limit + 1 then
    if #all == 0 then return "" end
    return " (the known card ids: " .. M.names(all) .. ")"
  end
  local within = {}
  for _, c in ipairs(close) do
    if c.dist <= math.max(limit, best) then within[#within + 1] = c end
  end
  close = within
  table.sort(close, function(x, y) if x.dist ~= y.dist then return x.dist < y.dist end return x.i < y.i end)
  local out = {}
  for k = 1, math.min(#close, 3) do
    out[k] = "'" .. close[k].id .. "' (" .. file .. " /cards/" .. (close[k].i - 1) .. "/id)"
  end
  return " (did you mean " .. table.concat(out, " or ") .. "?)"
end

-- Raises unless `id` is a card of the "cards" data file; `what` names the place it was given
-- ("cards.without", "score sheet entry #3").
local known_cache
function M.card(ctx, id, what)
  if not known_cache then
    local known = {}
    for _, card in ipairs(M.cards_data(ctx).cards) do known[card.id] = true end
    known_cache = known
  end
  if not known_cache[id] then
    local ids = {}
    for _, card in ipairs(M.cards_data(ctx).cards) do ids[#ids + 1] = card.id end
    local file = M.cards_data(ctx)["$file"] or "data/cards.json"
    M.fail(what .. ": unknown card id '" .. tostring(id) .. "'" .. M.suggest(ctx, id) .. " (the cards of " .. file .. ": " ..
           M.names(ids) .. ")")
  end
end

return M
