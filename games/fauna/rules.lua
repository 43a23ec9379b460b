-- Fauna: each round an animal card sits in the box with only its top half visible (class,
-- names, how many regions it lives in, which measures are asked). From the player with the
-- lion, clockwise, everyone must place one piece on an empty region of the world map or an
-- empty space of an asked scale; then each in turn places another or passes for the rest of
-- the round. When all have passed the card comes out: pieces on the right regions and on
-- neighbouring ones score by how many regions the animal lives in, pieces on the right scale
-- space or the one beside it score 7 or 3; those pieces come back, the others go to the
-- common supply. Next round each player gets one piece back and is topped up to 3; the lion
-- moves on. The game ends after the round in which someone passes the target.
--
-- The host keeps the map (state:region_map("world"): regions, borders, pieces) and the scales
-- (ctx.scale); the card is a hidden zone, so `play` and the bots see only what the box shows.
-- state.data holds:
--   turn, lion        the seat to move, the seat with the lion
--   hand, lost        per seat: pieces to place, pieces in the common supply
--   placed, passed    per seat: placed this round (the first time round is compulsory), passed
--   scale_marks       pieces on scales: {scale, bucket, seat}
--   points            per seat: {regions, scales}
--   last              what the last reveal gave, piece by piece, for the view
--   revealed          the same for the studio's look: the card, its regions and scale spaces,
--                     each piece {seat, region or scale and bucket, points, where, why}
--   tally             per round and per player counts for the designer's report

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }
game.categories = { "regions", "scales" }

local MAP = "world"
local ALL_SCALES = { "weight", "body_length", "total_length", "height", "tail_length" }

-- ---- data derived once per VM ----------------------------------------------------------------

