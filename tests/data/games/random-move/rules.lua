-- The random_move fixture (see game.json): a step of 1 to n, n = 2 + the count mod 5; each
-- seat scores the steps it took. random_move draws k = pick(n) and builds the k-th step alone.
local game = {api_version = 1, moves = {}, categories = {"stepped"}}

local kept  -- the "keep" lie's pick, called again after its hook returned

local function choices(state) return 2 + state.data.count % 5 end

function game.setup(ctx, state)
  state.data.count = 0
  local stepped = {}
  for seat = 1, state.seat_count do stepped[seat] = 0 end
  state.data.stepped = stepped
end

function game.to_move(ctx, state)
  if state.data.count >= ctx.params.limit then return {} end
  return {state.data.count % state.player_count + 1}
end

function game.legal_moves(ctx, state, seat)
  if kept then kept(2) end
  local moves = {}
  for by = 1, choices(state) do moves[by] = {type = "step", by = by} end
  return moves
end

function game.moves.step(ctx, state, seat, move)
  state.data.count = state.data.count + move.by
  state.data.stepped[seat] = state.data.stepped[seat] + move.by
end

function game.score(ctx, state)
  local lines = {}
  for seat = 1, state.player_count do lines[seat] = {breakdown = {stepped = state.data.stepped[seat]}} end
  return lines
end

function game.random_move(ctx, state, seat, pick)
  local n = choices(state)
  local lie = ctx.params.lie
  if lie == "no_draw" then return {type = "step", by = 1} end
  if lie == "nothing" then return nil end
  if lie == "zero" then pick(0) end
  local k = pick(lie == "count" and n + 1 or n)
  if lie == "twice" then pick(n) end
  if lie == "keep" then kept = pick end
  if lie == "wrong" then k = k % n + 1 end
  return {type = "step", by = k}
end

return game
