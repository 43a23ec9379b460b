-- The evaluate_moves fixture (see game.json): bump by 1 or 2, or roll 1-3; each seat scores
-- what it added. evaluate_moves gives each bump the bots' default measure after it (the seat's
-- total minus half the best other total) and leaves the roll to a trial.
local game = {api_version = 1, moves = {}, categories = {"added"}}

function game.setup(ctx, state)
  state.data.count = 0
  local added = {}
  for seat = 1, state.seat_count do added[seat] = 0 end
  state.data.added = added
end

function game.to_move(ctx, state)
  if state.data.count >= ctx.params.limit then return {} end
  return {state.data.count % state.player_count + 1}
end

-- `frozen`: the same three moves made once by ctx.move (read-only), listed again and again.
local FROZEN

function game.legal_moves(ctx, state, seat)
  if ctx.params.frozen then
    FROZEN = FROZEN or {ctx.move{type = "bump", by = 1}, ctx.move{type = "bump", by = 2}, ctx.move{type = "roll"}}
    return {FROZEN[1], FROZEN[2], FROZEN[3]}
  end
  return {{type = "bump", by = 1}, {type = "bump", by = 2}, {type = "roll"}}
end

function game.moves.bump(ctx, state, seat, move)
  state.data.count = state.data.count + move.by
  state.data.added[seat] = state.data.added[seat] + move.by
end

function game.moves.roll(ctx, state, seat, move)
  local n = ctx.rng:int(1, 3)
  state.data.count = state.data.count + n
  state.data.added[seat] = state.data.added[seat] + n
end

function game.score(ctx, state)
  local lines = {}
  for seat = 1, state.player_count do lines[seat] = {breakdown = {added = state.data.added[seat]}} end
  return lines
end

-- The default measure after `by` more for `seat`.
local function value_after(state, seat, by)
  local mine, best = state.data.added[seat] + by, nil
  for other = 1, state.player_count do
    if other ~= seat and (best == nil or state.data.added[other] > best) then best = state.data.added[other] end
  end
  return mine - 0.5 * (best or 0)
end

function game.evaluate_moves(ctx, state, seat, moves)
  if ctx.params.frozen then
    for i = 1, 3 do
      if not rawequal(moves[i], FROZEN[i]) then error("evaluate_moves was handed a copy of the frozen move " .. i) end
    end
  end
  local values = {}
  if not ctx.params.hook then return values end
  for i, move in ipairs(moves) do
    if move.type == "bump" then values[i] = value_after(state, seat, move.by) end
  end
  local lie = ctx.params.lie
  if lie == "value" then values[1] = values[1] + 1
  elseif lie == "extra" then values[#moves + 1] = 0
  elseif lie == "nan" then values[2] = 0 / 0
  elseif lie == "chance" then values[3] = value_after(state, seat, 2) end
  -- Relative to the first move (a bump by 1): what each bump adds to its value.
  if ctx.params.relative or lie:sub(1, 4) == "base" or lie == "relative_value" then
    local first = values[1]
    for i = 1, #moves do
      if values[i] then values[i] = values[i] - first end
    end
    if lie == "relative_value" then values[2] = values[2] + 1
    elseif lie == "base_range" then return values, #moves + 1
    elseif lie == "base_own" then values[1] = 3
    elseif lie == "base_chance" then return values, 3 end
    return values, 1
  end
  return values
end

return game
