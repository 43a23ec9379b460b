-- Smoke tests of Écosystème – Savane: the draft deals, refuses bad picks and ends.

local testing = require("ecosysteme.testing")

test("a four-player game deals 11 cards to each player", function()
  local g = new_game{ players = 4, seed = 3 }
  for seat = 1, 4 do expect_eq(#g:zone("hand", seat), 11, "hand of P" .. seat) end
  expect_eq(#g:zone("deck"), 132 - 44, "the deck keeps the rest")
  expect_eq(g:to_move(), { 1, 2, 3, 4 })
end)

test("a pick outside the hand is refused and changes nothing", function()
  local g = new_game{ players = 2, seed = 5 }
  local hand = g:zone("hand", 1)
  local missing
  for _, id in ipairs({ "waterhole", "prairie", "tree", "gazelle", "zebra", "giraffe", "cheetah", "lion",
                        "elephant", "hyena", "vulture" }) do
    local held = false
    for _, c in ipairs(hand) do held = held or c == id end
    if not held then missing = id; break end
  end
  expect_true(missing, "some card type is not in an 11-card hand")
  expect_illegal(g, 1, { type = "place", card = missing, cell = { 0, 0 } }, "not in the hand")
end)

test("a random game ends with every grid full", function()
  local g = new_game{ players = 3, seed = 11 }
  g:play_random()
  expect_eq(g:to_move(), {})
  for seat = 1, 3 do expect_true(testing.full_grid(g, seat), "grid " .. seat .. " is a full 4 x 5") end
end)

test("a hand described compactly with set_zone is the hand the draft offers", function()
  local g = new_game{ players = 2, seed = 2 }
  g:set_zone("hand", 1, { "lion", "lion", "prairie" })
  local cards = {}
  for _, m in ipairs(g:moves(1)) do cards[m.card] = true end
  expect_eq(cards, { lion = true, prairie = true })
  expect_illegal(g, 1, { type = "place", card = "gazelle", cell = { 0, 0 } }, "not in the hand")
end)
