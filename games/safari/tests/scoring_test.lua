-- Safari scoring worked by hand from the rulebook: trails and bushes completed and scored by
-- species diversity (1/3/6/10/15) plus 1 per bird in a bush, the one-marker boost, a loop,
-- shared zones and ties, the dead-end reading, and a ring of bush around an empty space (the
-- host's test of it on every shape: tests/host/tile_map_test.cc).
-- The start tile is CSS1 (0,-1) bush south with an elephant, CSS2 (0,0) trail south to a dead
-- end with a giraffe, CSS3 (0,1) bush north with 1 bird and a trail east to a dead end with a
-- monkey. g:set_data("tile", id) chooses the tile the player to move has drawn.

local T = require("safari.testing")
local game, place = T.game, T.place

test("a trail from the start's dead end into a bush completes: 2 species = 3 points", function()
  local g = game()
  place(g, 1, "CS18-EL", 1, 0)            -- trail north (elephant) into its bush, lion in the bush
  g:play(1, { type = "meeple", segment = 1 })
  expect_score(g, 1, 3, { trails = 3 })
  expect_eq(g:data().meeples[1], 6, "the meeple came back after the scoring")
end)

test("the boost: one marker of a new species adds one species for its owner only", function()
  local g = game()
  g:set_data("markers", { { "lion", "giraffe" }, {} })
  place(g, 1, "CS18-EL", 1, 0)
  g:play(1, { type = "meeple", segment = 1 })
  -- Asked which marker to discard: giraffe is already on the trail, so only lion (or none).
  local moves = g:moves(1)
  expect_eq(#moves, 2, "no boost, or the lion")
  expect_eq(moves[2].species, "lion")
  g:play(1, moves[2])
  expect_score(g, 1, 6, { trails = 6 })
  expect_eq(g:data().markers[1], { "giraffe" })
  expect_eq(g:data().spent, { "lion" }, "a spent marker is set aside for a later reshuffle")
end)

test("declining the boost keeps the marker", function()
  local g = game()
  g:set_data("markers", { { "zebra" }, {} })
  place(g, 1, "CS18-EL", 1, 0)
  g:play(1, { type = "meeple", segment = 1 })
  g:play(1, g:moves(1)[1])                -- no boost
  expect_score(g, 1, 3, { trails = 3 })
  expect_eq(g:data().markers[1], { "zebra" })
end)

test("a completed bush scores its species and 1 per bird", function()
  local g = game()
  place(g, 1, "CS20-M", -1, 1, 90)        -- bush turned to the south, onto CSS3's bush (1 bird)
  g:play(1, { type = "meeple", segment = 1 })
  expect_score(g, 1, 2, { bushes = 2 })   -- 1 species (monkey) = 1, + 1 bird
end)

test("a bush with 4 species and 3 birds: 10 + 3", function()
  local g = game()
  -- CSS1's bush (elephant) continued south by a band (giraffe, 1 bird), closed by CS26-LZ
  -- (bush N-E with zebra and 2 birds; its trail into the bush has a lion)... built step by step.
  place(g, 1, "CS30-G", 1, -1, 90)        -- band N-S: elephant + giraffe, 1 bird, open south
  g:play(1, { type = "meeple", segment = 1 })
  place(g, 2, "CS28-Z", 2, -1, 270)       -- bush N-E turned to N-W: the north joins, west opens
  g:play(2, { type = "pass" })
  local f = g:tile_map("savanna").features
  local bush
  for _, x in ipairs(f) do
    if x.kind == "bush" and x.occupants["1"] == 1 then bush = x end
  end
  expect_eq(bush.tally, { elephant = 1, giraffe = 1, zebra = 1, bird = 3 })
  expect_eq(bush.complete, false, "open to the west")
  place(g, 1, "CS20-L", 2, -2, 0)         -- bush east (lion) closes it
  g:play(1, { type = "pass" })
  expect_score(g, 1, 13, { bushes = 13 }) -- 4 species = 10, 3 birds = 3
end)

test("a ring of bush around an empty space is not complete until a tile fills the space: then 10 + 10", function()
  local g = game()
  -- « Une brousse est considérée complète lorsqu'elle n'a plus de côté ouvert et qu'il n'y a
  -- pas d'espace vide à l'intérieur. » A ring of 8 tiles around (-2,-1), above CSS1 and CSS2,
  -- showing savanna to the empty space: bands (CS30, W-E) and corners (CS28, CS29, N-E), turned.
  place(g, 1, "CS30-G", -1, -1, 0)        -- band W-E, giraffe, 1 bird
  g:play(1, { type = "meeple", segment = 1 })
  place(g, 2, "CS29-E", -1, -2, 0)        -- corner N-E, elephant, 1 bird
  g:play(2, { type = "pass" })
  place(g, 1, "CS28-G", -1, 0, 270)       -- corner W-N, giraffe, 2 birds
  g:play(1, { type = "pass" })
  place(g, 2, "CS30-L", -2, -2, 90)       -- band N-S, lion, 1 bird
  g:play(2, { type = "pass" })
  place(g, 1, "CS30-Z", -2, 0, 90)        -- band N-S, zebra, 1 bird
  g:play(1, { type = "pass" })
  place(g, 2, "CS29-E", -3, -2, 90)       -- corner E-S, elephant, 1 bird
  g:play(2, { type = "pass" })
  place(g, 1, "CS30-G", -3, -1, 0)        -- band W-E, giraffe, 1 bird
  g:play(1, { type = "pass" })
  place(g, 2, "CS28-Z", -3, 0, 180)       -- corner S-W, zebra, 2 birds: the ring closes
  g:play(2, { type = "pass" })
  local ring
  for _, x in ipairs(g:tile_map("savanna").features) do
    if x.kind == "bush" and x.occupants["1"] == 1 then ring = x end
  end
  expect_eq(ring.open_edges, 0, "no side open: every edge facing (-2,-1) shows savanna")
  expect_eq(ring.empty_inside, 1)
  expect_eq(ring.complete, false, "the empty space inside keeps it open")
  expect_score(g, 1, 0, {})
  expect_eq(g:data().meeples[1], 5, "the meeple stays on the ring")
  place(g, 1, "CS1", -2, -1, 0)           -- all savanna (a baobab): the space is filled
  g:play(1, { type = "pass" })
  -- giraffe, elephant, lion, zebra = 4 species = 10; birds 1+1+2+1+1+1+1+2 = 10.
  expect_score(g, 1, 20, { bushes = 20 })
  expect_eq(g:data().meeples[1], 6, "the meeple came back after the scoring")
end)

test("a trail closed into a loop is complete without any bush: 4 species = 10", function()
  local g = game()
  -- Four curves above the start tile (CS7 is a W-S curve): N-E at (-1,-1), N-W at (-1,0),
  -- W-S at (-2,0), S-E at (-2,-1), which closes the loop.
  place(g, 1, "CS7-E", -1, -1, 180)
  g:play(1, { type = "meeple", segment = 1 })
  place(g, 2, "CS7-G", -1, 0, 90)
  g:play(2, { type = "pass" })
  place(g, 1, "CS7-L", -2, 0, 0)
  g:play(1, { type = "pass" })
  expect_score(g, 1, 0, { trails = 0 })
  place(g, 2, "CS7-Z", -2, -1, 270)
  g:play(2, { type = "pass" })
  expect_score(g, 1, 10, { trails = 10 })
  expect_score(g, 2, 0)
end)

test("with dead_end_closes_trail = false a trail ending at a dead end never completes", function()
  local g = game{ dead_end_closes_trail = false }
  place(g, 1, "CS18-EL", 1, 0)
  g:play(1, { type = "meeple", segment = 1 })
  expect_score(g, 1, 0, { trails = 0 })
  local trail
  for _, f in ipairs(g:tile_map("savanna").features) do
    if f.occupants["1"] then trail = f end
  end
  expect_eq(trail.open_edges, 0)
  expect_eq(trail.open_ends, 1, "the start tile's dead end stays open")
  expect_eq(trail.complete, false)
end)

test("two players joined on one trail tie: both score in full at the end", function()
  local g = game()
  place(g, 1, "CS4-M", -1, -1)            -- trail E-W above CSS1, monkey
  g:play(1, { type = "meeple", segment = 1 })
  place(g, 2, "CS24-EEL", -1, 1, 90)      -- trail E-W above CSS3 (its bush turned south joins CSS3's)
  g:play(2, { type = "meeple", segment = 1 })
  g:set_data("bag", {})                   -- this is the last tile: the game ends after the turn
  place(g, 1, "CS5-L", -1, 0)             -- the lion's trail joins the two
  for _, m in ipairs(g:moves(1)) do
    expect_true(m.type ~= "meeple" or m.segment ~= 1, "no meeple on a trail already occupied")
  end
  g:play(1, { type = "pass" })
  expect_eq(g:to_move(), {}, "no tile left to draw: the game is over")
  -- The trail is not complete: each tied player scores 1 per animal (monkey, lion, elephant).
  expect_score(g, 1, 3, { final_trails = 3, markers = 0 })
  expect_score(g, 2, 3, { final_trails = 3, markers = 0 })
  expect_eq(g:score().extra.winners, { 1, 2 }, "a tie shares the win")
end)

test("no meeple on a trail already occupied, even by oneself; a tie scores in full under both zone_scoring readings", function()
  for _, reading in ipairs({ "majority", "everyone" }) do
    local g = game{ zone_scoring = reading }
    place(g, 1, "CS4-M", -1, -1)
    g:play(1, { type = "meeple", segment = 1 })
    place(g, 2, "CS24-EEL", -1, 1, 90)
    g:play(2, { type = "meeple", segment = 1 })
    place(g, 1, "CS4-E", -1, -2)          -- P1 extends its own side and adds a second meeple?
    expect_true(g:try_play(1, { type = "meeple", segment = 1 }) == false, "still its own trail: occupied")
    g:play(1, { type = "pass" })
    g:set_data("bag", {})
    place(g, 2, "CS5-L", -1, 0)
    g:play(2, { type = "pass" })
    expect_score(g, 1, 4, { final_trails = 4 })
    expect_score(g, 2, 4, { final_trails = 4 })
  end
end)

test("final scoring: 1 per animal and bird in an unfinished bush one controls, 1 per marker", function()
  local g = game()
  g:set_data("markers", { { "lion", "zebra" }, { "monkey" } })
  g:set_data("bag", {})
  place(g, 1, "CS30-G", 1, -1, 90)        -- elephant + giraffe + 1 bird, open to the south
  g:play(1, { type = "meeple", segment = 1 })
  expect_eq(g:to_move(), {})
  expect_score(g, 1, 5, { final_bushes = 3, markers = 2 })
  expect_score(g, 2, 1, { markers = 1 })
end)

test("final_birds = false leaves the birds out of the final count", function()
  local g = game{ final_birds = false }
  g:set_data("bag", {})
  place(g, 1, "CS30-G", 1, -1, 90)
  g:play(1, { type = "meeple", segment = 1 })
  expect_score(g, 1, 2, { final_bushes = 2 })
end)
