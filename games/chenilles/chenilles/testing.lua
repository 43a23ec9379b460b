-- Helpers shared by the Chenilles scenario tests (tests/*.lua require "chenilles.testing").
-- g:data().viv_<seat> lists five numbers per caterpillar; viv() makes them records
-- {id, species, stage, failures, life failures};
-- species 1 = gold, 2 = dromedary, 3 = kamikaze; stages are indices in the data's chronology.
-- new_game makes every test game with the numbers the tests were written against
-- (chenilles/test_numbers.lua), so editing data/chenilles.json leaves the tests green.
local GOLD, DROMEDARY, KAMIKAZE = 1, 2, 3
local NUMBERS = require("chenilles.test_numbers")

-- The host's new_game{players, seed, params, data} with the tests' numbers as data overrides;
-- the test's own `data` entries are applied after them (a more precise path overrides a field
-- of the pinned numbers, the same path replaces it).
local function pinned_game(options)
  local data = {}
  for path, value in pairs(NUMBERS) do data[path] = value end
  for path, value in pairs(options.data or {}) do data[path] = value end
  return new_game{ players = options.players, seed = options.seed, params = options.params, data = data }
end

local function find_move(g, seat, mtype, fields)
  for _, m in ipairs(g:moves(seat)) do
    if m.type == mtype then
      local ok = true
      for k, v in pairs(fields or {}) do
        if not m.args or m.args[k] ~= v then ok = false end
      end
      if ok then return m end
    end
  end
end

local function play(g, seat, mtype, fields)
  local m = find_move(g, seat, mtype, fields)
  if not m then error("no legal " .. mtype .. " move for P" .. seat .. " with these arguments", 2) end
  g:play(seat, m)
  return m
end

-- A resource of a seat, read from the view ("P1 (youngest): copper 4/10, water 2/10, ...").
local function res(g, seat, name)
  local v = g:view()
  local at = v:find("\nP" .. seat .. " (youngest): ", 1, true) or v:find("\nP" .. seat .. ": ", 1, true)
  local line = v:sub(at + 1, (v:find("\n", at + 1, true) or #v + 1) - 1)
  return tonumber(line:match(" " .. name .. " (%-?%d+)/"))
end

local function viv(g, seat)
  local flat, list = g:data()["viv_" .. seat], {}
  for c = 0, #flat - 1, 5 do list[#list + 1] = { flat[c + 1], flat[c + 2], flat[c + 3], flat[c + 4], flat[c + 5] } end
  return list
end

local function caterpillar(g, seat, id)
  for _, c in ipairs(viv(g, seat)) do
    if c[1] == id then return c end
  end
end

local function count_species(g, seat, species)
  local n = 0
  for _, c in ipairs(viv(g, seat)) do
    if c[2] == species then n = n + 1 end
  end
  return n
end

-- Evolves caterpillar `id`; a transformation is then rolled with 2d6 forced to `dice`.
local function evolve(g, seat, id, dice)
  play(g, seat, "evolve", { caterpillar = id })
  if g:to_move()[1] == seat and g:moves(seat)[1].type == "roll" then
    g:force_dice("2d6", dice)
    play(g, seat, "roll")
  end
end

-- Ends seat's turn: each dromedary gives `income` (water by default), the racket is paid,
-- optional steps are skipped, then `take` ("copper" by default, "card", or whatever is left).
local function finish_turn(g, seat, take, income)
  local guard = 0
  while g:to_move()[1] == seat do
    guard = guard + 1
    if guard > 50 then error("finish_turn: the turn does not end", 2) end
    local first = g:moves(seat)[1]
    if first.type == "dromedary" then play(g, seat, "dromedary", { resource = income or "water" })
    elseif first.type == "racket" then play(g, seat, "racket", { choice = "pay" })
    elseif first.type == "roll" then g:play(seat, first)
    else
      local e = find_move(g, seat, "end", { take = take or "copper" }) or find_move(g, seat, "end")
      if e then g:play(seat, e) else play(g, seat, "done") end
    end
  end
end

local function finish_round(g, take)
  local seat = g:to_move()[1]
  while seat and seat <= g.player_count do
    finish_turn(g, seat, take)
    local nxt = g:to_move()[1]
    if not nxt or nxt <= seat then break end
    seat = nxt
  end
end

local function time_space(g) return tonumber(g:view():match("time: space (%d+) of")) end

local function stats(g) return g:stats() end

return {
  GOLD = GOLD, DROMEDARY = DROMEDARY, KAMIKAZE = KAMIKAZE, new_game = pinned_game,
  find_move = find_move, play = play, res = res, viv = viv, caterpillar = caterpillar,
  count_species = count_species, evolve = evolve, finish_turn = finish_turn, finish_round = finish_round,
  time_space = time_space, stats = stats,
}
