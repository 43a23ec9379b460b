-- Scenario tests of the api-examples fixture: each test checks the examples of one part of
-- scripting/README.md (ctx, state, state.data, the game table hooks, errors, the test API).
-- Run: plateau test tests/data/games/api-examples

-- Both bets of a 2-player game, then the race starts.
local function start_race(g, bet1, bet2)
  g:play(1, { type = "bet", amount = bet1 or 1 })
  g:play(2, { type = "bet", amount = bet2 or 2 })
  return g
end

local function contains(list, value)
  for _, v in ipairs(list) do if v == value then return true end end
  return false
end

---------------------------------------------------------------------------------------------
-- ctx

test("ctx.game_id, ctx.params and ctx.data read the manifest, the parameters and the data files", function()
  local ex = new_game{ players = 2, seed = 1, params = { target = 30 } }:data().examples
  expect_eq(ex.game_id, "api-examples")
  expect_eq(ex.target, 30, "ctx.params has the value given to new_game")
  expect_eq(new_game{ players = 2, seed = 1 }:data().examples.target, 15, "and the default otherwise")
  expect_eq(ex.first_card, "star", "ctx.data.cards.cards[1].id")
  expect_eq(ex.card_kinds, 3, "# works on the frozen data")
end)

test("ctx.params is frozen: writing raises a sandbox error", function()
  local ex = new_game{ players = 2, seed = 1 }:data().examples
  expect_eq(ex.frozen_write_ok, false)
  expect_true(ex.frozen_write_error:find("attempt to modify read-only table (field 'target')", 1, true),
              ex.frozen_write_error)
end)

