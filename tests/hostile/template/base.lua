-- The template's rules (tests/hostile): seats take turns adding 1 or 2 to a shared count until
-- it reaches ctx.params.limit; each seat scores what it added. A case's rules.lua starts with
-- `local game = require('base')` and replaces the hooks it attacks.
local game = {api_version = 1, moves = {}, categories = {"bumps"}}
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
function game.legal_moves(ctx, state, seat)
  return {{type = "bump", by = 1}, {type = "bump", by = 2}}
end
function game.moves.bump(ctx, state, seat, move)
  state.data.count = state.data.count + move.by
  state.data.added[seat] = state.data.added[seat] + move.by
end
function game.score(ctx, state)
  local lines = {}
  for seat = 1, state.player_count do lines[seat] = {breakdown = {bumps = state.data.added[seat]}} end
  return lines
end
return game
