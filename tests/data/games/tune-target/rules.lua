-- tune-target: a test game for plateau tune, not a real game. Each of two players rolls one
-- d6; the game's counts are simple functions of its parameters a, b and the data value
-- cards.cards.coin.bonus, plus the dice (mean 0 noise), so tests know where the optimum of
-- a target lies. The parameter lean moves P1's win rate from 1/2 to 1; rare is the share of
-- games whose count 'rare' is 1, which a few games can overstate by luck.
local game = { api_version = 1, version = 1, moves = {} }

game.categories = { "dice" }

function game.setup(ctx, state)
  if ctx.params.a == ctx.params.fail_at then error("a = " .. ctx.params.a .. " is refused on purpose (fail_at)") end
  state.data.rolls = {}
  state.data.lean = ctx.rng:int(1, 1000) <= math.floor(ctx.params.lean * 1000 + 0.5)
  -- Drawn only when asked for, so that the dice of the other tests stay as they were.
  state.data.rare = 0
  if ctx.params.rare > 0 and ctx.rng:int(1, 1000) <= math.floor(ctx.params.rare * 1000 + 0.5) then state.data.rare = 1 end
end

function game.to_move(ctx, state)
  local n = #state.data.rolls
  if n >= state.player_count then return {} end
  return { n + 1 }
end

function game.legal_moves(ctx, state, seat)
  return { { type = "roll" } }
end

function game.moves.roll(ctx, state, seat, move)
  state.data.rolls[seat] = ctx.rng:int(1, 6)
end

function game.score(ctx, state)
  local out = {}
  for seat = 1, state.player_count do
    local dice = state.data.rolls[seat] or 0
    if state.data.lean then dice = seat == 1 and 7 or 0 end
    out[seat] = { breakdown = { dice = dice } }
  end
  return out
end

function game.stats(ctx, state)
  local r = state.data.rolls
  local bonus = ctx.data.cards.cards[1].bonus
  local total = ctx.params.a + ctx.params.b + bonus + (r[1] + r[2] - 7)
  local gap = ctx.params.a - ctx.params.b + (r[1] - r[2])
  local players = {}
  for seat = 1, state.player_count do players[seat] = { ["six"] = r[seat] == 6 and 1 or 0 } end
  return { rounds = 1, ending = state.data.rare == 1 and "rare" or "rolled", counts = { total = total, gap = gap, rare = state.data.rare }, players = players }
end

return game