test("ctx.rng:int, ctx.rng:pick, ctx.rng:shuffle, ctx.dice:roll and math.random", function()
  local ex = new_game{ players = 2, seed = 1 }:data().examples
  expect_true(ex.die >= 1 and ex.die <= 6, "int(1, 6) is in 1..6 inclusive")
  expect_eq(({ "red", "green", "blue" })[ex.picked_index], ex.picked, "pick returns the value and its index")
  local sorted = {}
  for i, v in ipairs(ex.shuffled) do sorted[i] = v end
  table.sort(sorted)
  expect_eq(sorted, { 1, 2, 3, 4, 5 }, "shuffle returns the same list, permuted")
  expect_eq(#ex.roll_faces, 2, "2d6+1 has two faces")
  expect_eq(ex.roll_total, ex.roll_faces[1] + ex.roll_faces[2] + 1, "total = faces + modifier")
  expect_true(ex.math_random >= 1 and ex.math_random <= 100)
end)

test("every random draw comes from the seed: same seed, same game; another seed, another deal", function()
  local a, b = new_game{ players = 3, seed = 42 }, new_game{ players = 3, seed = 42 }
  expect_eq(a:hash(), b:hash())
  expect_eq(a:data(), b:data())
  a:play_random(nil, 9)
  b:play_random(nil, 9)
  expect_eq(a:hash(), b:hash(), "same bots, same seed: same game")
  expect_true(new_game{ players = 3, seed = 43 }:hash() ~= new_game{ players = 3, seed = 42 }:hash())
end)

test("ctx.move makes a frozen move, listed like any other", function()
  local ex = new_game{ players = 2, seed = 1 }:data().examples
  expect_eq(ex.move_amount, 2, "its fields read like a table's")
  expect_true(ex.move_frozen, "writing to it raises")
  expect_true(ex.move_error:find("move needs a string field 'type'", 1, true) ~= nil, ex.move_error)
  expect_eq(ex.move_cell_again, 3, "a frozen move's cell makes another move")
  local g = start_race(new_game{ players = 2, seed = 1 })
  expect_eq(g:moves(1)[1], { type = "roll", dice = "d6" }, "listed like any move")
  g:play(1, { type = "roll", dice = "d6" })   -- a plain table naming the same move is accepted
  expect_eq(g:data().last_roll.seat, 1, "and played")
end)

test("ctx is read-only; data files keep their \"$\" keys", function()
  local ex = new_game{ players = 2, seed = 1 }:data().examples
  expect_true(ex.ctx_write_error:find("sandbox: attempt to modify read-only table (field 'cache')", 1, true),
              ex.ctx_write_error)
  expect_true(ex.data_comment:find("Cards of the api-examples test game", 1, true), ex.data_comment)
end)

test("read-only hooks cannot draw random numbers: ctx.rng, ctx.dice and math.random raise in score", function()
  local g = start_race(new_game{ players = 2, seed = 1 })
  local before = g:hash()
  local extra = g:score().extra
  expect_true(extra.rng_error:find("ctx.rng is not available in hook 'score' (it only reads the state; " ..
                                   "randomness belongs in moves and setup)", 1, true), extra.rng_error)
  expect_true(extra.dice_error:find("ctx.dice is not available in hook 'score'", 1, true), extra.dice_error)
  expect_true(extra.math_random_error:find("math.random is not available here (no game state in this hook)", 1, true),
              extra.math_random_error)
  expect_eq(g:hash(), before, "scoring changed nothing, not even the RNG")
  expect_eq(g:score(), g:score(), "scoring twice gives the same result")
end)

test("pairs() visits keys in sorted order: numbers first, then strings", function()
  expect_eq(new_game{ players = 2, seed = 1 }:data().examples.pairs_order, "1,2,apple,mango,zebra")
end)

---------------------------------------------------------------------------------------------
-- state

test("state fields and seats in setup", function()
  local ex = new_game{ players = 3, seed = 1 }:data().examples
  expect_eq(ex.player_count, 3)
  expect_eq(ex.seat_count, 3, "no pseudo-seat in a game without draft")
  expect_eq(ex.phase_at_setup, "play", "a game without draft starts in phase 'play'")
  expect_eq({ ex.round, ex.turn, ex.move_count }, { 1, 1, 0 })
  expect_eq(ex.first_seat, { seat = 1, name = "P1", kind = "player" })
  expect_eq(ex.kind_of_p1, "player", "state:kind accepts a seat name")
end)

test("state:set_phase changes state.phase; the test API reads it as g.phase", function()
  local g = new_game{ players = 2, seed = 1 }
  expect_eq(g.phase, "bet")
  start_race(g)
  expect_eq(g.phase, "race")
  expect_eq(g.move_count, 2)
  expect_eq(g.player_count, 2)
end)

---------------------------------------------------------------------------------------------
-- state.data

test("state.data: nested tables, appending, nil removes, handles write through", function()
  local d = new_game{ players = 2, seed = 1 }:data()
  expect_eq(d.board, { name = "table", size = { rows = 4, cols = 3 }, tags = { "a", "b" } })
  expect_eq(d.len_of_tags, 2)
  expect_eq(d.type_of_handle, "userdata", "tables in state.data are handles")
  expect_eq(d.list_from_empty, { "x" }, "an empty table becomes an array when [1] is set")
  expect_eq(d.copy_is_table, true, "state:read returns a plain copy")
  expect_eq(d.plain_copy, { target = 15, bonus = "star" })
  expect_eq(d.deck and #d.deck, 8, "the deck: 4 stars, 3 moons, 1 sun")
  expect_eq(d.dice, { 0, 0 })
end)

test("new_game{data = ...} overrides data values for one game, checked like --set", function()
  local d = new_game{ data = { ["cards.cards.moon.count"] = 5 } }:data()
  expect_eq(#d.deck, 10, "4 stars, 5 moons, 1 sun")
  expect_eq(#new_game{}:data().deck, 8, "other games keep the file's values")
  local ok, err = pcall(new_game, { data = { ["cards.cards.moon.count"] = "many" } })
  expect_eq(ok, false)
  expect_true(err:find("new_game: data: ", 1, true) and err:find("count", 1, true), err)
  ok, err = pcall(new_game, { data = { ["cards.cards.comet.count"] = 1 } })
  expect_eq(ok, false)
  expect_true(err:find("comet", 1, true), err)
end)

test("state.data handles follow their path after tables are replaced or arrays grow", function()
  local h = new_game{ players = 2, seed = 1 }:data().handles
  expect_eq(h.size_rows, 9, "a handle reads the table now at its path")
  expect_eq(h.r1, 11, "a handle into an array reads and writes the element after the array grew")
  expect_eq(h.r2, 7, "a value written in place reads back")
  expect_eq(h.rows, 40)
  expect_eq(h.last, 40)
  expect_eq(h.stale_ok, false)
  expect_true(h.stale:find("stale data handle", 1, true), h.stale)
end)

test("state.data refuses holes, far indices and values that are not plain data", function()
  local e = new_game{ players = 2, seed = 1 }:data().errors
  expect_eq(e.any_ok, false)
  expect_true(e.hole:find("cannot leave a hole in a state.data array (use table.remove)", 1, true), e.hole)
  expect_true(e.far:find("state.data array index 5 out of range 1..3", 1, true), e.far)
  expect_true(e.fn:find("function values cannot be stored", 1, true), e.fn)
  expect_true(e.hole:find("^games/api%-examples/rules%.lua:%d+: "), "errors name the rules line")
end)

test("a frozen table (ctx.params) stored in state.data or the score's extra is copied with its contents", function()
  local g = new_game{ players = 2, seed = 1 }
  expect_eq(g:data().frozen_copy, { bonus = "star", debug_moves = false, target = 15 })
  expect_eq(g:score().extra.params, { bonus = "star", debug_moves = false, target = 15 })
end)

test("state:read keeps keys that start with \"$\"", function()
  local d = new_game{ players = 2, seed = 1 }:data()
  expect_eq(d.read_dollar, "kept")
  expect_eq(d.meta, { ["$note"] = "kept", size = 2 })
end)

---------------------------------------------------------------------------------------------
-- components created in setup: zones, grids, counters, tracks

test("setup creates zones, grids, counters and tracks in a game without draft", function()
  local g = new_game{ players = 2, seed = 1 }
  expect_eq(g:zone("hand", 1), {}, "an owner zone per player, empty at first")
  expect_eq(#g:zone("bag"), 4, "a shared zone created with its cards")
  expect_eq(g:zone("shown"), {})
  expect_eq(g:grid(1, "scratch"), { { "moon" } }, "a grid owned by seat 1")
  local text = g:view()
  expect_true(text:find("board:", 1, true), "the shared grid is in the view: " .. text)
  expect_true(text:find("coins:1: 0/10", 1, true), text)
  expect_true(text:find("clock: space 1 of 12", 1, true), text)
  local c = g:data().components
  expect_true(c.zone_error:find("zone 'bag' already exists", 1, true), c.zone_error)
end)

test("counters: caps clamp additions and report what they cut; set clamps; limits", function()
  local c = new_game{ players = 2, seed = 1 }:data().components
  expect_eq(c.water_add, { 2, 2 }, "3 + 4 with max 5: 2 applied, 2 lost to the cap")
  expect_eq(c.water_spend, { -5, 0 }, "min 0 stops the spending; only the max cap counts as lost")
  expect_eq(c.water_limits, { 0, 5, 2 })
  expect_eq(c.water_set, 5, "set(99) is clamped to the max")
  expect_eq(c.coins_limits, { min = 0, max = 10, lost = 0 })
  expect_eq(c.free, { value = 0, min = 0, max_is_nil = true }, "no table: 0, min 0, no max")
  expect_true(c.counter_error:find("counter 'bad': needs min <= value <= max", 1, true), c.counter_error)
end)

test("tracks: linear tracks stop at their ends, circular tracks wrap and count laps", function()
  local c = new_game{ players = 2, seed = 1 }:data().components
  expect_eq(c.path, { { 10, 0 }, { 7, 0 } })
  expect_eq(c.moon, { { 1, 2 }, { 3, 1 }, { 3, 1 }, 4 }, "3 + 6 on 4 spaces: space 1 after 2 laps; back 2: lap undone")
  expect_eq(c.clock, { 1, 0 }, "a track starts on space 1")
end)

test("zones: draw from a setup zone, then reshuffle_into puts the cards back and shuffles", function()
  local c = new_game{ players = 2, seed = 1 }:data().components
  expect_eq(#c.drawn, 3)
  expect_eq(c.after_reshuffle, { 4, 0 })
end)

test("grids made in setup: placeable, line, distance, the coordinate limit, views, must_touch", function()
  local c = new_game{ players = 2, seed = 1 }:data().components
  expect_eq(c.first_cells, { { 0, 0 } })
  expect_eq(c.row0, { { 0, 0, "star" }, { 0, 1, "moon" } })
  expect_eq(c.col1, { { 0, 1, "moon" }, { 1, 1, "sun" }, { 2, 1, "star" } }, "face-down cards are listed too")
  expect_eq(c.distance, { 3, 2 }, "manhattan, chebyshev")
  expect_true(c.too_far:find("bad argument #1 to 'add' (cell coordinate 5000 outside -4096..4096)", 1, true), c.too_far)
  expect_eq(c.view_size, { 3, 2, 0, 0 })
  expect_eq(c.view_stars, { 2, 1, 3 })
  expect_eq(c.view_index, { 6 })
  expect_eq(c.view_cell, { 2, 1 })
  expect_eq(c.view_with, { { 4, 2, -1, 0 }, 2, 2, 4 }, "grid:view(r, c, card): the card in a grown view, the grid unchanged")
  expect_true(c.view_with_taken:find("cell [0, 0] is occupied", 1, true), c.view_with_taken)
  expect_true(c.view_with_unknown:find("unknown card 'comet'", 1, true), c.view_with_unknown)
  expect_eq(c.scratch_diagonal, true)
  expect_eq(c.board_taller, { false, "the grid would be taller than 3 rows" })
end)

test("moves use the components: coins are capped, the clock laps, drawn cards go to the hand", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { target = 100 } })
  for _, seat in ipairs({ 1, 2, 1 }) do
    g:force_dice("d6", 6)
    g:play(seat, { type = "roll", dice = "d6" })
  end
  local extra = g:score().extra
  expect_eq(extra.coins, { 10, 6 }, "P1 rolled 12 but holds at most 10")
  expect_eq(extra.lost_coins, { 2, 0 })
  expect_eq(extra.clock, { 7, 1 }, "18 spaces on a 12-space clock: space 7, one lap")
  g:play(2, { type = "draw" })
  g:play(1, { type = "draw" })
  expect_eq(#g:zone("hand", 1), 1)
  expect_eq(g:score().extra.hand_1, g:zone("hand", 1))
end)

---------------------------------------------------------------------------------------------
-- to_move, legal_moves, moves

test("simultaneous moves: several seats in to_move choose in secret, applied in seat order", function()
  local g = new_game{ players = 2, seed = 1 }
  expect_eq(g:to_move(), { 1, 2 })
  expect_eq(g:moves(1), { { type = "bet", amount = 1 }, { type = "bet", amount = 2 } })
  g:play(1, { type = "bet", amount = 2 })
  expect_eq(g:to_move(), { 2 }, "seat 1 has chosen")
  expect_eq(g:data().bets, {}, "its choice is hidden: not applied yet")
  g:play(2, { type = "bet", amount = 1 })
  expect_eq(g:data().bets, { 2, 1 })
  expect_eq(g:to_move(), { 1 }, "the race starts with P1")
  expect_eq(g:moves(1), { { type = "roll", dice = "d6" }, { type = "draw" } }, "no pass without a point")
end)

test("simultaneous moves: a choice whose handler fails leaves every hidden choice as it was", function()
  local g = new_game{ players = 2, seed = 1, params = { debug_moves = true } }
  g:play(1, { type = "bet", amount = 2 })
  local before = g:hash()
  local ok, message, kind = g:try_play(2, { type = "bet", amount = 3 })
  expect_eq({ ok, kind }, { false, "script error" })
  expect_true(message:find("a bet of 3 always fails", 1, true), message)
  expect_eq(g:hash(), before, "seat 1's hidden bet and seat 2's turn are back")
  expect_eq(g:to_move(), { 2 })
  g:play(2, { type = "bet", amount = 1 })
  expect_eq(g:data().bets, { 2, 1 })
end)

test("g:force_dice fixes the next roll that ctx.dice:roll makes", function()
  local g = start_race(new_game{ players = 2, seed = 1 })
  g:force_dice("d6", 6)
  g:play(1, { type = "roll", dice = "d6" })
  expect_eq(g:data().last_roll, { seat = 1, total = 6, faces = { 6 } })
  expect_eq(g:data().dice, { 6, 0 })
  expect_eq(g:to_move(), { 2 })
end)

test("refused and illegal moves leave the state unchanged", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { debug_moves = true } })
  expect_illegal(g, 1, { type = "pass" }, "you need at least one point to pass")   -- moves.pass returned false
  expect_illegal(g, 1, { type = "shy" }, "nil with a reason refuses too")          -- moves.shy returned nil, why
  expect_illegal(g, 2, { type = "roll", dice = "d6" }, "it is not P2's turn")
  expect_illegal(g, 1, { type = "roll", dice = "2d6" }, "is not among the 9 legal moves")
  local ok, message, kind = g:try_play(1, { type = "pass" })
  expect_eq({ ok, message, kind }, { false, "you need at least one point to pass", "illegal move" })
  expect_eq(g:try_play(1, { type = "roll", dice = "d6" }), true)
end)

test("state:ask: the sun asks its drawer to keep or discard it, and only that seat moves", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { target = 100 } })
  local asked
  for _ = 1, 8 do
    local seat = g:to_move()[1]
    g:play(seat, { type = "draw" })
    if g:moves(seat)[1].type == "keep" then asked = seat break end
  end
  expect_true(asked, "the sun was drawn")
  expect_eq(g:to_move(), { asked })
  expect_eq(g:moves(asked), { { type = "keep", card = "sun" }, { type = "discard", card = "sun" } })
  local before = g:data().cards[asked]
  g:play(asked, { type = "keep", card = "sun" })
  expect_eq(g:data().cards[asked], before + 5)
  expect_eq(g:moves(g:to_move()[1])[1].type, "roll", "the question is gone")
end)

test("a random game ends when to_move returns no seat", function()
  local g = new_game{ players = 4, seed = 5 }
  local played = g:play_random(nil, 3)
  expect_true(played > 4)
  expect_eq(g:to_move(), {})
  expect_eq(g.phase, "over")
end)

---------------------------------------------------------------------------------------------
-- score, evaluate, view

test("score: the total is the sum of the breakdown; the second result is in s.extra", function()
  local g = start_race(new_game{ players = 2, seed = 1 }, 2, 1)
  g:force_dice("d6", 4)
  g:play(1, { type = "roll", dice = "d6" })
  expect_score(g, 1, 2, { dice = 4, cards = 0, bet = -2 })
  expect_score(g, "P2", -1)
  local s = g:score()
  expect_eq(s[1], { seat = 1, name = "P1", total = 2, breakdown = { dice = 4, cards = 0, bet = -2 } })
  expect_eq(s.extra.phase, "race")
  expect_eq(s.extra.write_ok, false)
  expect_true(s.extra.write_error:find("state is read-only in hook 'score'", 1, true), s.extra.write_error)
end)

test("the finisher wins three times the bet", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { target = 5 } }, 2, 1)
  g:force_dice("d6", 6)
  g:play(1, { type = "roll", dice = "d6" })
  expect_eq(g:to_move(), {}, "P1 reached 5")
  expect_score(g, 1, 12, { dice = 6, bet = 6 })
  expect_eq(g:score().extra.finisher, 1)
