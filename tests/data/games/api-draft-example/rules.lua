-- api-draft-example: a test fixture for scripting/README.md, not a real game. It runs the
-- examples of the reference that need the host's drafting: game.draft, on_place, after_draft,
-- grid handles, grid views and zone handles.
--
-- The game, "fox and hens": each player drafts 6 cards into a floating 2 x 3 grid over two
-- rounds (deal 4, keep 3, pass left then right; a neutral "Magpie" hand with 2 players; solo
-- against "Robot"). A hen placed next to a fox (or a fox placed next to hens) is eaten: the
-- hen turns face down. After the draft each player may swap the first two cards of their top
-- row. Scores: 2 per face-up hen, 3 per fox next to an eaten hen, the largest group of trees
-- squared, 2 per tree diagonal to a pond. The score computes this twice: with grid handle
-- calls (the lines) and with a grid view (the second result, which tests compare).

local game = { api_version = 1, version = 1 }

game.categories = { "hen", "fox", "tree", "pond" }

function game.draft(ctx)
  local deck = {}
  for _, card in ipairs(ctx.data.cards.cards) do deck[card.id] = card.count end
  return {
    rounds = { { deal = ctx.params.deal, keep = 3, pass = "left" },
               { deal = ctx.params.deal, keep = 3, pass = "right" } },
    grid = { rows = 2, cols = 3 },           -- the rounds place 3 + 3 = 2 * 3 cards
    deck = deck,                             -- { fox = 8, hen = 10, tree = 12, pond = 6 }
    neutral = true,                          -- 2 players: a third, neutral hand
    neutral_name = "Magpie",
    solo = { hand = ctx.params.solo_hand, draw = 1, draw_on_row = 2, opponent = "Robot" },
  }
end

-- setup runs after the host has built the seats, deck, hands and grids and dealt round 1.
function game.setup(ctx, state)
  local deck, discard = state:zone("deck"), state:zone("discard")
  local before = deck:count()
  local burned = deck:draw(discard, 2)     -- the two top cards, in the order drawn
  local back = burned[1]
  local removed = discard:del(back)        -- true: one copy left the discard
  deck:add(back)                           -- on top of the deck: drawn next
  local top = deck:cards()[deck:count()]   -- cards() lists bottom to top
  deck:shuffle()                           -- the host RNG; logged as a chance event
  state.data.zones = {
    before = before, burned = burned, removed = removed, top_was_back = top == back,
    after = deck:count(), discard = discard:count(),
    hand = #state:zone("hand", 1):cards(), hens_in_hand = state:zone("hand", 1):count("hen"),
    absent = discard:del("fox") and discard:count() or discard:count(),
  }
  discard:reshuffle_into(deck)             -- the discard goes back into the deck, which is shuffled
  state.data.zones.reshuffled = { deck = deck:count(), discard = discard:count() }
  state.data.eaten = 0
end

game.on_place = {}

-- on_place.<card>(ctx, state, seat, cell): after each placement is revealed.
function game.on_place.hen(ctx, state, seat, cell)
  local grid = state:grid(seat)
  for _, n in ipairs(grid:neighbors(cell[1], cell[2])) do
    if grid:get(n[1], n[2]) == "fox" then
      grid:set_face_down(cell[1], cell[2])
      state.data.eaten = state.data.eaten + 1
      return
    end
  end
end

function game.on_place.fox(ctx, state, seat, cell)
  local grid = state:grid(seat)
  for _, n in ipairs(grid:neighbors(cell[1], cell[2])) do
    local card, down = grid:get(n[1], n[2])
    if card == "hen" and not down then
      grid:set_face_down(n[1], n[2])
      state.data.eaten = state.data.eaten + 1
    end
  end
end

-- after_draft(ctx, state): once, when the last draft move is applied.
function game.after_draft(ctx, state)
  state.data.phase_after_draft = state.phase      -- "draft_done"
  for seat = 1, state.player_count do
    local grid = state:grid(seat)
    local min_row, max_row, min_col, max_col = grid:bounds()
    state:ask(seat, {
      { type = "keep" },
      { type = "swap", cell = { min_row, min_col }, to = { min_row, min_col + 1 } },
    })
  end
end