local derived_for, D
local function data(ctx)
  if derived_for == ctx.data then return D end
  D = { animal = {}, region = {}, scale = {}, land = 0, sea = 0, F = ctx.data.fauna, parts = {} }
  for _, sc in ipairs(ctx.data.scales.scales) do D.scale[sc.id] = sc end
  for _, r in ipairs(ctx.data.regions.regions) do
    D.region[r.id] = r
    if r.kind == "sea" then D.sea = D.sea + 1 else D.land = D.land + 1 end
  end
  local file = ctx.data.animals["$file"] or "games/fauna/data/animals.json"
  for i, a in ipairs(ctx.data.animals.animals) do
    -- The loader checked regions and scales; a measure the card does not ask (or an asked
    -- measure without a value) would score nonsense, so it is refused here, with its place.
    local asks = {}
    for _, s in ipairs(a.asks) do asks[s] = true end
    for s in pairs(a.measures) do
      if not asks[s] then error(string.format("%s: at /animals/%d/measures/%s: %s's card does not ask for %s", file, i - 1, s, a.id, s), 0) end
    end
    for s in pairs(asks) do
      if a.measures[s] == nil then error(string.format("%s: at /animals/%d/asks: %s asks for %s but has no measure", file, i - 1, a.id, s), 0) end
    end
    local in_region = {}
    for _, r in ipairs(a.regions) do in_region[r] = true end
    D.animal[a.id] = { a = a, in_region = in_region, n = #a.regions }
  end
  derived_for = ctx.data
  return D
end

-- A measure or a scale as a person reads it: "body length", from the scales' names in data
-- ("Length (body without tail)" is the scale; the measure is named plainly here).
local MEASURE_NAMES = { weight = "weight", body_length = "body length", total_length = "total length",
                        height = "height", tail_length = "tail length" }
local function measure_name(ctx, id)
  return MEASURE_NAMES[id] or (id:gsub("_", " "))
end

-- A region's and a scale's names as a person reads them ("Central Asia", "Weight").
local function region_name(ctx, id)
  local r = data(ctx).region[id]
  return r and r.name.en or id
end

local function scale_name(ctx, id)
  local sc = data(ctx).scale[id]
  return sc and sc.name.en or id
end

-- Lines cut at `sep` (a space by default) to fit `width` bytes, the rest indented by `indent`.
local function wrap(text, width, indent, sep)
  sep = sep or " "
  local out = {}
  while #text > width do
    local cut
    for i = width - #sep + 1, #indent + 10, -1 do
      if text:sub(i, i + #sep - 1) == sep then
        cut = i
        break
      end
    end
    if not cut then break end
    out[#out + 1] = text:sub(1, cut - 1) .. sep:gsub("%s+$", "")
    text = indent .. text:sub(cut + #sep)
  end
  out[#out + 1] = text
  return table.concat(out, "\n")
end

-- The scale an asked measure is answered on.
local function answer_scale(ctx, measure)
  if measure == "height" and ctx.params.height_scale == "body_length" then return "body_length" end
  return measure
end

local function region_row(F, n)
  for _, row in ipairs(F.region_points) do
    if n <= row.up_to then return row end
  end
  return F.region_points[#F.region_points]
end

local function current(ctx, state)
  local card = state:zone("card"):cards()[1]
  return card and data(ctx).animal[card] or nil
end

-- The scales a card asks (answer scales, each once, in the board's order), with each one's
-- number of spaces: kept with the card's derived data for the parameters in force (which scale
-- answers a measure is a parameter), since legal_moves asks on every decision.
local function asked_scales(ctx, card)
  if card.asked_params == ctx.params then return card.asked end
  local want = {}
  for _, m in ipairs(card.a.asks) do want[answer_scale(ctx, m)] = true end
  local out = {}
  for _, s in ipairs(ALL_SCALES) do
    if want[s] then out[#out + 1] = { id = s, count = ctx.scale(s):count() } end
  end
  card.asked, card.asked_params = out, ctx.params
  return out
end

-- ---- setup and rounds --------------------------------------------------------------------------

local function target(ctx, players)
  if players <= 3 then return ctx.params.target_2_3 elseif players <= 5 then return ctx.params.target_4_5 end
  return ctx.params.target_6
end

local function new_card(state)
  local box = state:zone("box")
  if box:count() == 0 then return false end
  box:draw(state:zone("card"), 1)
  return true
end

function game.setup(ctx, state)
  local d = data(ctx)
  local F = d.F
  local deck = {}
  for _, a in ipairs(ctx.data.animals.animals) do
    if ctx.params.deck == "mixed" or a.deck == ctx.params.deck then deck[#deck + 1] = a.id end
  end
  state:add_zone("box", nil, "hidden", deck)
  state:zone("box"):shuffle()
  state:add_zone("card", nil, "hidden")
  state:add_zone("seen", nil, "public")
  state:add_region_map(MAP)
  local n = state.player_count
  local hand, lost, placed, passed, points, players = {}, {}, {}, {}, {}, {}
  for seat = 1, n do
    hand[seat], lost[seat], placed[seat], passed[seat] = F.pieces - F.pieces_on_track, 0, false, false
    points[seat] = { regions = 0, scales = 0 }
    players[seat] = { ["points:regions"] = 0, ["points:scales"] = 0, pieces_lost = 0, pieces_placed = 0,
                      ["correct:region"] = 0, ["correct:scale"] = 0 }
  end
  state.data.hand, state.data.lost, state.data.placed, state.data.passed = hand, lost, placed, passed
  state.data.points, state.data.scale_marks, state.data.last = points, {}, {}
  state.data.lion, state.data.turn = 1, 1
  state.data.tally = { region_points = 0, scale_points = 0, pieces_lost = 0, shared = false, players = players }
  state.data.ending = ""
  state:set_round(1)
  state:set_phase("place")
  new_card(state)
end

function game.to_move(ctx, state)
  if state.phase ~= "place" then return {} end
  return { state.data.turn }
end

local function scale_taken(marks, scale, bucket)
  for _, m in ipairs(marks) do
    if m.scale == scale and m.bucket == bucket then return true end
  end
  return false
end

-- The map's regions in its order and which are marked (regions[i] is free when
-- marked[regions[i]] is nil).
local function regions_and_marks(ctx, state)
  local map = state:region_map(MAP)
  -- The map's regions never change within a data set: listed once (in the map's order).
  local d = data(ctx)
  local regions = d.region_list
  if regions == nil then
    regions = map:regions()
    d.region_list = regions
  end
  return regions, map:marked()
end

-- The first time round everybody must place; after that (or with no piece left) one may pass.
local function may_pass(state, seat)
  return state.data.placed[seat] or state.data.hand[seat] == 0
end

function game.legal_moves(ctx, state, seat)
  if state.phase ~= "place" or seat ~= state.data.turn then return {} end
  local moves = {}
  if state.data.hand[seat] > 0 then
    local regions, marked = regions_and_marks(ctx, state)
    for _, r in ipairs(regions) do
      if marked[r] == nil then moves[#moves + 1] = { type = "region", region = r } end
    end
    local marks = state:read("scale_marks")
    for _, sc in ipairs(asked_scales(ctx, current(ctx, state))) do
      local s = sc.id
      for b = 1, sc.count do
        if not scale_taken(marks, s, b) then moves[#moves + 1] = { type = "scale", scale = s, bucket = b } end
      end
    end
  end
  if may_pass(state, seat) then moves[#moves + 1] = { type = "pass" } end
  return moves
end

-- A random player's move, the one legal_moves lists at the same draw, counted instead of
-- listed (a region and a scale bucket each are most of a decision's moves).
function game.random_move(ctx, state, seat, pick)
  if state.phase ~= "place" or seat ~= state.data.turn then return nil end
  local free, asked, marks, nr, ns = {}, {}, nil, 0, 0
  if state.data.hand[seat] > 0 then
    local regions, marked = regions_and_marks(ctx, state)
    for _, r in ipairs(regions) do
      if marked[r] == nil then
        nr = nr + 1
        free[nr] = r
      end
    end
    asked = asked_scales(ctx, current(ctx, state))
    marks = state:read("scale_marks")
    -- A scale's free spaces: its count less its marks (a scale move takes only a free space,
    -- so no space holds two marks).
    for _, sc in ipairs(asked) do
      ns = ns + sc.count
      for _, m in ipairs(marks) do
        if m.scale == sc.id and m.bucket >= 1 and m.bucket <= sc.count then ns = ns - 1 end
      end
    end
  end
  local n = nr + ns + (may_pass(state, seat) and 1 or 0)
  if n == 0 then return nil end
  local k = pick(n)
  if k <= nr then return { type = "region", region = free[k] } end
  k = k - nr
  if k <= ns then
    for _, sc in ipairs(asked) do
      for b = 1, sc.count do
        if not scale_taken(marks, sc.id, b) then
          k = k - 1
          if k == 0 then return { type = "scale", scale = sc.id, bucket = b } end
        end
      end
    end
  end
  return { type = "pass" }
end

-- ---- the reveal ------------------------------------------------------------------------------

-- What one piece earns: points, and whether it was right or beside the right answer.
local function region_result(ctx, state, card, region)
  local F = data(ctx).F
  local row = region_row(F, card.n)
  local map = state:region_map(MAP)
  local correct = card.in_region[region] == true
  local beside = false
  for _, nb in ipairs(map:neighbors(region)) do
    if card.in_region[nb] then beside = true end
  end
  local pts, why = 0, {}
  if correct then
    pts = pts + row.correct
    why[#why + 1] = string.format("correct: %d", row.correct)
  end
  if beside and (not correct or ctx.params.correct_scores_neighbour) then
    pts = pts + row.neighbour
    why[#why + 1] = string.format("next to a correct region: %d", row.neighbour)
  end
  if #why == 0 then why[1] = "wrong" end
  return pts, correct or beside, correct, table.concat(why, ", ")
end

-- A scale piece is judged against every measure the card asks on that scale (with height_scale
-- = "body_length" a card asking body length and height has two answers there): on one of them
-- it scores the correct points, next to one the neighbour points, both when it is right for one
-- measure and beside another's answer (unless correct_scores_neighbour is false), as a region
-- piece does.
local function scale_result(ctx, card, scale, bucket)
  local F = data(ctx).F
  local sc = ctx.scale(scale)
  local right, beside, answers = nil, nil, {}
  for _, m in ipairs(card.a.asks) do
    if answer_scale(ctx, m) == scale then
      local truth = sc:bucket(card.a.measures[m])
      answers[#answers + 1] = { measure = m, truth = truth }
      if truth == bucket then right = right or m end
      if math.abs(truth - bucket) == 1 then beside = beside or answers[#answers] end
    end
  end
  -- The measure named when a scale holds more than one answer.
  local function which(m) return #answers > 1 and " for the " .. measure_name(ctx, m) or "" end
  local pts, why = 0, {}
  if right then
    pts = pts + F.scale_correct
    why[#why + 1] = string.format("correct%s: %d", which(right), F.scale_correct)
  end
  if beside and (not right or ctx.params.correct_scores_neighbour) then
    pts = pts + F.scale_neighbour
    why[#why + 1] = string.format("next to the %sanswer (%s): %d", #answers > 1 and measure_name(ctx, beside.measure) .. "'s " or "",
                                  sc:label(beside.truth), F.scale_neighbour)
  end
  if #why > 0 then return pts, true, right ~= nil, table.concat(why, ", ") end
  local told = {}
  for _, x in ipairs(answers) do told[#told + 1] = (#answers > 1 and measure_name(ctx, x.measure) .. " " or "") .. sc:label(x.truth) end
  return 0, false, false, #told > 0 and string.format("wrong (the answer is %s)", table.concat(told, ", ")) or "wrong"
end

-- The reveal of the pieces on the table against the card: per seat the points from regions and
-- scales and the pieces back or lost, and one record per piece (who, where, points, why), and
-- where each piece stood (a region, or a scale and bucket) for the studio's look.
-- The end of a round applies it; `score` shows it in phase "reveal" (a round given to
-- `plateau score`).
local function reveal(ctx, state, card)
  local gain, pieces, places = {}, {}, {}
  for seat = 1, state.player_count do gain[seat] = { regions = 0, scales = 0, back = 0, lost = 0, correct_regions = 0, correct_scales = 0 } end
  local marked = state:region_map(MAP):marked()
  local regions = {}
  for r in pairs(marked) do regions[#regions + 1] = r end
  table.sort(regions)
  local function count(g, pts, back, correct, kind)
    g[kind] = g[kind] + pts
    if back then g.back = g.back + 1 else g.lost = g.lost + 1 end
    if correct then g["correct_" .. kind] = g["correct_" .. kind] + 1 end
  end
  for _, r in ipairs(regions) do
    for _, seat in ipairs(marked[r]) do
      local pts, back, correct, why = region_result(ctx, state, card, r)
      count(gain[seat], pts, back, correct, "regions")
      pieces[#pieces + 1] = { player = seat, on = region_name(ctx, r), points = pts, back = back, why = why }
      places[#pieces] = { region = r }
    end
  end
  for _, m in ipairs(state:read("scale_marks")) do
    local pts, back, correct, why = scale_result(ctx, card, m.scale, m.bucket)
    count(gain[m.seat], pts, back, correct, "scales")
    pieces[#pieces + 1] = { player = m.seat, on = scale_name(ctx, m.scale) .. ": " .. ctx.scale(m.scale):label(m.bucket),
                            points = pts, back = back, why = why }
    places[#pieces] = { scale = m.scale, bucket = m.bucket }
  end
  return gain, pieces, places
end

local function finish_round(ctx, state)
  local d = data(ctx)
  local F = d.F
  local card = current(ctx, state)
  local map = state:region_map(MAP)
  local n = state.player_count
  local names = {}
  for i, r in ipairs(card.a.regions) do names[i] = region_name(ctx, r) end
  local last = { wrap(string.format("The card: %s (%s), %d region(s): %s", card.a.name.en, card.a.scientific, card.n,
                                    table.concat(names, ", ")), 118, "    ", ", ") }
  for _, m in ipairs(card.a.asks) do
    local s = answer_scale(ctx, m)
    last[#last + 1] = string.format("  %s: %s %s (%s%s)", measure_name(ctx, m), tostring(card.a.measures[m]), ctx.scale(s):unit(),
                                    ctx.scale(s):label(ctx.scale(s):bucket(card.a.measures[m])),
                                    s ~= m and " on the " .. scale_name(ctx, s) .. " scale" or "")
  end
  local t = state.data.tally
  local gain, pieces, places = reveal(ctx, state, card)
  -- What the reveal found, where it stands, for the studio's look (data/look.json) to leave on
  -- the map and the scales until the next reveal: the regions and scale spaces of the answer,
  -- and each piece with its points.
  local revealed = { card = card.a.id, answers = {}, scale_answers = {}, pieces = {} }
  for _, r in ipairs(card.a.regions) do revealed.answers[#revealed.answers + 1] = { region = r } end
  for _, m in ipairs(card.a.asks) do
    local s = answer_scale(ctx, m)
    revealed.scale_answers[#revealed.scale_answers + 1] = { scale = s, bucket = ctx.scale(s):bucket(card.a.measures[m]) }
  end
  for i, p in ipairs(pieces) do
    revealed.pieces[i] = { seat = p.player, region = places[i].region, scale = places[i].scale, bucket = places[i].bucket,
                           points = p.points, where = p.on, why = p.why }
  end
  for _, p in ipairs(pieces) do
    last[#last + 1] = wrap(string.format("P%d on %s: %s%s", p.player, p.on, p.why, p.back and "" or " (piece lost)"), 118,
                           "    ")
  end
  for seat = 1, n do
    local tp = t.players[seat]
    tp["correct:region"] = tp["correct:region"] + gain[seat].correct_regions
    tp["correct:scale"] = tp["correct:scale"] + gain[seat].correct_scales
  end
  map:clear()
  state.data.scale_marks = {}
  local best = -1
  for seat = 1, n do
    local p, g = state.data.points[seat], gain[seat]
    p.regions = p.regions + g.regions
    p.scales = p.scales + g.scales
    state.data.hand[seat] = state.data.hand[seat] + g.back
    state.data.lost[seat] = state.data.lost[seat] + g.lost
    t.region_points, t.scale_points, t.pieces_lost = t.region_points + g.regions, t.scale_points + g.scales, t.pieces_lost + g.lost
    local tp = t.players[seat]
    tp["points:regions"], tp["points:scales"], tp.pieces_lost = tp["points:regions"] + g.regions, tp["points:scales"] + g.scales, tp.pieces_lost + g.lost
    last[#last + 1] = string.format("P%d: +%d (regions %d, scales %d), %d piece(s) back, %d lost", seat, g.regions + g.scales,
                                    g.regions, g.scales, g.back, g.lost)
    local total = p.regions + p.scales
    if total > best then best = total end
  end
  state.data.last = last
  state.data.revealed = revealed
  state:zone("card"):draw(state:zone("seen"), 1)
  if best > target(ctx, n) then
    state.data.ending = "target reached"
    state:set_phase("over")
    return
  end
  -- The next round: the lion moves on, one piece back from the common supply, topped up to 3.
  local lion = state.data.lion
  if ctx.params.lion == "last_on_track" then
    local low, pick = math.huge, lion % n + 1
    for k = 1, n do
      local seat = (lion + k - 1) % n + 1
      local p = state.data.points[seat]
      if p.regions + p.scales < low then low, pick = p.regions + p.scales, seat end
    end
    lion = pick
  else
    lion = lion % n + 1
  end
  for seat = 1, n do
    local back = math.min(F.pieces_back_per_round, state.data.lost[seat])
    local top = math.max(0, math.min(F.top_up_to - (state.data.hand[seat] + back), state.data.lost[seat] - back))
    state.data.hand[seat] = state.data.hand[seat] + back + top
    state.data.lost[seat] = state.data.lost[seat] - back - top
    state.data.placed[seat], state.data.passed[seat] = false, false
  end
  state.data.lion, state.data.turn = lion, lion
  if not new_card(state) then
    state.data.ending = "box empty"
    state:set_phase("over")
    return
  end
  state:set_round(state.round + 1)
end

-- The next seat clockwise that has not passed; the reveal when everybody has.
local function advance(ctx, state)
  local n = state.player_count
  local seat = state.data.turn
  for _ = 1, n do
    seat = seat % n + 1
    if not state.data.passed[seat] then
      state.data.turn = seat
      return
    end
  end
  finish_round(ctx, state)
end

game.moves = {}

-- A piece leaves the hand for a region or a scale space; then the next player.
local function placed(ctx, state, seat)
  state.data.hand[seat] = state.data.hand[seat] - 1
  state.data.placed[seat] = true
  local tp = state.data.tally.players[seat]
  tp.pieces_placed = tp.pieces_placed + 1
  advance(ctx, state)
end

function game.moves.region(ctx, state, seat, move)
  state:region_map(MAP):mark(move.region, seat)
  placed(ctx, state, seat)
end

function game.moves.scale(ctx, state, seat, move)
  local marks = state.data.scale_marks
  marks[#marks + 1] = { scale = move.scale, bucket = move.bucket, seat = seat }
  placed(ctx, state, seat)
end

function game.moves.pass(ctx, state, seat, move)
  state.data.passed[seat] = true
  advance(ctx, state)
end

-- ---- score, evaluate, stats ----------------------------------------------------------------

-- In phase "reveal" (a round given to `plateau score`), the pieces on the table are scored
-- against the card as the reveal would, piece by piece in `extra.pieces`.
function game.score(ctx, state)
  local points = state:read("points")
  local lines = {}
  local extra = {}
  local round = {}
  if state.phase == "reveal" then
    round, extra.pieces = reveal(ctx, state, current(ctx, state))
  end
  local best, winners = -1, {}
  for seat = 1, state.player_count do
    local b = { regions = points[seat].regions + (round[seat] and round[seat].regions or 0),
                scales = points[seat].scales + (round[seat] and round[seat].scales or 0) }
    lines[seat] = { breakdown = b }
    local total = b.regions + b.scales
    if total > best then best, winners = total, { seat } elseif total == best then winners[#winners + 1] = seat end
  end
  if state.phase == "over" then
    extra.winners = winners
    extra.ending = state.data.ending
  end
  return lines, extra
end

-- A bot's estimate of what its pieces on the table will bring, with knowledge k of the card:
-- the truth blended with a guess from the visible half (the number of regions, land or sea by
-- the class, a flat guess on the scales). A piece that may be lost costs about what it would
-- earn in a later round.
local LOSS = 2.5
local function q(x) return math.floor(x * 16777216 + 0.5) / 16777216 end

-- The three parts of a piece's estimate, which depend only on the card, where the piece lies,
-- the knowledge and the parameters, kept per card (the bots weigh the same pieces on every
-- candidate move; the memo lives in the derived data, so a data edit starts it afresh). Each
-- part is rounded to a multiple of 2^-24, so sums of them are exact in any order: the value
-- evaluate_moves adds for one more piece is, to the last bit, what evaluate finds after it.
local function parts_for(ctx, card, k)
  local memo = data(ctx).parts
  local m = memo[card]
  if m == nil or m.params ~= ctx.params or m.k ~= k then
    m = { params = ctx.params, k = k, region = {}, scale = {} }
    memo[card] = m
  end
  return m
end

local function region_parts(ctx, state, card, k, m, r)
  local got = m.region[r]
  if got then return got end
  local d = data(ctx)
  local row = region_row(d.F, card.n)
  local marine = card.a.class == "fish"
  local pts, back = region_result(ctx, state, card, r)
  local is_sea = d.region[r].kind == "sea"
  local prior = (is_sea == marine) and math.min(1, card.n / (marine and d.sea or d.land)) or 0.02
  local p_back = k * (back and 1 or 0) + (1 - k) * math.min(1, prior * 2)
  local guess_pts = prior * row.correct + math.min(1, prior) * row.neighbour
  got = { q(k * pts), q((1 - k) * guess_pts), q((1 - p_back) * LOSS) }
  m.region[r] = got
  return got
end

local function scale_parts(ctx, card, k, m, scale, bucket)
  local key = scale .. "/" .. bucket
  local got = m.scale[key]
  if got then return got end
  local d = data(ctx)
  local pts, back = scale_result(ctx, card, scale, bucket)
  local c = ctx.scale(scale):count()
  local guess_pts = (d.F.scale_correct + 2 * d.F.scale_neighbour) / c
  local p_back = k * (back and 1 or 0) + (1 - k) * (3 / c)
  got = { q(k * pts), q((1 - k) * guess_pts), q((1 - p_back) * LOSS) }
  m.scale[key] = got
  return got
end

-- `marked` and `scale_marks` are read once per evaluation, for every seat.
local function expected(ctx, state, card, seat, k, marked, scale_marks)
  local m = parts_for(ctx, card, k)
  local value = 0
  for r, seats in pairs(marked) do
    for _, s in ipairs(seats) do
      if s == seat then
        local p = region_parts(ctx, state, card, k, m, r)
        value = value + p[1] + p[2] - p[3]
      end
    end
  end
  for _, sm in ipairs(scale_marks) do
    if sm.seat == seat then
      local p = scale_parts(ctx, card, k, m, sm.scale, sm.bucket)
      value = value + p[1] + p[2] - p[3]
    end
  end
  return value
end

-- Each seat's points and estimate (with no card in play, the points alone).
local function seat_values(ctx, state, k)
  local points = state:read("points")
  local card = state.phase == "place" and current(ctx, state) or nil
  local marked, scale_marks
  if card then marked, scale_marks = state:region_map(MAP):marked(), state:read("scale_marks") end
  local out = {}
  for s = 1, state.player_count do
    local e = card and expected(ctx, state, card, s, k, marked, scale_marks) or 0
    out[s] = { points = points[s].regions + points[s].scales, expected = e }
  end
  return out, card
end

local function best_other(values, seat)
  local best = -math.huge
  for s, v in ipairs(values) do
    if s ~= seat then best = math.max(best, v.points + v.expected) end
  end
  return best
end

function game.evaluate(ctx, state, seat, opts)
  local values = seat_values(ctx, state, (opts and opts.knowledge) or 0.5)
  return values[seat].points + values[seat].expected - best_other(values, seat)
end

-- A piece on a region or a scale space adds its own estimate to the mover's and changes nothing
-- else the estimate reads (the round cannot end on it: the mover has not passed). A pass may
-- end the round, so it is tried.
function game.evaluate_moves(ctx, state, seat, moves, opts)
  local out = {}
  local k = (opts and opts.knowledge) or 0.5
  local values, card = seat_values(ctx, state, k)
  if not card then return out end
  local m = parts_for(ctx, card, k)
  local mine, best = values[seat], best_other(values, seat)
  for i, move in ipairs(moves) do
    local p
    if move.type == "region" then p = region_parts(ctx, state, card, k, m, move.region)
    elseif move.type == "scale" then p = scale_parts(ctx, card, k, m, move.scale, move.bucket) end
    if p then out[i] = mine.points + (mine.expected + p[1] + p[2] - p[3]) - best end
  end
  return out
end

function game.stats(ctx, state)
  local t = state:read("tally")
  local rounds = state.round
  local players = {}
  for seat = 1, state.player_count do players[seat] = t.players[seat] end
  local tags = {}
  if state.phase == "over" then
    local _, extra = game.score(ctx, state)
    if #extra.winners > 1 then tags[1] = "shared victory" end
  end
  return {
    rounds = rounds,
    ending = state.data.ending ~= "" and state.data.ending or nil,
    tags = tags,
    counts = {
      ["points per round from regions"] = t.region_points / rounds,
      ["points per round from scales"] = t.scale_points / rounds,
      ["pieces lost per round"] = t.pieces_lost / rounds,
    },
    players = players,
  }
end

-- ---- what a person reads ------------------------------------------------------------------

-- Each move in words, grouped for a person choosing among a hundred: a region (by continent or
-- ocean, with the regions it borders and the pieces on them), a scale space (by scale), or pass.
function game.describe(ctx, state, seat, move)
  if move.type == "region" then
    local r = data(ctx).region[move.region]
    local map = state:region_map(MAP)
    local marked = map:marked()
    local around = {}
    for _, nb in ipairs(map:neighbors(move.region)) do
      local who = {}
      for _, s in ipairs(marked[nb] or {}) do who[#who + 1] = "P" .. s end
      around[#around + 1] = region_name(ctx, nb) .. (#who > 0 and " [" .. table.concat(who, ",") .. "]" or "")
    end
    return string.format("a piece on %s (%s, %s)", r.name.en, r.kind, r.group),
           { "a piece on a region of the map", r.group },
           "borders: " .. table.concat(around, ", ")
  elseif move.type == "scale" then
    return string.format("a piece on %s: %s", scale_name(ctx, move.scale), ctx.scale(move.scale):label(move.bucket)),
           { "a piece on a scale", scale_name(ctx, move.scale) .. " (" .. ctx.scale(move.scale):unit() .. ")" }
  elseif move.type == "pass" then
    return "pass for the rest of the round"
  end
end

-- The visible half of the card, the map grouped by continent and ocean with the pieces, the
-- scales, the players; after a reveal, what each piece scored and why.
function game.view(ctx, state, seat)
  local lines = {}
  local card = state.phase == "place" and current(ctx, state) or nil
  if card then
    local asks = {}
    for _, m in ipairs(card.a.asks) do
      local s = answer_scale(ctx, m)
      asks[#asks + 1] = measure_name(ctx, m) .. (s ~= m and " (on the " .. scale_name(ctx, s) .. " scale)" or "")
    end
    local article = card.a.class:match("^[aeiou]") and "an" or "a"
    lines[#lines + 1] = wrap(string.format("Round %d. The card shows: %s / %s (%s), %s %s; lives in %d region(s); asks: %s",
                                           state.round, card.a.name.fr, card.a.name.en, card.a.scientific, article,
                                           card.a.class, card.n, table.concat(asks, ", ")), 118, "  ")
  end
  local map = state:region_map(MAP)
  local marked = map:marked()
  local groups, order = {}, {}
  for _, r in ipairs(ctx.data.regions.regions) do
    if not groups[r.group] then
      groups[r.group] = {}
      order[#order + 1] = r.group
    end
    local who = marked[r.id]
    local label = r.name.en
    if who then
      local names = {}
      for _, s in ipairs(who) do names[#names + 1] = "P" .. s end
      label = label .. " [" .. table.concat(names, ",") .. "]"
    end
    table.insert(groups[r.group], label)
  end
  lines[#lines + 1] = "The map (pieces in brackets):"
  for _, g in ipairs(order) do
    lines[#lines + 1] = wrap(string.format("  %s: %s", g, table.concat(groups[g], "; ")), 118, "      ", "; ")
  end
  if card then
    local marks = state:read("scale_marks")
    for _, asked in ipairs(asked_scales(ctx, card)) do
      local s = asked.id
      local sc = ctx.scale(s)
      local cells = {}
      for b = 1, sc:count() do
        local who = ""
        for _, m in ipairs(marks) do
          if m.scale == s and m.bucket == b then who = " [P" .. m.seat .. "]" end
        end
        cells[#cells + 1] = string.format("%d %s%s", b, sc:label(b), who)
      end
      lines[#lines + 1] = string.format("Scale: %s, in %s", scale_name(ctx, s), sc:unit())
      lines[#lines + 1] = wrap("  " .. table.concat(cells, " | "), 118, "  ", " | ")
    end
  end
  local points = state:read("points")
  for s = 1, state.player_count do
    lines[#lines + 1] = string.format("P%d: %d points (regions %d, scales %d), %d piece(s) to place, %d in the common supply%s%s",
                                      s, points[s].regions + points[s].scales, points[s].regions, points[s].scales,
                                      state.data.hand[s], state.data.lost[s], state.data.lion == s and ", has the lion" or "",
                                      state.data.passed[s] and ", passed" or "")
  end
  if state.phase == "place" then lines[#lines + 1] = string.format("P%d to play", state.data.turn) end
  local last = state:read("last")
  if #last > 0 then
    lines[#lines + 1] = "Last reveal:"
    for _, l in ipairs(last) do lines[#lines + 1] = "  " .. l:gsub("\n", "\n  ") end
  end
  -- The whole table: the host's own lines (the box's and the card's zones) say nothing more.
  return table.concat(lines, "\n"), true
end

return game