end)

test("view: the host's description followed by the string view returns", function()
  local g = start_race(new_game{ players = 2, seed = 1 })
  local text = g:view(1)
  expect_true(text:find("phase race", 1, true), text)
  expect_true(text:find("turn of P1, 8 cards in the deck; P1 has 0 coins", 1, true), text)
  local public = g:view()
  expect_true(public:find("turn of P1, 8 cards in the deck (public view)", 1, true), "seat is nil: " .. public)
end)

test("score values may be floats with an integral value, but not fractions", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { debug_moves = true } })
  g:play(1, { type = "fraction" })
  expect_error(function() g:score() end, "breakdown 'dice' for seat 1 is 0.5, an integer within ±1000000000000 is expected")
end)

---------------------------------------------------------------------------------------------
-- errors, budget, memory: a failing hook leaves the state exactly as before

test("a script error names games/<id>/rules.lua:<line> and changes nothing", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { debug_moves = true } })
  local before = g:hash()
  local ok, message, kind = g:try_play(1, { type = "crash" })
  expect_eq(ok, false)
  expect_eq(kind, "script error")
  expect_true(message:find("^games/api%-examples/rules%.lua:%d+: the crash move always fails$"), message)
  expect_eq(g:hash(), before, "the write before the error was rolled back")
  expect_error(function() g:play(1, { type = "crash" }) end, "the crash move always fails")