-- After the draft and the questions: nobody moves (the game is over), unless the demo
-- parameter asks seat 1 for one probe move.
function game.to_move(ctx, state)
  if ctx.params.demo and not state.data.probe then return { 1 } end
  return {}
end

function game.legal_moves(ctx, state, seat)
  return { { type = "probe" } }
end

game.moves = {}

-- The answers run once both players have answered, in seat order; state:asked() then lists
-- the seats whose answers have not run yet (this seat's question is cleared as its runs).
local function note_asked(state, seat)
  local asked = state.data.asked_as_answers_ran or {}
  asked[seat] = state:asked()
  state.data.asked_as_answers_ran = asked
end

function game.moves.keep(ctx, state, seat, move) note_asked(state, seat) end

function game.moves.swap(ctx, state, seat, move)
  note_asked(state, seat)
  state:grid(seat):swap(move.cell[1], move.cell[2], move.to[1], move.to[2])
end

-- The grid write examples of the reference, on seat 1's full grid; it ends as it began except
-- for the first two cards of the top row, which trade places through del, move and add.
function game.moves.probe(ctx, state, seat, move)
  local grid = state:grid(seat)
  local r0, r1, c0, c1 = grid:bounds()
  local ex = {}
  ex.first_two = { (grid:get(r0, c0)), (grid:get(r0, c0 + 1)) }
  ex.top_left = { r0, c0 }
  local card = grid:del(r0, c0)            -- empties the cell, returns its card
  ex.deleted = card
  ex.del_empty = grid:del(r0, c0) == nil   -- nothing there any more
  -- every move of one card into a legal empty cell, then every swap of two different cards
  local rel = grid:relocations{ type = "octopus", keep_connected = true }
  local with_skip = grid:relocations{ type = "octopus", skip = true }
  ex.relocations = { count = #rel, first = rel[1], skip = with_skip[1], count_with_skip = #with_skip,
                     out_of_range = rel[#rel + 1] == nil,
                     error = select(2, pcall(function() return grid:relocations{} end)) }
  ex.can_place_hole = grid:can_place(r0, c0)
  local ok, why = grid:can_place(r0 - 1, c0)
  ex.can_place_above, ex.why_not = ok, why
  grid:move(r0, c0 + 1, r0, c0)            -- the card on the right slides into the hole
  grid:add(r0, c0 + 1, card)               -- the deleted card fills the new hole
  ex.after = { (grid:get(r0, c0)), (grid:get(r0, c0 + 1)) }
  local add_ok, add_error = pcall(function() grid:add(r0, c0, "fox") end)
  ex.add_error = add_error
  local move_ok, move_error = pcall(function() grid:move(r0 - 1, c0, r0, c0) end)
  ex.move_error = move_error
  grid:add(r0 - 3, c0, "pond", true)       -- add ignores the frame: only occupancy is checked
  local _, far_down = grid:get(r0 - 3, c0)
  ex.far_count, ex.far_down = grid:count(), far_down
  ex.far_rows = grid:snapshot().rows
  grid:del(r0 - 3, c0)
  local r_flip, c_flip = r1, c1
  local was_down = select(2, grid:get(r_flip, c_flip))
  grid:set_face_down(r_flip, c_flip)       -- face down (default true)
  ex.flipped = select(2, grid:get(r_flip, c_flip))
  grid:set_face_down(r_flip, c_flip, was_down)
  ex.swap_error = select(2, pcall(function() grid:swap(r0 - 1, c0, r0, c0) end))
  ex.bad_neighbors = select(2, pcall(function() return grid:neighbors(r0, c0, "knight") end))
  ex.bad_seat = select(2, pcall(function() return state:grid(9) end))
  ex.bad_card = select(2, pcall(function() return grid:count("wolf") end))
  ex.far_add = select(2, pcall(function() grid:add(r0 - 5000, c0, "fox") end))
  state.data.probe = ex
end

-- Score of one grid, and the grid examples of the reference for the score's second result.
local function score_grid(grid)
  local snap = grid:snapshot()
  local b = { hen = 0, fox = 0, tree = 0, pond = 0 }
  -- Dense scan of the bounding box: index i = (r - min_row) * cols + (c - min_col) + 1.
  for r = snap.min_row, snap.min_row + snap.rows - 1 do
    for c = snap.min_col, snap.min_col + snap.cols - 1 do
      local i = (r - snap.min_row) * snap.cols + (c - snap.min_col) + 1
      if snap.cells[i] == "hen" and not snap.down[i] then b.hen = b.hen + 2 end
    end
  end
  for _, cell in ipairs(grid:find("fox")) do
    for _, n in ipairs(grid:neighbors(cell[1], cell[2])) do
      local card, down = grid:get(n[1], n[2])
      if card == "hen" and down then b.fox = b.fox + 3; break end
    end
  end
  for _, group in ipairs(grid:groups("tree")) do
    b.tree = math.max(b.tree, (#group) ^ 2)   -- ^ gives a float (4.0): fine, its value is integral
  end
  for _, cell in ipairs(grid:find("pond")) do
    for _, n in ipairs(grid:neighbors(cell[1], cell[2], "diagonal")) do
      if grid:get(n[1], n[2]) == "tree" then b.pond = b.pond + 2 end
    end
  end
  return b
end

-- The same score with a grid view: one host call per rule instead of a loop over cells.
local TREE_POINTS = { 1, 4, 9, 16, 25, 36 }
local function score_view(v)
  local _, sizes = v:groups("tree", TREE_POINTS)     -- total (unused here) and the group sizes
  local largest = 0
  for _, size in ipairs(sizes) do largest = math.max(largest, size) end
  return {
    hen = 2 * v:count("hen", "up"),                                  -- face-up hens
    fox = 3 * v:touching("fox", "hen", "orthogonal", "down"),        -- foxes beside an eaten hen
    tree = largest * largest,
    pond = 2 * v:pairs("pond", "tree", "diagonal"),                  -- trees diagonal to each pond
  }
end

local function grid_examples(grid)
  local snap = grid:snapshot()
  local min_row, max_row, min_col, max_col = grid:bounds()
  local ok, why = grid:can_place(min_row, min_col)
  return {
    count = grid:count(), hens = grid:count("hen"),
    bounds = { min_row, max_row, min_col, max_col },
    snap = { rows = snap.rows, cols = snap.cols, min_row = snap.min_row, min_col = snap.min_col,
             cells = #snap.cells },
    placeable = #grid:placeable(), can_place = ok, why_not = why,
    trees = #grid:find("tree"), tree_groups = #grid:groups("tree"),
    all_neighbors = #grid:neighbors(min_row, min_col, "all"),
    top_row = grid:line("row", min_row),               -- {r, c, card} of each occupied cell
    last_col = grid:line("col", max_col),
    corners = { grid:distance(min_row, min_col, max_row, max_col),
                grid:distance(min_row, min_col, max_row, max_col, "chebyshev") },
  }
end

-- Every view method, on a view of `grid` (README section 5, "Grid views").
-- The same query written with positions and with named fields (scripting/README.md, ctx.query):
-- both compile to the same query. Pure data, kept in module locals.
local POSITIONAL, NAMED
local function query_examples(ctx, grid)
  POSITIONAL = POSITIONAL or ctx.query{
    { "count", "tree" },
    { "pairs", "fox", "tree", "distance2" },
    { "touching", "fox", "hen" },
    { "distinct", "pond", { "fox", "hen", "tree", "pond" }, "all" },
    { "groups", "tree", { 1, 4, 9 } },
    { "lines", "tree" },
    { "flip_touching", "hen", "fox" },
    { "each", "fox", "hen", "orthogonal", "up", 3, -3, 0 },
    { "pairs", "fox", "tree", "distance2", "any", "down" },
  }
  NAMED = NAMED or ctx.query{
    { op = "count", cards = "tree" },
    { op = "pairs", cards = "fox", near = "tree", adj = "distance2" },
    { op = "touching", cards = "fox", near = "hen" },
    { op = "distinct", cards = "pond", near = { "fox", "hen", "tree", "pond" }, adj = "all" },
    { op = "groups", cards = "tree", points = { 1, 4, 9 } },
    { op = "lines", cards = "tree" },
    { op = "flip_touching", cards = "hen", near = "fox" },
    { op = "each", cards = "fox", near = "hen", adj = "orthogonal", face = "up", base = 3, per = -3, floor = 0 },
    { op = "pairs", cards = "fox", near = "tree", adj = "distance2", cards_face = "down" },
  }
  local errors = {}
  for _, bad in ipairs({
    { op = "each", cards = "fox", neighbours = "hen" },        -- a misspelt field
    { op = "count", "tree" },                                  -- names and positions mixed
    { op = "groups", cards = "tree", points = {} },            -- the same checks as positions
  }) do
    errors[#errors + 1] = select(2, pcall(ctx.query, { bad }))
  end
  return { positional = { grid:view():run(POSITIONAL) }, named = { grid:view():run(NAMED) }, errors = errors,
           explained = grid:view():explain(POSITIONAL) }   -- what each entry counted, cell by cell
end

-- v:run answers views of up to 64 cells on bit boards, v:explain cell by cell (the reference):
-- both are asked every entry, relation and face on layouts drawn by a fixed sequence (shapes from
-- one cell to past 64, so both of v:run's paths), with flips changing what later entries see.
-- Returns how many answers were compared and the first disagreements.
-- Its inputs are fixed, so it runs once per VM (score calls it at the end of every game).
local RUN_QUERIES, RUN_VS_EXPLAIN
local function run_vs_explain(ctx)
  if RUN_VS_EXPLAIN then return RUN_VS_EXPLAIN end
  if not RUN_QUERIES then
    RUN_QUERIES = {}
    local all = { "fox", "hen", "tree", "pond" }
    for _, adj in ipairs({ "orthogonal", "diagonal", "all", "distance2", "below", "above", "row", "col" }) do
      local q = {}
      for _, face in ipairs({ "any", "up", "down" }) do
        for _, cards_face in ipairs({ "any", "up", "down" }) do
          q[#q + 1] = { "pairs", "fox", { "hen", "tree" }, adj, face, cards_face }
          q[#q + 1] = { "touching", { "fox", "pond" }, "tree", adj, face, cards_face }
          q[#q + 1] = { "distinct", "pond", all, adj, face, cards_face }
          q[#q + 1] = { "each", "hen", { "fox", "tree" }, adj, face, 5, -2, 0, cards_face }
        end
        q[#q + 1] = { "count", { "tree", "hen" }, face }
        q[#q + 1] = { "groups", "tree", { 1, 3, 6, 10 }, face }
        q[#q + 1] = { "lines", "pond", face }
        q[#q + 1] = { "largest", { "tree", "pond" }, face }
        q[#q + 1] = { "touching_groups", { "fox", "hen" }, "tree", adj, face, "up" }
        q[#q + 1] = { "touching_groups", "pond", { "tree", "pond" }, adj, "any", face }
        if face == "up" then q[#q + 1] = { "flip_touching", "hen", "fox", adj } end
      end
      q[#q + 1] = { "each", "fox", all, adj, "any", -1, 3 }
      RUN_QUERIES[#RUN_QUERIES + 1] = ctx.query(q)
    end
  end
  local shapes = { { 1, 1 }, { 1, 7 }, { 6, 1 }, { 2, 3 }, { 4, 5 }, { 5, 4 }, { 7, 9 }, { 8, 8 }, { 1, 64 }, { 64, 1 },
                   { 5, 13 }, { 9, 9 } }
  local seed, compared, wrong = 12345, 0, {}
  local function draw(n)   -- a fixed LCG: the same layouts every run, no game RNG involved
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
  end
  local kinds = { false, false, "fox", "hen", "tree", "tree", "pond" }
  for _, shape in ipairs(shapes) do
    for _ = 1, 6 do
      local rows, cols = shape[1], shape[2]
      local cells, down = {}, {}
      for i = 1, rows * cols do
        cells[i] = kinds[draw(#kinds) + 1]
        down[i] = cells[i] and draw(3) == 0
      end
      for k, q in ipairs(RUN_QUERIES) do
        local got = { ctx.view(rows, cols, cells, down):run(q) }
        local explained = ctx.view(rows, cols, cells, down):explain(q)
        for e = 1, #explained do
          compared = compared + 1
          if got[e] ~= explained[e].n and #wrong < 5 then
            wrong[#wrong + 1] = ("%dx%d, query %d, entry %d: run %s, explain %s"):format(rows, cols, k, e, tostring(got[e]),
                                                                                         tostring(explained[e].n))
          end
        end
      end
    end
  end
  RUN_VS_EXPLAIN = { compared = compared, wrong = wrong }
  return RUN_VS_EXPLAIN
end

local function view_examples(ctx, grid)
  local v = grid:view()
  local ex = {}
  ex.query = query_examples(ctx, grid)
  ex.size = { v:size() }                                  -- rows, cols, min_row, min_col
  ex.count = { v:count("tree"), v:count({ "fox", "hen" }), v:count("hen", "down") }
  ex.pairs = { v:pairs("tree", "tree"), v:pairs("fox", "tree", "distance2"),
               v:pairs("tree", { "fox", "hen" }, "above"), v:pairs("pond", "tree", "row"),
               v:pairs("hen", "tree", "col"), v:pairs("pond", "hen", "diagonal"),
               v:pairs("fox", "pond", "all"), v:pairs("hen", "tree", "below") }
  ex.touching = v:touching("fox", "hen")
  ex.distinct = v:distinct("pond", { "fox", "hen", "tree", "pond" }, "all")
  ex.groups = { v:groups("tree", { 1, 4, 9 }) }           -- total, sizes
  ex.lines = { v:lines("tree") }                          -- rows, cols
  ex.cells = v:cells("tree")                              -- dense indices
  ex.around = { v:around(6, "tree", "all"), v:around(1, "tree", "below") }
  ex.cell = { v:cell(6) }
  ex.index = { v:index(1, 2), v:index(5, 5) }             -- {6}: nil outside the view
  ex.get = { v:get(2) }                                   -- the hen, face up
  -- The overlay: changes stay in the view, the state's grid is not touched.
  ex.flipped = v:flip_touching("hen", "fox")              -- hens beside a face-up fox turn face down
  ex.get_after = { v:get(2) }
  ex.eaten_beside_fox = v:touching("fox", "hen", "orthogonal", "down")
  v:set_down(3)                                           -- the tree at index 3, face down
  ex.trees_up = v:count("tree", "up")
  v:set_down(3, false)
  ex.trees_up_again = v:count("tree", "up")
  ex.grid_hen_down = select(2, grid:get(0, 1))           -- still face up in the state
  -- cards_face: which faces of the cells of `a` score (the fox face down, then back up).
  v:set_down(1)
  ex.fox_down = { v:pairs("fox", "tree", "distance2"), v:pairs("fox", "tree", "distance2", "any", "up"),
                  v:pairs("fox", "tree", "distance2", "any", "down") }
  v:set_down(1, false)
  -- ctx.view: the same layout given as dense arrays scores as the grid's own view.
  local cells, down, fresh = {}, {}, grid:view()
  for i = 1, 6 do
    local card, is_down = fresh:get(i)
    cells[i], down[i] = card or false, is_down
  end
  ex.ctx_view = { ctx.view(2, 3, cells, down):run(POSITIONAL) }
  ex.grid_view = { grid:view():run(POSITIONAL) }
  ex.ctx_view_errors = {
    select(2, pcall(ctx.view, 1, 2, { "fox", "wolf" })),
    select(2, pcall(ctx.view, 1, 1, { 5 })),
    select(2, pcall(ctx.view, 20, 20, {})),
  }
  ex.run_vs_explain = run_vs_explain(ctx)
  -- The group entries no view method answers alone: the largest tree group, and the tree
  -- groups around the pond (each counted once, by its size).
  ex.group_entries = { grid:view():run(ctx.query{ { "largest", "tree" }, { "touching_groups", "pond", "tree" },
                                                  { op = "touching_groups", cards = "pond", near = "tree", adj = "diagonal" } }) }
  ex.bad_index = select(2, pcall(function() return v:get(7) end))
  ex.bad_adj = select(2, pcall(function() return v:pairs("fox", "hen", "knight") end))
  return ex
end

function game.score(ctx, state)
  local lines, extra = {}, {}
  for seat = 1, state.seat_count do
    local kind = state:kind(seat)
    if kind == "neutral" then
      extra.magpie_pile = state:zone("pile", seat):count()   -- the neutral seat is not scored
    else
      lines[seat] = { breakdown = score_grid(state:grid(seat)) }
      extra.by_view = extra.by_view or {}
      extra.by_view[seat] = score_view(state:grid(seat):view())
    end
  end
  extra.grid = grid_examples(state:grid(1))
  if state:grid(1):count() == 6 then extra.view = view_examples(ctx, state:grid(1)) end
  return lines, extra
end

return game
