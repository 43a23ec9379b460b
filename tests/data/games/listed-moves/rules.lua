-- Fixture: evaluate_moves writing into the draft picks it is handed (game.json's `write`).
-- Each grid scores 1 per moss. The hook gives no values (the bots try every pick), so only
-- what it writes, and what it reads back in the next decision, is under test.

local game = { api_version = 1, version = 1 }

local draft = require("ecosysteme.draft")

game.categories = { "moss" }

function game.draft(ctx)
  return draft.config(ctx)
end

function game.score(ctx, state)
  local lines = {}
  for seat = 1, state.player_count do
    local n = state:grid(seat):view():count("moss")
    lines[seat] = { total = n, breakdown = { moss = n } }
  end
  return lines
end

function game.evaluate_moves(ctx, state, seat, moves)
  for _, m in ipairs(moves) do
    -- A write of an earlier decision seen again would read here.
    if m.card == "written" or m.cell[1] == 99 then error("a pick kept what an earlier call wrote into it") end
  end
  if ctx.params.write == "add" then
    moves[1].note = "mine"
  elseif ctx.params.write == "overwrite" then
    for _, m in ipairs(moves) do
      m.card = "written"
      m.cell[1] = 99
    end
  end
  return {}
end

return game
