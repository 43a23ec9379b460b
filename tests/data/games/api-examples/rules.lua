-- api-examples: a test fixture for scripting/README.md, not a real game. It runs the examples
-- of the Lua API reference so `plateau test tests/data/games/api-examples` proves they work.
--
-- The game, "lucky race": every player first makes a secret bet of 1 or 2 (simultaneous
-- moves); then, in turn, each player rolls a die, draws a card from a shared deck kept in
-- state.data, or passes. Drawing the sun asks the player whether to keep it or discard it.
-- The race ends when someone reaches ctx.params.target points (or the deck is empty and
-- everyone has passed once in a row). Scores: dice points, card points, and the bet (won
-- times three by the player who finished the race, lost otherwise).
--
-- Components (a game without draft creates its own in setup): each player has a "hand" zone
-- that collects the cards they draw and a "coins" counter (capped at 10) that every roll
-- feeds; a circular 12-space "clock" track moves with every roll. They do not change the
-- score: the score's second result reports them.
--
-- Results of calls that tests cannot make themselves (tests have no `ctx` or `state`) are
-- recorded in state.data.examples by setup, and in the second result of score.

local helpers = require("lib.helpers")   -- lib/helpers.lua inside this game folder

local game = { api_version = 1, version = 1 }

-- Breakdown order of the score table; other categories would follow, sorted by name.
game.categories = { "dice", "cards", "bet" }

