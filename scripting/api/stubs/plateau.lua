---@meta plateau
-- Plateau's Lua API (API version 1) for the Lua language server (LuaLS): types
-- and docs of ctx, state, the handles, the game table's hooks and the scenario-test globals.
-- Generated from scripting/api/lua_api.json by plateau-api-gen: do not edit. A game's
-- .luarc.json lists this folder in workspace.library; annotate the game table with
-- ---@type plateau.game and the hooks' arguments are typed.

---a seat: its number (1-based), its name ("P2", "Magpie") or its kind ("player", "neutral", "opponent": the first seat of that kind)
---@alias plateau.seat integer|string

---a grid cell {row, col}; rows grow downwards and may be negative in floating frames
---@alias plateau.cell integer[]

---cards a grid-view method matches: a card id, a list of ids (plain or frozen from ctx.data) or a card set from ctx.card_set
---@alias plateau.cards string|string[]|plateau.card_set

---which cells of a grid view are a cell's neighbours (grid:neighbors takes the first three)
---@alias plateau.adjacency "orthogonal"|"diagonal"|"all"|"distance2"|"below"|"above"|"row"|"col"

---which faces a grid-view method counts, read from the view's overlay
---@alias plateau.face "any"|"up"|"down"

---plain data: what state.data, moves and a score's extra may hold (no functions, userdata, NaN or infinities)
---@alias plateau.plain nil|boolean|number|string|table

---one seat's score: the breakdown by category and, optionally, the total (the host sums the breakdown without it)
---@alias plateau.score_line {total: number?, breakdown: table<string, number>}

---Applies a legal move of that type; return false, reason (or nil, reason) to refuse it, which restores the state.
---@alias plateau.moves_hook fun(ctx: plateau.ctx, state: plateau.state, seat: integer, move: plateau.move): boolean?, string?

---Runs in drafting games after each placement of that card is revealed (keys must be card ids).
---@alias plateau.on_place_hook fun(ctx: plateau.ctx, state: plateau.state, seat: integer, cell: plateau.cell)

