-- Écosystème base: score sheets. Most cards of an Écosystème score "N points per something
-- the grid view can count" (per adjacent prairie, per row holding a tree, per group of
-- meadows...). A sheet lists those rules, one entry per line of the rulebook's table, and
-- compiles them into one ctx.query, so scoring a grid is one host call (v:run) instead of
-- one view call per rule (scripting/README.md §5, "Grid views").
--
-- An entry is a table:
--   query  the view query, {op, args...}: "count", "pairs", "touching", "distinct", "groups",
--          "lines" (rows + columns), "each", "largest" (the largest group's size),
--          "touching_groups" (the sizes of the groups around each cell), or "flip_touching"
--          (turns cards face down in the view for the entries after it)
--   score  the breakdown category it adds to (usually the card id); leave it out for an
--          entry that only turns cards over or only feeds Lua code
--   per    points per unit of the query's answer (default 1)
--   keep   a name under which the raw answer is kept for Lua code (a majority's count, how
--          many lions are hungry, ...)
-- Entries run in order on the same view, so a "flip_touching" entry changes what later
-- entries see (and what Lua code reading the view afterwards sees).
--
--   local sheet = scoring.sheet(ctx, {
--     { score = "zebra", per = 3, query = { "pairs", "zebra", "prairie" } },   -- 3 per adjacent prairie
--     { score = "gazelle", per = 2, query = { "count", "gazelle" }, keep = "gazelles" },
--   })
--   local b, kept = sheet:run(state:grid(seat):view())   -- b.zebra, b.gazelle, kept.gazelles

local check = require("ecosysteme.check")

local M = {}

local Sheet = {}
Sheet.__index = Sheet

-- The categories some compiled sheet has an entry for (score = ...), for score.check: a card
-- listed in game.categories with no rule would otherwise score 0 without a word. Pure data
-- from the rules' definitions, the same for every game of this VM.
M.scored = {}

-- A breakdown with every category at 0, built by one table constructor: a constructor with
-- N fields allocates room for N keys at once, where setting the keys one by one would grow
-- (and rehash) the table four or five times. The names list is padded to 16 with repeats of
-- its first name (setting a key twice is harmless); sheets with more categories grow the rest.
local function zeros(c)
  return { [c[1]] = 0, [c[2]] = 0, [c[3]] = 0, [c[4]] = 0, [c[5]] = 0, [c[6]] = 0, [c[7]] = 0, [c[8]] = 0,
           [c[9]] = 0, [c[10]] = 0, [c[11]] = 0, [c[12]] = 0, [c[13]] = 0, [c[14]] = 0, [c[15]] = 0, [c[16]] = 0 }
end

-- Compiles a sheet. `categories` (optional, usually game.categories) lists every category the
-- breakdown must hold, scored by the sheet or not; each line then starts with all of them at
-- 0. Card sets in the queries must be card ids, plain Lua lists of ids or ctx.card_set values.
-- Compile once per VM (a module cache) and reuse it for every grid.
function M.sheet(ctx, entries, categories)
  check.cards_data(ctx)   -- a manifest without the card data is said as such, not as unknown cards
  local ops, scores, pers, keeps, names, seen = {}, {}, {}, {}, {}, {}
  local function add(name)
    if not seen[name] then seen[name] = true; names[#names + 1] = name end
  end
  for _, name in ipairs(categories or {}) do add(name) end
  -- Mistakes in an entry are named at the entry's own line in the variant, with its number:
  -- points that went to a category the table does not hold would vanish from the total
  -- without a word.
  local function entry(k, e)
    return "score sheet entry #" .. k .. (type(e) == "table" and e.score and (" (score = '" .. tostring(e.score) .. "')") or "")
  end
  for k, e in ipairs(entries) do
    if type(e) ~= "table" or type(e.query) ~= "table" then check.fail_entry(ctx, k, entry(k, e) .. " needs query = {op, args...}") end
    if categories and e.score and not seen[e.score] then
      check.fail_entry(ctx, k, entry(k, e) .. ": '" .. tostring(e.score) .. "' is not a category of the score table (" ..
                 check.names(categories) .. "): add it to game.categories")
    end
    if e.per ~= nil and type(e.per) ~= "number" then
      check.fail_entry(ctx, k, entry(k, e) .. ": per must be a number, got " .. type(e.per))
    end
    -- Points are whole: a fraction would be refused only when some grid scores an odd count,
    -- far from this line (the score is checked for whole numbers), so it is refused here.
    if e.per ~= nil and math.type(e.per) ~= "integer" then
      check.fail_entry(ctx, k, entry(k, e) .. ": per = " .. tostring(e.per) .. " is not a whole number (points are counted in" ..
                 " whole points: for 'one point per two', count with keep = and halve in Lua with //)")
    end
    if e.query[1] == "groups" and type(e.query[3]) == "table" then
      for i, p in ipairs(e.query[3]) do
        if math.type(p) ~= "integer" then
          check.fail_entry(ctx, k, entry(k, e) .. ": the points of a group of " .. i .. " card(s), " .. tostring(p) ..
                     ", are not a whole number")
        end
      end
    end
    ops[k] = e.query
    -- Flat arrays (false for "none"): Sheet:run reads them for every grid scored.
    scores[k], pers[k], keeps[k] = e.score or false, e.per or 1, e.keep or false
    if e.score and not categories then add(e.score) end
    if e.score then M.scored[e.score] = true end
  end
  local padded = {}
  for i = 1, 16 do padded[i] = names[i] or names[1] or "_" end
  local ok, query = pcall(ctx.query, ops)
  if not ok then
    -- The host names the bad argument of the whole list; compiled one by one, the entry is found.
    for k = 1, #ops do
      local one_ok, why = pcall(ctx.query, { ops[k] })
      if not one_ok then
        check.fail_entry(ctx, k, entry(k, entries[k]) .. ": " .. (tostring(why):match("%((.*)%)$") or tostring(why)))
      end
    end
    check.fail("score sheet: " .. tostring(query))
  end
  return setmetatable({ query = query, n = #entries, scores = scores, pers = pers, keeps = keeps,
                        categories = names, padded = padded, extra = #names > 16,
                        ops = ops, where = check.caller(), ctx = ctx }, Sheet)
end

-- ---- explanations (`plateau score --explain`) ------------------------------------------
-- While M.explaining is a list (score.assemble sets it when ctx.explain is true), every sheet
-- run appends one record per entry: what the entry counted, cell by cell (v:explain), and the
-- entry's line in the variant. Nothing of this runs when scoring for play or simulation.
M.explaining = nil

local function arg_text(x)
  if type(x) == "table" then
    local parts = {}
    for i = 1, #x do parts[i] = arg_text(x[i]) end
    return "{" .. table.concat(parts, ", ") .. "}"
  elseif type(x) == "userdata" then
    return "<card set>"
  end
  return tostring(x)
end

-- The entry's query as written: `pairs(marmot, meadow, orthogonal, up)`, or with names.
local FIELDS = { "cards", "near", "points", "adj", "face", "base", "per", "floor", "cards_face" }
local function query_text(q)
  if q.op then
    local parts = {}
    for _, f in ipairs(FIELDS) do
      if q[f] ~= nil then parts[#parts + 1] = f .. " = " .. arg_text(q[f]) end
    end
    return tostring(q.op) .. "(" .. table.concat(parts, ", ") .. ")"
  end
  local parts = {}
  for i = 2, #q do parts[#parts + 1] = arg_text(q[i]) end
  return tostring(q[1]) .. "(" .. table.concat(parts, ", ") .. ")"
end

local function at(item) return "(" .. item.r .. "," .. item.c .. ")" end

-- What one entry counted, in words: "(0,1) 3 · (1,0) 2", "groups: (0,0) size 2 → 3",
-- "rows 0, 2; columns 1".
local function items_text(op, found)
  if #found == 0 then return "nothing" end
  local parts = {}
  if op == "lines" then
    local rows, cols = {}, {}
    for _, item in ipairs(found) do
      if item.row then rows[#rows + 1] = item.row else cols[#cols + 1] = item.col end
    end
    return "rows " .. (#rows > 0 and table.concat(rows, ", ") or "none") ..
           "; columns " .. (#cols > 0 and table.concat(cols, ", ") or "none")
  end
  for i, item in ipairs(found) do
    if op == "groups" then
      parts[i] = "group of " .. item.size .. " at " .. at(item) .. " → " .. item.n
    elseif op == "largest" then
      parts[i] = "group of " .. item.size .. " at " .. at(item)
    elseif op == "count" or op == "flip_touching" then
      parts[i] = at(item)
    else
      parts[i] = at(item) .. " " .. item.n
    end
  end
  return (op == "flip_touching" and "turned face down " or "") .. table.concat(parts, " · ")
end

-- A breakdown that records each write made to it (M.written: {row =, value =, where =}), so an
-- explanation can name the line of Lua that set a row. Reads and writes go to `b` itself;
-- M.unwatch(proxy) gives `b` back. Only while explaining.
M.written = nil
local watched = {}   -- proxy -> the breakdown it stands for (explaining only; unwatch drops it)
function M.watch(b)
  local proxy = setmetatable({}, {
    __index = b,
    __newindex = function(_, row, value)
      -- Level 1 is pcall, 2 this function, 3 the code that wrote the row.
      local _, where = pcall(error, "", 3)
      if M.written then
        M.written[#M.written + 1] = { row = row, value = value, where = where:match("^(.-): $") or "?" }
      end
      b[row] = value
    end,
    __pairs = function() return next, b, nil end,
  })
  watched[proxy] = b
  return proxy
end
function M.unwatch(x)
  local b = watched[x]
  if not b then return x end
  watched[x] = nil
  return b
end

-- For a row scored in Lua: what cell `i` of view `v` added to `row`, which `plateau score
-- --explain` shows under the row, cell by cell, as it shows a sheet entry's. Does nothing, and
-- costs one check, when not explaining.
--   if v:around(i, "chamois", "row") == 0 then points = points + 5; scoring.note(v, "chamois", i, 5) end
M.noted = nil
function M.note(v, row, i, points)
  if not M.explaining then return end
  local r, c = v:cell(i)
  M.noted = M.noted or {}
  M.noted[#M.noted + 1] = { row = row, r = r, c = c, n = points }
end

function Sheet:explain_run(v, kept)
  local b = {}
  for _, name in ipairs(self.categories) do b[name] = 0 end
  kept = kept or {}
  local found = v:explain(self.query)
  local file = self.where and self.where:match("^(.-):%d+: $")
  for k = 1, self.n do
    local e, q = found[k], self.ops[k]
    local x, score, keep, per = e.n, self.scores[k], self.keeps[k], self.pers[k]
    if score then b[score] = b[score] + per * x end
    if keep then kept[keep] = x end
    local line = file and self.ctx.entry_line(self.where, k)
    local op = q.op or q[1]
    M.explaining[#M.explaining + 1] = {
      score = score or nil, keep = keep or nil, points = score and per * x or nil, n = x, per = per,
      where = line and (file .. ":" .. line) or ("score sheet entry #" .. k),
      text = query_text(q) .. ": " .. items_text(op, e.items),
    }
  end
  return M.watch(b), kept
end

-- Runs the sheet on view `v`: a new breakdown with every category at 0, each entry's points
-- added to b[score], and the raw answers asked for in `kept` (a new table unless given).
-- Returns b, kept.
function Sheet:run(v, kept)
  if M.explaining then return self:explain_run(v, kept) end
  local b = zeros(self.padded)
  if self.extra then
    for i = 17, #self.categories do b[self.categories[i]] = 0 end
  end
  if #self.categories == 0 then b._ = nil end
  kept = kept or {}
  local answers = table.pack(v:run(self.query))
  local scores, pers, keeps = self.scores, self.pers, self.keeps
  for k = 1, self.n do
    local x, score, keep = answers[k], scores[k], keeps[k]
    if score then b[score] = b[score] + pers[k] * x end
    if keep then kept[keep] = x end
  end
  return b, kept
end

return M