-- Records what the examples of the reference return (README sections "ctx" and "state").
local function record_examples(ctx, state)
  local ex = {}
  -- ctx
  ex.game_id = ctx.game_id
  ex.target = ctx.params.target
  ex.first_card = ctx.data.cards.cards[1].id
  ex.card_kinds = #ctx.data.cards.cards
  ex.die = ctx.rng:int(1, 6)
  local colours = { "red", "green", "blue" }
  ex.picked, ex.picked_index = ctx.rng:pick(colours)
  local order = ctx.rng:shuffle({ 1, 2, 3, 4, 5 })
  ex.shuffled = order
  local total, faces = ctx.dice:roll("2d6+1")
  ex.roll_total, ex.roll_faces = total, faces
  -- ctx.move: a move made once, frozen
  local bet = ctx.move{ type = "bet", amount = 2 }
  ex.move_amount = bet.amount
  ex.move_frozen = not pcall(function() bet.amount = 5 end)
  ex.move_error = select(2, pcall(ctx.move, { amount = 2 }))
  local at = ctx.move{ type = "place", cell = { 2, 3 } }
  ex.move_cell_again = ctx.move{ type = "place", cell = at.cell }.cell[2]   -- a frozen cell reads as a cell
  ex.math_random = math.random(1, 100)   -- the same host RNG as ctx.rng
  -- state fields and seats
  ex.player_count, ex.seat_count = state.player_count, state.seat_count
  ex.phase_at_setup = state.phase
  ex.round, ex.turn, ex.move_count = state.round, state.turn, state.move_count
  local seats = state:seats()
  ex.first_seat = seats[1]                 -- {seat = 1, name = "P1", kind = "player"}
  ex.kind_of_p1 = state:kind("P1")
  -- pairs() visits keys in sorted order: numbers, then strings
  local keys = {}
  for k in pairs({ zebra = 1, apple = 2, [2] = "b", [1] = "a", mango = 3 }) do keys[#keys + 1] = tostring(k) end
  ex.pairs_order = table.concat(keys, ",")
  ex.data_comment = ctx.data.cards["$comment"]   -- "$" keys of data files are visible
  -- frozen tables: reading works, writing raises
  local ok, err = pcall(function() ctx.params.target = 3 end)
  ex.frozen_write_ok, ex.frozen_write_error = ok, err
  -- ctx itself is read-only too
  ex.ctx_write_error = select(2, pcall(function() ctx.cache = {} end))
  -- a frozen table stored into state.data is copied with its contents
  state.data.frozen_copy = ctx.params
  state.data.plain_copy = { target = ctx.params.target, bonus = ctx.params.bonus }
  state.data.examples = ex
end

-- A handle is a path from state.data's root: it reads what is at that path now, even after
-- the tables along it were replaced or an array it points into grew.
local function handle_examples(state)
  state.data.grid = { size = { rows = 2 }, rows = { { 1 }, { 2 } } }
  local size = state.data.grid.size
  state.data.grid.size = { rows = 9 }     -- the handle `size` now reads the new table
  local r1, r2 = state.data.grid.rows[1], state.data.grid.rows[2]
  r2[1] = 7                               -- a value over a value, in place
  for i = 3, 40 do state.data.grid.rows[i] = { i } end   -- the array grows (and moves)
  r1[1] = r1[1] + 10
  state.data.old = { inner = { v = 1 } }
  local inner = state.data.old.inner
  state.data.old = 5                      -- the path no longer leads to a table
  local stale_ok, stale_error = pcall(function() return inner.v end)
  state.data.handles = { size_rows = size.rows, r1 = r1[1], r2 = r2[1], rows = #state.data.grid.rows,
                         last = state.data.grid.rows[40][1], stale_ok = stale_ok, stale = stale_error }
  state.data.grid, state.data.old = nil, nil
end

-- state.data: nested tables, arrays that grow by appending, nil that removes.
local function data_examples(state)
  state.data.board = { name = "table", size = { rows = 2, cols = 3 }, tags = { "a", "b" } }
  local board = state.data.board          -- a handle into state.data, not a copy
  board.size.rows = 4                     -- nested write through the handle
  board.tags[#board.tags + 1] = "c"       -- arrays grow by appending at #t + 1
  board.tags[#board.tags] = nil           -- nil at the last index removes it
  board.note = "temporary"
  board.note = nil                        -- nil removes an object key
  local hole_ok, hole_error = pcall(function() board.tags[1] = nil end)
  local fn_ok, fn_error = pcall(function() board.callback = function() end end)
  local far_ok, far_error = pcall(function() board.tags[5] = "e" end)
  state.data.errors = { hole = hole_error, fn = fn_error, far = far_error,
                        any_ok = hole_ok or fn_ok or far_ok }
  state.data.list_from_empty = {}          -- {} is stored as an empty object ...
  state.data.list_from_empty[1] = "x"      -- ... and becomes an array when [1] is set
  state.data.type_of_handle = type(state.data.board)   -- "userdata": handles are not tables
  state.data.len_of_tags = #state.data.board.tags
  local copy = state:read("board")        -- a plain Lua copy: changing it changes nothing
  copy.name = "changed"
  state.data.copy_is_table = type(copy) == "table" and state.data.board.name == "table"
  state.data.meta = { ["$note"] = "kept", size = 2 }
  state.data.read_dollar = state:read("meta")["$note"]   -- state:read keeps "$" keys
  handle_examples(state)
end

-- Components of a game without draft: created in setup (README section 4, "Components").
local function add_components(state)
  for seat = 1, state.player_count do
    state:add_zone("hand", seat, "owner")                      -- drawn cards: only their owner sees them
    state:add_counter("coins", seat, { value = 0, max = 10 })  -- every roll earns coins, capped at 10
  end
  state:add_track("clock", { length = 12, circular = true })   -- every roll moves the clock
  state:add_zone("bag", nil, "hidden", { "star", "star", "moon", "sun" })
  state:add_zone("shown", nil, "public")
  state:add_grid("board", nil, { rows = 3, cols = 3 })         -- shared: no seat
  state:add_grid("scratch", 1, { rows = 2, cols = 2, must_touch = false })
end

-- What the component examples of the reference return (sections 4 and 5).
local function component_examples(state)
  local ex = {}
  -- counters: a cap clamps, and says how much it cut
  local water = state:add_counter("water", 1, { value = 3, max = 5 })
  ex.water_add = { water:add(4) }          -- {2, 2}: 2 applied, 2 lost to the cap
  ex.water_spend = { water:add(-10) }      -- {-5, 0}: stops at min 0; only the max cap counts as lost
  ex.water_limits = { water:limits() }     -- {0, 5, 2}: min, max, lost so far
  water:set(99)                            -- clamped to 5 (set never counts as lost)
  ex.water_set = water:get()
  local min, max, lost = state:counter("coins", 1):limits()
  ex.coins_limits = { min = min, max = max, lost = lost }
  local free = state:add_counter("free", nil)               -- no table: value 0, min 0, no max
  local fmin, fmax = free:limits()
  ex.free = { value = free:get(), min = fmin, max_is_nil = fmax == nil }
  ex.counter_error = select(2, pcall(function() state:add_counter("bad", nil, { value = 9, max = 5 }) end))
  -- tracks
  local path = state:add_track("path", { length = 10 })     -- linear, from space 1
  ex.path = { { path:move(25) }, { path:move(-3) } }        -- {10, 0}, {7, 0}: stops at the ends
  local moon = state:add_track("moon", { length = 4, circular = true, position = 3 })
  ex.moon = { { moon:move(6) }, { moon:move(-2) }, { moon:get() }, moon:length() }  -- {1, 2}, {3, 1}, {3, 1}, 4
  ex.clock = { state:track("clock"):get() }                 -- {1, 0}
  -- zones
  local bag, shown = state:zone("bag"), state:zone("shown")
  ex.drawn = bag:draw(shown, 3)
  shown:reshuffle_into(bag)                -- every card of shown goes into bag, which is shuffled
  ex.after_reshuffle = { bag:count(), shown:count() }       -- {4, 0}
  ex.zone_error = select(2, pcall(function() state:add_zone("bag", nil, "public") end))
  -- grids
  local board = state:grid("board")        -- a shared grid, by its key
  ex.first_cells = board:placeable()       -- {{0, 0}}
  board:add(0, 0, "star")
  board:add(0, 1, "moon")
  board:add(1, 1, "sun")
  board:add(2, 1, "star", true)            -- face down
  ex.row0 = board:line("row", 0)           -- {{0, 0, "star"}, {0, 1, "moon"}}
  ex.col1 = board:line("col", 1)           -- moon, sun, then the face-down star
  ex.distance = { board:distance(0, 0, 2, 1), board:distance(0, 0, 2, 1, "chebyshev") }   -- {3, 2}
  ex.too_far = select(2, pcall(function() board:add(5000, 0, "sun") end))
  local v = board:view()
  ex.view_size = { v:size() }              -- {3, 2, 0, 0}: rows, cols, min_row, min_col
  ex.view_stars = { v:count("star"), v:count("star", "up"), v:count({ "star", "moon" }) }   -- {2, 1, 3}
  ex.view_index = { v:index(2, 1), v:index(9, 9) }          -- {6}: nil outside the view
  ex.view_cell = { v:cell(6) }             -- {2, 1}
  -- The view with a card placed that the grid does not hold: a new row above, the grid unchanged.
  local w = board:view(-1, 1, "sun")
  ex.view_with = { { w:size() }, w:count("sun"), w:index(-1, 1), board:count() }   -- {{4, 2, -1, 0}, 2, 2, 4}
  ex.view_with_taken = select(2, pcall(function() board:view(0, 0, "sun") end))
  ex.view_with_unknown = select(2, pcall(function() board:view(3, 1, "comet") end))
  local scratch = state:grid(1, "scratch")
  scratch:add(0, 0, "moon")
  ex.scratch_diagonal = scratch:can_place(1, 1)             -- true: must_touch = false
  ex.board_taller = { board:can_place(3, 1) }              -- the 3 x 3 frame: false and the reason
  state.data.components = ex
end

function game.setup(ctx, state)
  local deck = {}
  for _, card in ipairs(ctx.data.cards.cards) do
    for _ = 1, card.count do deck[#deck + 1] = card.id end
  end
  ctx.rng:shuffle(deck)
  state.data.deck = deck                 -- a Lua list becomes a JSON array
  state.data.dice, state.data.cards, state.data.bets = {}, {}, {}
  for seat = 1, state.player_count do
    state.data.dice[seat] = 0            -- grows by appending: 1, 2, ...
    state.data.cards[seat] = 0
  end
  state.data.turn = 1
  state.data.passes = 0
  record_examples(ctx, state)
  data_examples(state)
  add_components(state)
  component_examples(state)
  state:set_phase("bet")
  ctx.log("setup:", ctx.game_id, #deck, "cards")
end

function game.to_move(ctx, state)
  if state.phase == "bet" then
    local seats = {}
    for seat = 1, state.player_count do seats[#seats + 1] = seat end
    return seats                         -- several seats: they choose simultaneously
  elseif state.phase == "race" then
    return { state.data.turn }
  end
  return {}                              -- nobody moves: the game is over
end

local function points_of(state, seat)
  return state.data.dice[seat] + state.data.cards[seat]
end

-- The roll is listed at almost every turn: made once with ctx.move (frozen), listing it again
-- costs the host no conversion. moves.roll still receives a table of its own.
local ROLL

function game.legal_moves(ctx, state, seat)
  ROLL = ROLL or ctx.move{ type = "roll", dice = "d6" }
  if state.phase == "bet" then
    local bets = { { type = "bet", amount = 1 }, { type = "bet", amount = 2 } }
    if ctx.params.debug_moves then bets[3] = { type = "bet", amount = 3 } end   -- fails when applied
    return bets
  end
  local moves = { ROLL }
  if #state.data.deck > 0 then moves[#moves + 1] = { type = "draw" } end
  -- pass is listed once the player has a point; debug_moves lists it always, so that tests
  -- can see moves.pass refuse it (a listed move that is refused stops random bots).
  if points_of(state, seat) > 0 or ctx.params.debug_moves then moves[#moves + 1] = { type = "pass" } end
  if ctx.params.debug_moves then
    for _, t in ipairs({ "crash", "spin", "hog", "sneaky", "shy", "fraction" }) do moves[#moves + 1] = { type = t } end
  end
  return moves
end

-- Ends the turn: the race ends at the target, or when everyone passed in a row.
local function end_turn(ctx, state, seat)
  if not state.data.finisher and points_of(state, seat) >= ctx.params.target then
    state.data.finisher = seat
    state:set_phase("over")
    return
  end
  if state.data.passes >= state.player_count then
    state:set_phase("over")
    return
  end
  state.data.turn = helpers.next_seat(seat, state.player_count)
end

game.moves = {}

function game.moves.bet(ctx, state, seat, move)
  state.data.bets[seat] = move.amount    -- simultaneous bets are applied in seat order
  if move.amount == 3 then error("a bet of 3 always fails") end   -- debug_moves only
  if #state.data.bets == state.player_count then state:set_phase("race") end
end

function game.moves.roll(ctx, state, seat, move)
  local total, faces = ctx.dice:roll(move.dice)
  state.data.dice[seat] = state.data.dice[seat] + total
  state.data.last_roll = { seat = seat, total = total, faces = faces }
  state:counter("coins", seat):add(total)   -- capped at 10: the counter keeps what it lost
  state:track("clock"):move(total)          -- circular: wraps around and counts laps
  state.data.passes = 0
  end_turn(ctx, state, seat)
end

function game.moves.draw(ctx, state, seat, move)
  local deck = state.data.deck
  local card = deck[#deck]
  deck[#deck] = nil                      -- take the top card (the last element)
  state.data.passes = 0
  if card == "sun" then
    -- A question: until it is answered, seat is the only one to move and its legal
    -- moves are exactly these two.
    state:ask(seat, { { type = "keep", card = "sun" }, { type = "discard", card = "sun" } })
    return
  end
  state:zone("hand", seat):add(card)     -- the drawn card joins the player's hand zone
  local points = helpers.card_points(ctx)[card] + (card == ctx.params.bonus and 1 or 0)
  state.data.cards[seat] = state.data.cards[seat] + points
  end_turn(ctx, state, seat)
end

function game.moves.keep(ctx, state, seat, move)
  state:zone("hand", seat):add(move.card)
  state.data.cards[seat] = state.data.cards[seat] + helpers.card_points(ctx)[move.card]
  end_turn(ctx, state, seat)
end

function game.moves.discard(ctx, state, seat, move)
  end_turn(ctx, state, seat)
end

function game.moves.pass(ctx, state, seat, move)
  if points_of(state, seat) == 0 then
    return false, "you need at least one point to pass"   -- refused: an illegal move
  end
  state.data.passes = state.data.passes + 1
  end_turn(ctx, state, seat)
end

-- debug_moves only: moves that fail on purpose after changing the state.
function game.moves.crash(ctx, state, seat, move)
  state.data.dice[seat] = 99
  error("the crash move always fails")
end

function game.moves.spin(ctx, state, seat, move)
  state.data.dice[seat] = 99
  pcall(function() while true do end end)   -- the budget cannot be swallowed by pcall
end

function game.moves.hog(ctx, state, seat, move)
  local t = {}
  for i = 1, 1e9 do t[i] = ("x"):rep(64) .. i end
end

function game.moves.sneaky(ctx, state, seat, move)
  undeclared_total = 1                    -- strict globals: an error
end

function game.moves.shy(ctx, state, seat, move)
  state.data.dice[seat] = 99
  return nil, "nil with a reason refuses too"   -- like return false, "..."
end

function game.moves.fraction(ctx, state, seat, move)
  state.data.fraction = true              -- the score then has a non-integral value
end

function game.score(ctx, state)
  local dice, cards, bets = state:read("dice"), state:read("cards"), state:read("bets")
  local finisher = state.data.finisher
  local lines = {}
  for seat = 1, state.player_count do
    local bet = bets[seat] or 0
    lines[seat] = {
      breakdown = { dice = dice[seat], cards = cards[seat], bet = seat == finisher and 3 * bet or -bet },
      -- total omitted: the host sums the breakdown
    }
    if state.data.fraction then lines[seat].breakdown.dice = dice[seat] + 0.5 end   -- debug_moves only
  end
  -- Read-only hook: writing raises "state is read-only in hook 'score'".
  local ok, err = pcall(function() state.data.turn = 1 end)
  local extra = { finisher = finisher, write_ok = ok, write_error = err, phase = state.phase }
  -- Components are read like the rest of the state.
  extra.coins, extra.lost_coins = {}, {}
  for seat = 1, state.player_count do
    local coins = state:counter("coins", seat)
    extra.coins[seat] = coins:get()
    extra.lost_coins[seat] = select(3, coins:limits())
  end
  extra.clock = { state:track("clock"):get() }   -- position (1-based), laps
  extra.hand_1 = state:zone("hand", 1):cards()
  extra.params = ctx.params                      -- a frozen table: copied with its contents
  -- Read-only hook: no random numbers either.
  extra.rng_error = select(2, pcall(function() return ctx.rng:int(1, 6) end))
  extra.dice_error = select(2, pcall(function() return ctx.dice:roll("d6") end))
  extra.math_random_error = select(2, pcall(function() return math.random(6) end))
  return lines, extra
end

function game.evaluate(ctx, state, seat)
  local best_other = 0
  for other = 1, state.player_count do
    if other ~= seat then best_other = math.max(best_other, points_of(state, other)) end
  end
  return points_of(state, seat) - best_other
end

function game.view(ctx, state, seat)
  local text = string.format("turn of P%d, %d cards in the deck", state.data.turn, #state.data.deck)
  if seat == nil then return text .. " (public view)" end   -- seat is nil for the public view
  return text .. string.format("; P%d has %d coins", seat, state:counter("coins", seat):get())
end

return game
