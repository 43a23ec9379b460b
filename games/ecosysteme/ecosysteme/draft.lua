-- Écosystème base: the draft every variant shares, as the table game.draft returns to the
-- host (scripting/README.md §2, "draft"), and the seats that take part in it. The host deals,
-- runs the secret simultaneous picks, passes the hands, keeps the floating frame, rotates the
-- neutral hand and fills the solo opponent's grid; a variant only says which of those it has.

local cards = require("ecosysteme.cards")

local M = {}

-- The frame of every ecosystem: 4 rows of 5 cards, placed over 2 rounds.
M.ROWS, M.COLS, M.ROUNDS = 4, 5, 2

-- The rulebooks' solo schedule: 10 cards in hand, 1 drawn after each turn, 5 after each row
-- the opponent completes.
M.SOLO_HAND, M.SOLO_DRAW, M.SOLO_DRAW_ON_ROW = 10, 1, 5

-- The draft configuration. Every option may be left out:
--   hand_size  cards dealt to each hand each round (default: the hand_size parameter); each
--              round places rows * cols / rounds of them and discards the rest
--   rows, cols the frame (4 x 5); rounds: how many rounds (2), passing left, then right, ...
--   neutral    true: with 2 players, a third hand that rotates with theirs and drops one
--              random card on its pile at each pick (it ranks in majorities); neutral_name
--   solo       nil (no solo mode), the opponent's name, or {opponent =, hand =, draw =,
--              draw_on_row =}: with 1 player, an opponent whose grid the player fills left to
--              right, top to bottom, with one card given each turn
function M.config(ctx, opts)
  opts = opts or {}
  local rows, cols, nrounds = opts.rows or M.ROWS, opts.cols or M.COLS, opts.rounds or M.ROUNDS
  if (rows * cols) % nrounds ~= 0 then
    error(string.format("draft: %d rounds cannot share a %d x %d grid evenly", nrounds, rows, cols), 2)
  end
  local deal, keep = opts.hand_size or ctx.params.hand_size, rows * cols // nrounds
  local rounds = {}
  for r = 1, nrounds do rounds[r] = { deal = deal, keep = keep, pass = r % 2 == 1 and "left" or "right" } end
  local config = { rounds = rounds, grid = { rows = rows, cols = cols }, deck = cards.deck(ctx) }
  if opts.neutral then
    config.neutral = true
    config.neutral_name = opts.neutral_name or "neutral"
  end
  if opts.solo then
    local s = type(opts.solo) == "table" and opts.solo or { opponent = opts.solo }
    config.solo = { hand = s.hand or M.SOLO_HAND, draw = s.draw or M.SOLO_DRAW,
                    draw_on_row = s.draw_on_row or M.SOLO_DRAW_ON_ROW, opponent = s.opponent or "opponent" }
  end
  return config
end

-- The solo opponent's seat (2) in a solo game, else nil. A one-player board given to
-- `plateau score` has no opponent.
function M.solo_opponent(state)
  if state.player_count == 1 and state.seat_count >= 2 and state:kind(2) == "opponent" then return 2 end
  return nil
end

-- Questions after the draft (which prey a lion eats, which card a whale turns over): asks
-- `mover` about the next grid it decides for, its own first, then (solo) the opponent's, whose
-- choices belong to the solo player. `question(seat)` returns the moves of the next open
-- choice on that seat's grid, or nil when it has none left (it may resolve forced choices on
-- the way). Returns the moves asked, or nil.
function M.ask_next(state, mover, question)
  local q = question(mover)
  if not q then
    local opponent = M.solo_opponent(state)
    if opponent then q = question(opponent) end
  end
  if q then state:ask(mover, q) end
  return q
end

return M