end)

test("strict globals: assigning an undeclared global is an error", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { debug_moves = true } })
  local _, message = g:try_play(1, { type = "sneaky" })
  expect_true(message:find("assignment to undeclared global 'undeclared_total' (declare it 'local')", 1, true), message)
end)

test("an endless loop inside pcall still ends with the instruction budget", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { debug_moves = true } })
  local before = g:hash()
  local ok, message, kind = g:try_play(1, { type = "spin" })
  expect_eq({ ok, kind }, { false, "instruction budget exceeded" })
  expect_true(message:find("instruction budget of 20000000 exceeded in hook 'moves.spin'", 1, true), message)
  expect_eq(g:hash(), before)
end)

test("a runaway allocation ends at the memory cap", function()
  local g = start_race(new_game{ players = 2, seed = 1, params = { debug_moves = true } })
  local ok, message, kind = g:try_play(1, { type = "hog" })
  expect_eq({ ok, kind }, { false, "memory cap exceeded" })
  expect_true(message:find("memory cap of 64 MiB exceeded in hook 'moves.hog'", 1, true), message)
  expect_eq(g:try_play(1, { type = "roll", dice = "d6" }), true, "the game goes on")
end)

---------------------------------------------------------------------------------------------
-- the test API itself

test("g:save and load_game round-trip the whole state", function()
  local g = start_race(new_game{ players = 2, seed = 8 })
  g:play(1, { type = "roll", dice = "d6" })
  local copy = load_game(g:save())
  expect_eq(copy:hash(), g:hash())
  expect_eq(copy:data(), g:data())
  g:play(2, { type = "draw" })
  copy:play(2, { type = "draw" })
  expect_eq(copy:hash(), g:hash(), "the copy plays on identically")
end)

test("expect_error, expect_true and expect_eq labels", function()
  expect_error(function() new_game{ players = 5, seed = 1 } end, "not 5")
  expect_error(function() new_game{ players = 2, params = { nope = 1 } } end, "unknown parameter 'nope'")
  expect_error(function() new_game{ players = 2, params = { target = 1 } } end, "below the minimum")
  expect_error(function() expect_eq(1, 2, "one") end, "one: expected 2, got 1")
  expect_error(function() expect_true(false, "flag") end, "flag: expected a true value, got false")
  expect_true(contains(new_game{ players = 1 }:to_move(), 1), "one player bets alone")
end)