---The game table: the rules' hooks; the host checks its shape on load (unknown fields, wrong types and missing required hooks are load errors).
---@class plateau.game
---@field api_version integer must be 1 (api_version 2 is not supported (this host speaks 1))
---@field version? integer the rules' own version: a hot reload to rules of another version calls migrate first
---@field categories? string[] the order of the breakdown categories in score tables; other keys follow by name
---@field draft? fun(ctx: plateau.ctx): table Configures the host's drafting from ctx.params and ctx.data alone (no state: randomness raises); cached per set of parameters.
---@field setup? fun(ctx: plateau.ctx, state: plateau.state) Runs once when a game is created, after the seats (and a draft's deck, hands and grids) exist: makes components and fills state.data.
---@field to_move? fun(ctx: plateau.ctx, state: plateau.state): integer[]? The seats that must move now (several choose simultaneously); required without draft, called only after a draft and never while a question is pending.
---@field legal_moves? fun(ctx: plateau.ctx, state: plateau.state, seat: integer): (plateau.move|plateau.frozen_move)[]|plateau.move_list|nil The moves the seat may play now, in a stable order; the host applies only a move equal to one of them.
---@field moves? table<string, plateau.moves_hook> Applies a legal move of that type; return false, reason (or nil, reason) to refuse it, which restores the state.
---@field score fun(ctx: plateau.ctx, state: plateau.state): table<integer, plateau.score_line>, table? Scores the state: one line per scored seat (every player needs one), totals and breakdowns with integral values within 10^12.
---@field evaluate? fun(ctx: plateau.ctx, state: plateau.state, seat: integer, options?: table<string, number>): number How good the state is for the seat, for the greedy, heuristic and mcts bots (default: its total minus half the best other total).
---@field totals? fun(ctx: plateau.ctx, state: plateau.state): (integer|nil)[] Each seat's score total, as score would give it, for the bots' default measure when there is no evaluate hook. It may keep results between calls (grid:version(), state:data_version()); the conformance checks hold it to score's totals at every state they reach.
---@field evaluate_moves? fun(ctx: plateau.ctx, state: plateau.state, seat: integer, moves: plateau.move[], options: table<string, number>?): (number|nil)[], integer? Values every candidate of one decision at once, for the greedy and heuristic bots: a game computes what each move changes instead of the host trying each move and the evaluation scoring the whole table. With a base, a game that knows what an action changes but not what the turn's end does after it (Safari: every action is followed by the same end of turn) gives each action's difference from the base, usually passing. A move whose result depends on random numbers must be nil, and so must the base's. The conformance checks hold each value to the move's trial, exactly; a list of another length, NaN, an infinity, or a base that is not one of the moves is refused naming this hook's line.
---@field random_move? fun(ctx: plateau.ctx, state: plateau.state, seat: integer, pick: fun(n: integer): integer): plateau.move? A random player's move without listing the moves it does not draw (random bots, MCTS playouts): the hook counts the seat's legal moves n, draws k = pick(n), and builds only the move legal_moves would list k-th, so a random game plays exactly the moves it would draw from the list. The conformance checks hold it to legal_moves at every decision they reach; no draw, a second draw, a draw among another count, another move at the draw, or a pick kept and called after the hook returned are refused naming this hook's line. tile_map:pick_placement draws a placement this way.
---@field describe? fun(ctx: plateau.ctx, state: plateau.state, seat: integer, move: plateau.move): string?, (string|string[])?, string? The text a player reads for one of the seat's legal moves (plateau play lists moves with it), and optionally the move's group (a label or a list of up to 4, outermost first, by which plateau play asks a choice among many moves in steps) and its picture (lines shown under it in short menus).
---@field stats? fun(ctx: plateau.ctx, state: plateau.state): {rounds: integer?, ending: string?, stopped: boolean?, tags: string[]?, counts: table<string, number>?, players: table<string, number>[]?} What plateau simulate and sweep measure on each finished game: its length, ending, tags, game-level counts and per-player numbers.
---@field view? fun(ctx: plateau.ctx, state: plateau.state, seat: integer?): string?, boolean? Text appended to the host's own description of the table for the seat, or with a second value true the whole table (the host's own lines left out); a failure shows (view failed: message) instead of stopping the game.
---@field on_place? table<string, plateau.on_place_hook> Runs in drafting games after each placement of that card is revealed (keys must be card ids).
---@field check? fun(ctx: plateau.ctx) Runs once when the rules load, with the default parameters and no game: the rules' own checks of the game's data (every card has a rule, a rule's numbers are whole). An error it raises is the modder's bad input: the game does not load, and the command exits 2 with the message.
---@field after_draft? fun(ctx: plateau.ctx, state: plateau.state) Runs once in the move that completes the draft, after its on_place hooks: the place to ask the questions the draft cannot.
---@field migrate? fun(ctx: plateau.ctx, state: plateau.state, old_version: integer) On a hot reload to rules of another version, reshapes a copy of the state to the new data model; a failure rejects the reload.
---@field on_reload? fun(ctx: plateau.ctx, state: plateau.state) Accepted by the shape check; not called by this host yet.

---The host services and the frozen parameters and data, one read-only table shared by every call and game of the rules.
---@class plateau.ctx
---@field params table<string, any> the game's parameters (--set, new_game{params=}) with the manifest's defaults filled in; frozen
---@field data table<string, any> every data file of the manifest by name (ctx.data.cards is data/cards.json, $ keys included); frozen
---@field game_id string the manifest's id
---@field explain boolean true while `plateau score --explain` (or a test's g:score{explain = true}) scores a board: a score hook may then say, in its extra's `explain` (a list of lines of text), how each row was scored; false otherwise
---@field rng plateau.rng the host RNG, part of the saved state (writing hooks only)
---@field dice plateau.dice dice rolled with the host RNG (writing hooks only)
local ctx = {}

---Writes its arguments, separated by spaces, as one log line (--log-level info); tables and handles show as their type name, each argument is cut at 4096 bytes.
---@param ... any
function ctx.log(...) end

---The line where the n-th positional entry of the first table written among the arguments of the call at `position` begins, read from the game's source (Lua keeps no line per table field); nil when the file is not the game's or the call lists no such table there. For a library checking a list of entries, so an error names the entry's own line (the Écosystème base's score sheets). Charged to the budget by the bytes read.
---@param position string the "<file>:<line>: " of a call, as error("", level) gives it inside a pcall
---@param n integer which positional entry of the table, from 1
---@return integer|nil
function ctx.entry_line(position, n) end

---An immutable card set for grid-view methods and query entries, converted once (keep it in a module local). Errors: unknown card 'wolf'
---@param cards plateau.cards
---@return plateau.card_set
function ctx.card_set(cards) end

---Compiles a list of grid-view queries once; v:run(q) answers them all in one host call, one number per entry, in order. Errors: query entry #2 must be a table {op, args...} or {op = ..., <field> = ...}; query entry #1: groups needs a points list; query entry #1 (each): unknown field 'neighbours' (its fields: cards, near, adj, face, base, per, floor, cards_face); invalid option 'knight'
---@param entries (plateau.query_entry|any[])[] each {op, args...} in the view method's order, or {op = ..., <field> = ...} by name (see query_entry)
---@return plateau.query
function ctx.query(entries) end

---A grid view of a layout the rules hold as dense arrays (a grid as a move would leave it, a search's trial), scored by the same queries as grid:view(); its min_row and min_col are 0. Errors: grid views are for grids of at most 256 cells; cells[3]: unknown card 'wolf'; cells[2] must be a card id or false (an empty cell), not a number
---@param rows integer
---@param cols integer
---@param cells (string|false)[] dense, i = r * cols + c + 1: a card id, or false for an empty cell
---@param down? boolean[] true for a face-down card
---@return plateau.view
function ctx.view(rows, cols, cells, down) end

---A scale of the game's scales data file. Errors: unknown scale 'x' (scales: weight, length); this game has no scales data file (a data entry with "schema": "scales" in game.json)
---@param id string
---@return plateau.scale
function ctx.scale(id) end

---The move frozen: read-only, converted once, so legal_moves can list it again without converting the table (keep it in a module local). Errors: move needs a string field 'type'
---@param move plateau.move
---@return plateau.frozen_move
function ctx.move(move) end

---The host RNG (with ctx.dice and math.random, one stream saved with the state); in read-only hooks and in draft every call raises.
---@class plateau.rng
local rng = {}

---A random integer in lo..hi inclusive. Writing hooks only. Errors: bad argument #2 to 'int' (interval is empty); ctx.rng is not available in hook 'score' (it only reads the state; randomness belongs in moves and setup)
---@param lo integer
---@param hi integer
---@return integer
function rng:int(lo, hi) end

---A random element of the list and its index. Writing hooks only. Errors: cannot pick from an empty list
---@param list any[]
---@return any element
---@return integer index
function rng:pick(list) end

---Shuffles the list in place and returns it. Writing hooks only.
---@param list any[]
---@return any[] # the same list
function rng:shuffle(list) end

---Dice rolled with the host RNG; every roll is logged as a chance event and tests can force it (g:force_dice).
---@class plateau.dice
local dice = {}

---Rolls the dice: the total and the list of faces. Writing hooks only. Errors: ctx.dice is not available in hook 'score' (it only reads the state; randomness belongs in moves and setup)
---@param notation string NdS[+M|-M]: 1 to 100 dice of 2 to 1000 sides ("d6", "2d6", "3d4+1")
---@return integer total
---@return integer[] faces
function dice:roll(notation) end

---An immutable set of cards, accepted wherever a grid-view method or a query entry takes cards, a or b.
---@class plateau.card_set

---A compiled list of grid-view queries, answered by v:run(q); pure data, kept in a module local.
---@class plateau.query

---A query entry that names its arguments, { op = "each", cards = "elephant", near = OTHER_ANIMALS, adj = "orthogonal", face = "up", base = 6, per = -2, floor = 0 }: the same compiled query as the positional {op, args...}; a field the op does not take is an error.
---@class plateau.query_entry
---@field op "count"|"pairs"|"touching"|"distinct"|"groups"|"lines"|"flip_touching"|"each"|"largest"|"touching_groups" the view method the entry runs (each, largest, touching_groups: no view method does it alone)
---@field cards plateau.cards the cells the entry counts or scores (a of pairs, touching, distinct, flip_touching, each and touching_groups)
---@field near? plateau.cards the neighbours looked for around them (b)
---@field adj? plateau.adjacency which cells are neighbours (default orthogonal)
---@field face? plateau.face which faces count (default any): of the cells counted, or of the neighbours (near)
---@field cards_face? plateau.face pairs, touching, distinct, each, touching_groups: which faces of the cells of cards score (default any: a face-down card scores too)
---@field points? integer[] groups: points for groups of size 1, 2, ... (the last for bigger ones)
---@field base? integer each: the points of a cell with no neighbour in near (default 0)
---@field per? integer each: the points per neighbour in near (default 1)
---@field floor? integer each: the least a cell scores (default none)

---A move as a table: type selects the handler; any other field is plain data compared by value (a move is legal when it equals a listed move in every field).
---@class plateau.move
---@field type string required: selects the handler moves.<type>
---@field card? string a card id of the data files (an unknown id is an error)
---@field cell? plateau.cell {row, col}, two integers
---@field to? plateau.cell {row, col}, a second cell (where a card goes)
---@field [string] any

---A read-only move whose host form is made once: legal_moves lists it again without converting it (its handler still gets a table of its own).
---@class plateau.frozen_move: plateau.move

---A move list built by the host: #list counts it, list[i] reads one move as a table, and state:ask(seat, list) takes it over without converting a table per move.
---@class plateau.move_list: { [integer]: plateau.move }

---The host-owned state of the current call; read-only hooks may only read it, and no handle of it may be kept past the call.
---@class plateau.state
---@field player_count integer the number of players (pseudo-seats not included)
---@field seat_count integer the number of seats, the neutral seat or solo opponent included
---@field phase string the current phase ("play" at the start of a game without draft; "draft", then "draft_done", in drafting games)
---@field round integer the draft round, 1-based (#rounds + 1 once it is over); without a draft, what state:set_round last set (1 at the start)
---@field turn integer the solo draft turn, 1-based; always 1 otherwise
---@field move_count integer moves applied so far: each draft pick and scripted move (a simultaneous choice counts when it is made)
---@field data plateau.data the game's own data: a JSON object saved, hashed and restored with the state, read and written through handles
local state = {}

---One {seat, name, kind} per seat; the kinds are "player", "neutral" and "opponent".
---@return {seat: integer, name: string, kind: string}[]
function state:seats() end

---The kind of one seat, without building the list.
---@param seat plateau.seat
---@return string
function state:kind(seat) end

---The seat's grid (or its grid name), or a grid by key. Errors: no grid 'grid:3'
---@param seat plateau.seat or a grid key ("grid:2", "board"), which wins over a seat name
---@param name? string
---@return plateau.grid
function state:grid(seat, name) end

---A shared zone (deck, discard, bag), or a seat's zone (hand, pile). Errors: no zone 'pile:1'
---@param name string
---@param seat? plateau.seat
---@return plateau.zone
function state:zone(name, seat) end

---A counter made with add_counter (a counter made with a seat needs that seat). Errors: no counter 'coins'
---@param name string
---@param seat? plateau.seat
---@return plateau.counter
function state:counter(name, seat) end

---A track made with add_track (tracks are shared: look them up by name alone). Errors: no track 'clock'
---@param name string
---@return plateau.track
function state:track(name) end

---A tile map made with add_tile_map. Errors: no tile map 'savanna'
---@param name string
---@return plateau.tile_map
function state:tile_map(name) end

---A region map made with add_region_map. Errors: no region map 'world'
---@param name string
---@return plateau.region_map
function state:region_map(name) end

---A plain Lua copy of state.data[key] (or nil), $ keys included: one call instead of a handle per element.
---@param key string
---@return plateau.plain
function state:read(key) end

---A number that changes whenever state.data may have changed (a move, a load, a test's set_data) and never comes back for other contents; an undone trial brings its value back. With grid:version(), the key of a cache of scores.
---@return integer
function state:data_version() end

---Makes a zone. Writing hooks only. Errors: zone 'bag' already exists
---@param name string
---@param seat plateau.seat? nil for a shared zone
---@param visibility? "hidden"|"owner"|"public" default hidden: views show only the number of cards
---@param cards? string[] bottom to top
---@return plateau.zone
function state:add_zone(name, seat, visibility, cards) end

---Makes a grid. Writing hooks only. Errors: grid 'board' already exists
---@param name string
---@param seat plateau.seat?
---@param options? {rows: integer?, cols: integer?, must_touch: boolean?} rows and cols bound the bounding box (0, the default: unbounded; at most 1000); must_touch defaults to true
---@return plateau.grid
function state:add_grid(name, seat, options) end

---Makes a counter (one that exists is replaced). Writing hooks only. Errors: counter 'bad': needs min <= value <= max
---@param name string
---@param seat plateau.seat?
---@param options? {value: integer?, min: integer?, max: integer?} min defaults to 0, max to no cap, value to min
---@return plateau.counter
function state:add_counter(name, seat, options) end

---Makes a shared track (one that exists is replaced). Writing hooks only.
---@param name string
---@param options {length: integer, circular: boolean?, position: integer?} length 1 to 100000; position 1-based, default 1
---@return plateau.track
function state:add_track(name, options) end

---Makes an empty tile map of the game's tiles data file (at most 16 maps). closing_ends: the inner ends that close a feature; filled_inside: the kinds whose features stay open while they enclose an empty cell. Writing hooks only.
---@param name string
---@param options? {closing_ends: string[]?, filled_inside: string[]?}
---@return plateau.tile_map
function state:add_tile_map(name, options) end

---Makes a region map of the game's regions data file, with no pieces (at most 16). Writing hooks only. Errors: this game has no regions data file (a data entry with "schema": "regions" in game.json)
---@param name string
---@return plateau.region_map
function state:add_region_map(name) end

---Puts a question to the seat: its only legal moves become these, and to_move and legal_moves are not called while any question is pending. Writing hooks only.
---@param seat plateau.seat
---@param moves plateau.move[]|plateau.move_list an empty list withdraws the question
function state:ask(seat, moves) end

---The seats with a question open, answered or not: an answer given while other seats are still to answer is kept aside until they have, and its seat stays listed until it runs (what it answered stays hidden). A list of this one seat: its answer runs at once, alone (an evaluate_moves hook can then value the answers).
---@return integer[] # seats, ascending
function state:asked() end

---Sets state.round in a game without a draft (plateau simulate --max-rounds stops a game past the limit); an error during a draft. Writing hooks only.
---@param n integer
function state:set_round(n) end

---Sets state.phase ("draft" is the host's). Writing hooks only.
---@param name string
function state:set_phase(name) end

---A handle into state.data: a path resolved at every access, so writes go straight into the state; only plain data can be stored and arrays have no holes (userdata: indexing, #, ipairs, pairs and the table functions work).
---@class plateau.data
---@field [string|integer] plateau.plain

---A grid of cards in the state; r is the row and c the column (negative in floating frames), cells come back as {r, c}.
---@class plateau.grid
local grid = {}

---The card id, whether it is face down and its rotation (0 from Lua), or nothing for an empty cell.
---@param r integer
---@param c integer
---@return string? card
---@return boolean? down
---@return integer? rotation
function grid:get(r, c) end

---The number of cards in the grid, or of copies of card (face-down ones included).
---@param card? string
---@return integer
function grid:count(card) end

---A number that changes with every change of a cell (a card placed, taken, moved or turned) and with nothing else; two grids with the same version hold the same cells. A cache of one grid's scores keyed by it stays right across a bot's candidate moves.
---@return integer
function grid:version() end

---The bounding box of the placed cards, or nothing when the grid is empty.
---@return integer? min_row
---@return integer? max_row
---@return integer? min_col
---@return integer? max_col
function grid:bounds() end

---A dense copy of the bounding box as Lua tables (cell (r, c) at (r - min_row) * cols + (c - min_col) + 1), for loops written in Lua.
---@return {rows: integer, cols: integer, min_row: integer, min_col: integer, cells: (string|false)[], down: table<integer, boolean>}
function grid:snapshot() end

---The cells where a new card may go under the grid's rules, in row-major order ({{0, 0}} for an empty grid).
---@return plateau.cell[]
function grid:placeable() end

---true, or false and the reason (occupied, taller or wider than the frame, not touching a card).
---@param r integer
---@param c integer
---@return boolean ok
---@return string? why
function grid:can_place(r, c) end

---Puts a card in an empty cell; only occupancy is checked (check can_place first when the frame matters). Writing hooks only. Errors: cell [0, 0] is occupied; bad argument #1 to 'add' (cell coordinate 5000 outside -4096..4096)
---@param r integer
---@param c integer
---@param card string
---@param face_down? boolean
function grid:add(r, c, card, face_down) end

---Empties the cell and returns the card it held, or nothing. Writing hooks only.
---@param r integer
---@param c integer
---@return string?
function grid:del(r, c) end

---Moves the card (with its face-down flag) to an empty cell. Writing hooks only. Errors: no card at [r, c]; cell [r, c] is occupied
---@param r1 integer
---@param c1 integer
---@param r2 integer
---@param c2 integer
function grid:move(r1, c1, r2, c2) end

---Exchanges two cards. Writing hooks only. Errors: swap needs two occupied cells
---@param r1 integer
---@param c1 integer
---@param r2 integer
---@param c2 integer
function grid:swap(r1, c1, r2, c2) end

---Turns the card face down (or up). Writing hooks only. Errors: no card at [r, c]
---@param r integer
---@param c integer
---@param down? boolean default true; false turns it face up
function grid:set_face_down(r, c, down) end

---The occupied neighbours of a cell (orthogonal by default: up, right, down, left; all: orthogonal ones first). Errors: bad argument #3 to 'neighbors' (invalid option 'knight')
---@param r integer
---@param c integer
---@param kind? "orthogonal"|"diagonal"|"all"
---@return plateau.cell[]
function grid:neighbors(r, c, kind) end

---The cells holding the card, in row-major order.
---@param card string
---@return plateau.cell[]
function grid:find(card) end

---The groups of orthogonally connected cells holding the card, each a list of cells, in row-major order of their first cell.
---@param card string
---@return plateau.cell[][]
function grid:groups(card) end

---The distance between two cells, empty or not (manhattan by default; chebyshev: king moves).
---@param r1 integer
---@param c1 integer
---@param r2 integer
---@param c2 integer
---@param kind? "manhattan"|"chebyshev"
---@return integer
function grid:distance(r1, c1, r2, c2, kind) end

---The occupied cells of row (or column) k in order, each as {r, c, card}, face-down cards included.
---@param kind "row"|"col"
---@param k integer
---@return {[1]: integer, [2]: integer, [3]: string}[]
function grid:line(kind, k) end

---A grid view: a copy of the bounding box for scoring queries, with a face-down overlay of its own. With r, c and card (as grid:add takes them): the view as the grid would be with the card placed face up at that empty cell, its bounding box grown to hold it; the grid is not changed (a bot's evaluate_moves scoring each candidate placement without trying it). Errors: grid views are for grids of at most 256 cells; cell [0, 1] is occupied; unknown card 'wolf'
---@param r? integer
---@param c? integer
---@param card? string
---@return plateau.view
function grid:view(r, c, card) end

---Every way to rearrange one card, as moves {type, action = "move" or "swap", cell, to} (after {type, action = "skip"} with skip). Errors: relocations needs type = "<move type>"
---@param options {type: string, keep_connected: boolean?, skip: boolean?} the moves' type; keep_connected (default true): every card stays connected; skip: a skip move first
---@return plateau.move_list
function grid:relocations(options) end

---A copy of a grid for scoring queries: cells are dense indices i = r * cols + c + 1 from the top-left of the bounding box; flip_touching and set_down change its overlay, never the state.
---@class plateau.view
local view = {}

---The bounding box (0, 0, 0, 0 for an empty grid).
---@return integer rows
---@return integer cols
---@return integer min_row
---@return integer min_col
function view:size() end

---The number of cells holding one of cards. Errors: unknown card 'wolf'
---@param cards plateau.cards
---@param face? plateau.face
---@return integer
function view:count(cards, face) end

---For every cell of a, the number of its adj neighbours in b, summed.
---@param a plateau.cards
---@param b plateau.cards
---@param adj? plateau.adjacency
---@param face? plateau.face of the neighbours in b
---@param cards_face? plateau.face of the cells of a (default any)
---@return integer
function view:pairs(a, b, adj, face, cards_face) end

---The number of cells of a with at least one adj neighbour in b.
---@param a plateau.cards
---@param b plateau.cards
---@param adj? plateau.adjacency
---@param face? plateau.face of the neighbours in b
---@param cards_face? plateau.face of the cells of a (default any)
---@return integer
function view:touching(a, b, adj, face, cards_face) end

---For every cell of a, the number of different card ids of b among its adj neighbours, summed.
---@param a plateau.cards
---@param b plateau.cards
---@param adj? plateau.adjacency
---@param face? plateau.face of the neighbours in b
---@param cards_face? plateau.face of the cells of a (default any)
---@return integer
function view:distinct(a, b, adj, face, cards_face) end

---The orthogonally connected groups of cells holding cards: the total of their points and their sizes in row-major order. Errors: points table must list the points for sizes 1, 2, ...
---@param cards plateau.cards
---@param points integer[] points for groups of size 1, 2, ... (the last for bigger ones)
---@param face? plateau.face
---@return integer total
---@return integer[] sizes
function view:groups(cards, points, face) end

---How many rows, and how many columns, hold at least one of cards.
---@param cards plateau.cards
---@param face? plateau.face
---@return integer rows
---@return integer cols
function view:lines(cards, face) end

---The indices of the cells holding cards, ascending.
---@param cards plateau.cards
---@param face? plateau.face
---@return integer[]
function view:cells(cards, face) end

---The number of adj neighbours of cell i holding cards.
---@param i integer
---@param cards plateau.cards
---@param adj? plateau.adjacency
---@param face? plateau.face
---@return integer
function view:around(i, cards, adj, face) end

---The card at i and its overlay face-down flag, or nothing for an empty cell. Errors: bad argument #1 to 'get' (cell index 7 out of 1..6)
---@param i integer
---@return string? card
---@return boolean? down
function view:get(i) end

---Sets the overlay flag of cell i (works in read-only hooks: only the view changes).
---@param i integer
---@param down? boolean default true
function view:set_down(i, down) end

---Turns face down, in the overlay, every face-up cell of a with a face-up adj neighbour in b, all decided before any turns; returns how many.
---@param a plateau.cards
---@param b plateau.cards
---@param adj? plateau.adjacency
---@return integer
function view:flip_touching(a, b, adj) end

---The grid coordinates of index i.
---@param i integer
---@return integer r
---@return integer c
function view:cell(i) end

---The index of grid cell (r, c), or nil outside the bounding box.
---@param r integer
---@param c integer
---@return integer?
function view:index(r, c) end

---One number per entry of the compiled query, in order; a flip_touching entry changes the overlay for the entries after it.
---@param q plateau.query
---@return integer ...
function view:run(q) end

---What each entry of the compiled query counted, in order, run as v:run runs them: per entry a table {n = its answer, items = {...}}, each item {r =, c =, n =} for a cell in grid coordinates (a cell of `cards` and what it adds; a groups item is the group's first cell in reading order, with size = its size and n = its points), or {row = r, n = 1} / {col = c, n = 1} for a lines entry. For explanations (plateau score --explain), not for scoring: it builds a table per item.
---@param q plateau.query
---@return {n: integer, items: table[]}[] entries
function view:explain(q) end

---An ordered pile of cards; its last card is the top, the one drawn next.
---@class plateau.zone
local zone = {}

---The card ids, bottom to top.
---@return string[]
function zone:cards() end

---The number of cards, or of copies of card.
---@param card? string
---@return integer
function zone:count(card) end

---Puts a card on top. Writing hooks only.
---@param card string
function zone:add(card) end

---Removes the first copy from the bottom: true, or false if absent. Writing hooks only.
---@param card string
---@return boolean
function zone:del(card) end

---Shuffles with the host RNG and logs a chance event. Writing hooks only.
function zone:shuffle() end

---Moves up to n cards from the top of this zone onto the top of to_zone, one at a time. Writing hooks only.
---@param to_zone plateau.zone
---@param n? integer default 1, at most 100000
---@return string[] # in the order drawn; shorter when the zone runs out
function zone:draw(to_zone, n) end

---Moves every card of this zone onto deck, then shuffles the whole deck and logs a chance event (pass two different zones). Writing hooks only.
---@param deck plateau.zone
function zone:reshuffle_into(deck) end

---An integer between its min and optional max; what an addition loses at the max is counted as lost to the cap.
---@class plateau.counter
local counter = {}

---The value.
---@return integer
function counter:get() end

---Adds n (may be negative), clamped to min..max. Writing hooks only.
---@param n integer
---@return integer applied
---@return integer lost # lost to the cap by this call
function counter:add(n) end

---Sets the value, clamped to min..max; nothing counts as lost. Writing hooks only.
---@param v integer
function counter:set(v) end

---The bounds and the total lost to the cap.
---@return integer min
---@return integer? max # nil without a cap
---@return integer lost # the total lost to the cap since the counter was made
function counter:limits() end

---A line of spaces numbered from 1; a linear track stops at its ends, a circular one wraps and counts laps (negative going back past space 1).
---@class plateau.track
local track = {}

---The position (1-based) and the number of laps.
---@return integer position
---@return integer laps
function track:get() end

---Moves that many spaces and returns the new position and laps. Writing hooks only.
---@param steps integer negative: backwards
---@return integer position
---@return integer laps
function track:move(steps) end

---The number of spaces.
---@return integer
function track:length() end

---An unbounded square map of placed tiles whose segments the host joins into features; rotations are 0, 90, 180 or 270 degrees clockwise, segment and feature ids 1-based.
---@class plateau.tile_map
local tile_map = {}

---Places the tile (it must fit) and returns the ids of the features it completed. Writing hooks only.
---@param tile string
---@param row integer
---@param col integer
---@param rotation? integer
---@return integer[] # the features it completed
function tile_map:place(tile, row, col, rotation) end

---true, or false and why (the north edge is trail but the neighbouring tile shows savanna).
---@param tile string
---@param row integer
---@param col integer
---@param rotation? integer
---@return boolean ok
---@return string? why
function tile_map:fits(tile, row, col, rotation) end

---Every {cell, rotation} where the tile fits (distinct rotations only), or with a move type, a list of moves.
---@param tile string
---@param type? string a move type: the placements as moves
---@return {cell: plateau.cell, rotation: integer}[]|plateau.move[]
function tile_map:placements(tile, type) end

---The move placements(tile, type) lists at the draw k = pick(n + after), n being how many it lists, built alone; when the draw falls past the placements, nil and k - n; nothing (and no draw) when there is nothing to draw from. A random player's placement without a table for each of the others (a random_move hook). Errors: pick_placement: pick(13) gave 0, not a place in 1..13
---@param tile string
---@param type string the move type
---@param pick fun(n: integer): integer random_move's pick: draws k in 1..n
---@param after? integer how many moves the legal list holds after the placements (default 0)
---@return plateau.move?
---@return integer? rest # past the placements: which of the moves after them was drawn (1..after)
function tile_map:pick_placement(tile, type, pick, after) end

---Whether the tile fits anywhere.
---@param tile string
---@return boolean
function tile_map:can_place(tile) end

---The empty cells next to a placed tile, row-major.
---@return plateau.cell[]
function tile_map:frontier() end

---How many cells the frontier has (#frontier(), without the list).
---@return integer
function tile_map:frontier_size() end

---The k-th cell of frontier(), without a table for each of the others (a random_move drawing a space). Errors: bad argument #1 to 'frontier_cell' (the frontier has 12 cells: k is 1..12)
---@param k integer 1..frontier_size()
---@return integer r
---@return integer c
function tile_map:frontier_cell(k) end

---Whether a cell is on the frontier.
---@param r integer
---@param c integer
---@return boolean
function tile_map:on_frontier(r, c) end

---The tile id and rotation at a cell, or nothing.
---@param r integer
---@param c integer
---@return string? id
---@return integer? rotation
function tile_map:tile(r, c) end

---Every {r, c, id, rotation} in placement order.
---@return {[1]: integer, [2]: integer, [3]: string, [4]: integer}[]
function tile_map:tiles() end

---How many tiles are placed.
---@return integer
function tile_map:size() end

---A number that changes with every change of the map (a tile placed, pieces put on or taken off a feature, a tally added) and with nothing else; a copy keeps it, so what a script works out from the map and keeps by this number stays right across a bot's candidate moves.
---@return integer
function tile_map:version() end

---The bounding box of the placed tiles.
---@return integer? min_row
---@return integer? max_row
---@return integer? min_col
---@return integer? max_col
function tile_map:bounds() end

---The 8 cells around, N first, clockwise.
---@param r integer
---@param c integer
---@return plateau.cell[]
function tile_map:neighbors8(r, c) end

---How many of the 8 cells around hold a tile.
---@param r integer
---@param c integer
---@return integer
function tile_map:filled_around(r, c) end

---The kind a placed tile shows at a corner (a segment covering both sides there, else the field, or the tile's own corners).
---@param r integer
---@param c integer
---@param corner "NE"|"SE"|"SW"|"NW"
---@return string?
function tile_map:corner(r, c, corner) end

---Every {r, c, corner} showing that kind (or one of a list of kinds), tiles in placement order, corners NE, SE, SW, NW.
---@param kind string|string[]
---@return {[1]: integer, [2]: integer, [3]: string}[]
function tile_map:corners(kind) end

---The kind a tile would show at that corner once placed with that rotation.
---@param tile string
---@param rotation integer
---@param corner "NE"|"SE"|"SW"|"NW"
---@return string?
function tile_map:tile_corner(tile, rotation, corner) end

---The segment ids of the tile at a cell, in data order.
---@param r integer
---@param c integer
---@return integer[]
function tile_map:segments(r, c) end

---The i-th segment id of the tile at a cell.
---@param r integer
---@param c integer
---@param i integer
---@return integer
function tile_map:segment(r, c, i) end

---The sides a segment touches after rotation.
---@param seg integer
---@return string[]
function tile_map:sides(seg) end

---The id of the segment's feature (one of its segments, its root). Errors: bad argument #1 to 'feature' (no segment 99 on this map (it has 0))
---@param seg integer
---@return integer
function tile_map:feature_of(seg) end

---Everything about the segment's feature: kind, open edges and ends, the empty cells it encloses, completeness, tally, occupants, majority, tiles, segments.
---@param seg integer
---@return {id: integer, kind: string, open_edges: integer, ends: table<string, integer>, open_ends: integer, empty_inside: integer, complete: boolean, tally: table<string, integer>, occupants: table<integer, integer>, majority: integer[], tiles: plateau.cell[], segments: integer[]}
function tile_map:feature(seg) end

---The segment's feature as `feature` gives it, without where it lies (tiles, segments, ends): cheaper, for code that weighs features many times a decision.
---@param seg integer
---@return {id: integer, kind: string, open_edges: integer, open_ends: integer, empty_inside: integer, complete: boolean, tally: table<string, integer>, occupants: table<integer, integer>, majority: integer[]}
function tile_map:feature_summary(seg) end

---A number that changes whenever what feature_summary gives for the segment's feature changes, and with nothing else (for a feature enclosing empty cells, with every change of the map); a copy keeps it. What a script works out from one feature and keeps by its id and this number stays right while other features change (a bot's candidate placements).
---@param seg integer
---@return integer
function tile_map:feature_version(seg) end

---What placing the tile would make of the features it changes, without placing it: each feature after the placement that holds one of the tile's segments or encloses the cell it fills, as feature_summary gives it (its id one after the placement), with `joined`, the ids before the placement of the features it took in. With `{occupied = true}`, only the features holding a piece after the placement (a bot whose value reads only occupied features): a placement that meets none is answered without placing. The map is placed on and put back within the call, versions too, so a read-only hook may ask (a bot valuing candidate placements without trying each). nil and why when the tile does not fit there. Errors: bad argument #1 to 'placement_changes' (unknown tile 'x'); bad argument #5 to 'placement_changes' (unknown option (the one option is occupied = true|false))
---@param tile string
---@param r integer
---@param c integer
---@param rotation? integer
---@param options? {occupied: boolean?}
---@return {id: integer, kind: string, open_edges: integer, open_ends: integer, empty_inside: integer, complete: boolean, tally: table<string, integer>, occupants: table<integer, integer>, majority: integer[], joined: integer[]}[]?
---@return string?
function tile_map:placement_changes(tile, r, c, rotation, options) end

---Whether the segment's feature is complete (no open edge, every inner end a closing one).
---@param seg integer
---@return boolean
function tile_map:complete(seg) end

---Every feature id, or those of a kind.
---@param kind? string
---@return integer[]
function tile_map:features(kind) end

---The ids of the features holding at least one piece (of a kind), ascending: what end-of-game scoring reads, without describing every empty feature.
---@param kind? string
---@return integer[]
function tile_map:occupied_features(kind) end

---The pieces on the segment's feature, {[seat] = n}.
---@param seg integer
---@return table<integer, integer>
function tile_map:occupants(seg) end

---The seats with the most pieces on the feature (all tied seats).
---@param seg integer
---@return integer[]
function tile_map:majority(seg) end

---Puts pieces on the segment's feature. Writing hooks only.
---@param seg integer
---@param seat plateau.seat
---@param n? integer 1 to 1000, default 1
function tile_map:occupy(seg, seat, n) end

---Takes every piece off the feature and returns them by seat. Writing hooks only.
---@param seg integer
---@return table<integer, integer> # {[seat] = pieces}
function tile_map:vacate(seg) end

---Adds to the feature's tally. Writing hooks only.
---@param seg integer
---@param key string may not start with end:
---@param n integer
function tile_map:add_tally(seg, key, n) end

---The state's record of pieces on the regions of the game's regions data file (the regions and borders are data, the pieces are state).
---@class plateau.region_map
local region_map = {}

---The region ids in data order, or only those of a kind or group.
---@param filter? string a kind or a group
---@return string[]
function region_map:regions(filter) end

---A region's id, kind and group. Errors: bad argument #1 to 'region' (unknown region 'atlantis')
---@param id string
---@return {id: string, kind: string, group: string}
function region_map:region(id) end

---The bordering regions.
---@param id string
---@return string[]
function region_map:neighbors(id) end

---Whether two regions border.
---@param a string
---@param b string
---@return boolean
function region_map:adjacent(a, b) end

---The borders crossed on the shortest way, nil when unreachable.
---@param a string
---@param b string
---@return integer?
function region_map:distance(a, b) end

---Which regions an answer covers: its regions are correct, the regions bordering them neighbours.
---@param answer string[]
---@return table<string, "correct"|"neighbour">
function region_map:covers(answer) end

---Puts a piece of the seat on a region (at most 100 per region). Writing hooks only.
---@param id string
---@param seat plateau.seat
function region_map:mark(id, seat) end

---Takes one piece of the seat (or all pieces) off a region; returns how many. Writing hooks only.
---@param id string
---@param seat? plateau.seat
---@return integer
function region_map:unmark(id, seat) end

---The seats of the pieces on a region.
---@param id string
---@return integer[]
function region_map:marks(id) end

---{[region] = {seats}} for every region holding pieces.
---@return table<string, integer[]>
function region_map:marked() end

---Takes every piece off the map. Writing hooks only.
function region_map:clear() end

---A scale of the game's scales data file: ordered buckets, each holding its min but not its max.
---@class plateau.scale
local scale = {}

---The bucket (1-based) holding a finite value, or nil.
---@param value number
---@return integer?
function scale:bucket(value) end

---The buckets beside bucket b.
---@param b integer
---@return integer[]
function scale:neighbors(b) end

---How many buckets.
---@return integer
function scale:count() end

---A bucket's label.
---@param b integer
---@return string
function scale:label(b) end

---A bucket's min and max.
---@param b integer
---@return number min
---@return number max
function scale:range(b) end

---The scale's unit.
---@return string
function scale:unit() end

---The scale's id.
---@return string
function scale:id() end

-- The scenario-test API: a test file registers tests and drives games from outside, as the command line does (no ctx and no state there).

---Registers fn as a test; a file must register at least one.
---@param name string
---@param fn fun()
function test(name, fn) end

---Passes when the two values are equal, tables compared deeply by raw keys and values. Errors: games/<id>/tests/x.lua:12: label: expected 86, got 84
---@param actual any
---@param expected any
---@param label? string
function expect_eq(actual, expected, label) end

---Passes when value is neither nil nor false.
---@param value any
---@param label? string
function expect_true(value, label) end

---Passes when calling fn raises an error whose message contains text.
---@param fn fun()
---@param text? string a plain substring of the message
function expect_error(fn, text) end

---Passes when the seat's total (and each listed category) has the given value.
---@param g plateau.test_game
---@param seat plateau.seat
---@param total number
---@param breakdown? table<string, number> only the listed categories are checked
function expect_score(g, seat, total, breakdown) end

---Passes when the move is refused as an illegal move, its reason contains text, and the state is unchanged.
---@param g plateau.test_game
---@param seat plateau.seat
---@param move plateau.move
---@param text? string
function expect_illegal(g, seat, move, text) end

---A new game, setup run; params are checked against the manifest and a failure fails the test.
---@param options? {players: integer?, seed: integer?, params: table<string, any>?, data: table<string, any>?} players 2 and seed 1 by default; data overrides values as --set does
---@return plateau.test_game
function new_game(options) end

---A finished-draft position for scoring: one grid per player (row 1 of the list is row 0) in the draft's frame, all face up, phase draft_done.
---@param grids table { {name = "Ann", grid = {{...}, ...}}, ..., neutral = {card = n} }
---@return plateau.test_game
function board(grids) end

---A game restored from g:save() or a save file's text, checked as play --load checks a save. Errors: load_game: at /log/4: ...
---@param json string
---@return plateau.test_game
function load_game(json) end

---A game a scenario test drives; seat arguments are a number, a seat name or a seat kind, as in the rules.
---@class plateau.test_game
---@field phase string like state.phase
---@field move_count integer like state.move_count
---@field player_count integer like state.player_count
local test_game = {}

---The seats to move ({} when the game is over).
---@return integer[]
function test_game:to_move() end

---The seat's legal moves, in the move format.
---@param seat plateau.seat
---@return plateau.move[]
function test_game:moves(seat) end

---Applies the move; fails the test with play: <reason> if it is refused.
---@param seat plateau.seat
---@param move plateau.move
---@return plateau.test_game # g, chainable
function test_game:play(seat, move) end

---Applies the move if it can: true, or false, the message and the kind of failure.
---@param seat plateau.seat
---@param move plateau.move
---@return boolean ok
---@return string? message
---@return string? kind # illegal move, script error, instruction budget exceeded, memory cap exceeded, sandbox violation or bad input
function test_game:try_play(seat, move) end

---Plays up to n moves with a seeded random bot, always moving the first seat of to_move.
---@param n? integer default: to the end
---@param seed? integer default 1
---@return integer # moves played
function test_game:play_random(n, seed) end

---The score table; extra is {} when score returns no second result. With {explain = true}, extra.explain holds the game's lines of text saying how each row was scored (when its score hook gives them).
---@param options {explain: boolean}? explain = true: scored with ctx.explain set, as plateau score --explain scores a board
---@return table # {[seat] = {seat, name, total, breakdown}, extra = {...}}
function test_game:score(options) end

---What the game's stats hook returns for this state ({} without the hook).
---@return table
function test_game:stats() end

---The game's evaluate of this state for the seat, with bot options as a bot spec gives them.
---@param seat plateau.seat
---@param options? table<string, number>
---@return number
function test_game:evaluate(seat, options) end

---The game's describe text for that move on this state ("" without the hook), its group (a list of labels, empty when none) and its picture ("" when none).
---@param seat plateau.seat
---@param move plateau.move
---@return string
---@return string[]
---@return string
function test_game:describe(seat, move) end

---The seat's grid as rows of the bounding box, top row first: card ids, false for empty cells, "(id)" for face-down cards.
---@param seat plateau.seat
---@param name? string
---@return (string|false)[][]
function test_game:grid(seat, name) end

---The zone's card ids, bottom to top (shared zones without seat).
---@param name string
---@param seat? plateau.seat
---@return string[]
function test_game:zone(name, seat) end

---A plain copy of state.data.
---@return table
function test_game:data() end

---Sets state.data[key], checked like any stored value; returns g.
---@param key string
---@param value plateau.plain
---@return plateau.test_game
function test_game:set_data(key, value) end

---The tile map as the host holds it: its tiles and features.
---@param name string
---@return {tiles: table[], features: table[]}
function test_game:tile_map(name) end

---The next roll of that notation gives total ("1d6" and "d6" are the same); returns g.
---@param notation string
---@param total integer
---@return plateau.test_game
function test_game:force_dice(notation, total) end

---Takes those cards out of the zone and puts them on top, the first listed drawn first; returns g.
---@param zone string
---@param cards string[]
---@param seat? plateau.seat
---@return plateau.test_game
function test_game:force_deck(zone, cards, seat) end

---The zone now holds exactly these cards, bottom to top; returns g.
---@param zone string
---@param seat plateau.seat?
---@param cards string[]
---@return plateau.test_game
function test_game:set_zone(zone, seat, cards) end

---The text a seat sees; without seat, the public view.
---@param seat? plateau.seat
---@return string
function test_game:view(seat) end

---The state hash: equal hashes mean equal tables.
---@return string
function test_game:hash() end

---The state as JSON text (load_game reads it back).
---@return string
function test_game:save() end
