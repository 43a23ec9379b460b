-- Smoke tests of Écosystème – Océan: the deal, random games at every player count (full grids,
-- totals that add up, the bonus equal to the lowest group), and a save taken while a question
-- is open.

local testing = require("ecosysteme.testing")   -- games/ecosysteme/ecosysteme/testing.lua
local full_grid = testing.full_grid

test("a four-player game deals 10 cards to each player, and all four pick at once", function()
  local g = new_game{ players = 4, seed = 3 }
  for seat = 1, 4 do expect_eq(#g:zone("hand", seat), 10) end
  expect_eq(#g:zone("deck"), 130 - 40)
  expect_eq(g:to_move(), { 1, 2, 3, 4 })
end)

test("random games from 1 to 6 players end with full grids and consistent scores", function()
  for players = 1, 6 do
    local g = new_game{ players = players, seed = 40 + players }
    g:play_random(nil, players)
    expect_eq(g:to_move(), {}, players .. " players: the game ended")
    local s = g:score()
    local seats = players == 1 and 2 or players
    for seat = 1, seats do
      expect_true(full_grid(g, seat), players .. " players: grid " .. seat .. " is full")
      local line = s[seat]
      local sum = 0
      for _, v in pairs(line.breakdown) do sum = sum + v end
      expect_eq(line.total, sum, "total = sum of the breakdown")
      local gr = s.extra.groups[line.name]
      expect_eq(line.breakdown.food_chain_bonus, math.min(gr.producer, gr.prey, gr.predator), "bonus = lowest group")
      expect_eq(gr.producer, line.breakdown.coral + line.breakdown.krill + line.breakdown.plankton)
      expect_eq(gr.prey, line.breakdown.grouper + line.breakdown.clownfish + line.breakdown.crab)
      expect_eq(gr.predator, line.breakdown.moray_eel + line.breakdown.shark + line.breakdown.whale)
    end
    if players == 1 then expect_true(s.extra.solo ~= nil, "solo result") end
  end
end)

test("a game saved while an octopus question is open reloads with the same question", function()
  for seed = 1, 100 do
    local g = new_game{ players = 3, seed = seed }
    for _ = 1, 60 do
      local seats = g:to_move()
      if #seats == 0 then break end
      local m = g:moves(seats[1])
      if m[1].type == "octopus" then
        local copy = load_game(g:save())
        expect_eq(copy:hash(), g:hash())
        expect_eq(copy:to_move(), g:to_move())
        expect_eq(copy:moves(seats[1]), m)
        copy:play(seats[1], m[#m])
        g:play(seats[1], m[#m])
        expect_eq(copy:hash(), g:hash(), "the same answer gives the same state")
        return
      end
      g:play(seats[1], m[1])
    end
  end
  error("no octopus question in 100 seeds")
end)
