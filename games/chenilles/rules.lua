-- Chenilles: a caterpillar-breeding management game (a designer's untested prototype). Each
-- round moves the time token on the circular time board (revealing an event card on event
-- spaces); then each player, youngest (seat 1) first, plays the recap order of the rulebook:
-- racket roll, the current event's action, caterpillar powers, nature or market on
-- nature/market days, evolutions, then copper or a resource card. The game ends at the end of
-- the round in which the first butterfly appears or the last event card is revealed.
-- Every number is data (data/chenilles.json); rules choices are manifest parameters;
-- README.md explains it all.
--
-- This file is the game table: it hands each hook to the module that holds its rules
-- (chenilles/*.lua, required as "chenilles.<name>"):
--   turn       setup, rounds, the turn's step machine, the racket, the end of the turn, legal moves
--   events     the event cards: their reveal, the sales and the insurance they offer
--   powers     the dromedary's income and the kamikaze's attack
--   nature     the forest lot and the hazard card
--   market     buying caterpillars, trading resources
--   evolution  simple evolutions and transformations, with their roll
--   scoring    the score and the statistics
--   evaluate   the heuristic bot's evaluation (its weights: weights)
--   view, describe   what players read
-- below them: layout (where each number lives in state.data), data (data/chenilles.json
-- compiled), state (handles, resources, tallies), vivarium (the caterpillars).

local S = require("chenilles.state")
local turn = require("chenilles.turn")
local events = require("chenilles.events")
local powers = require("chenilles.powers")
local nature = require("chenilles.nature")
local market = require("chenilles.market")
local evolution = require("chenilles.evolution")
local scoring = require("chenilles.scoring")

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

game.setup = turn.setup
game.to_move = turn.to_move
game.legal_moves = turn.legal_moves

-- Every handler starts a hook call.
local begin = S.begin
game.moves = {}
for _, rules in ipairs({ turn, events, powers, nature, market, evolution }) do
  for name, handler in pairs(rules.moves) do
    game.moves[name] = function(ctx, state, seat, move)
      begin(ctx)
      return handler(ctx, state, seat, move)
    end
  end
end

game.categories = scoring.categories
game.score = scoring.score
game.stats = scoring.stats
game.evaluate = require("chenilles.evaluate").evaluate
game.evaluate_moves = require("chenilles.evaluate").evaluate_moves
game.view = require("chenilles.view").view
game.describe = require("chenilles.describe").describe

return game
