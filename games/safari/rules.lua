-- Carcassonne Safari: the rules of the rulebook (rules/safari.fr.txt) on the host's tile map.
-- A turn: the drawn tile is placed (on a vehicle's space it captures the vehicle: 3 points and
-- the vehicle moves), then one action (a meeple on a trail, a bush or the baobab of that tile;
-- a watering hole started or extended; a vehicle moved; or nothing), then the end-of-turn
-- scoring of the baobabs surrounded and the trails and bushes the tile completed, where each
-- controller may boost the species count with one of their animal markers. The game ends when
-- the next player cannot draw a tile; unfinished trails and bushes and the markers left score.
--
-- This file is the game table: it hands each hook to the module that holds its rules
-- (safari/*.lua, required as "safari.<name>"):
--   tiles      setup, where the drawn tile may go, its placement and the vehicle it captures
--   actions    whose turn, the moves of each step, a meeple on a feature or a baobab, no action
--   holes      watering holes started, extended and completed
--   vehicles   where a vehicle may go, the captured one set down, a vehicle moved
--   scoring    the end of the turn (baobabs, completed features, boosts), the final scoring,
--              the score table and the statistics
--   bots       the `evaluate` and `evaluate_moves` hooks
--   view       what players read (`view`, `describe`)
-- below them: data (constants and the data derived once per VM) and state (the log, the
-- markers, the vehicle on a cell, the tile drawn).
--
-- The host does the geometry: the tile map (state:tile_map("savanna")) places tiles, lists
-- where one fits, joins trails and bushes into features and says which are complete, whose
-- meeples are on them and how many animals they hold. These rules keep the rest in state.data:
--   turn, step       the seat to play and where its turn is: "place", "relocate" (a captured
--                    vehicle), "action"
--   tile             the tile drawn for this turn; bag: the tiles left, drawn from the end;
--                    aside: tiles set aside because they fitted nowhere
--   placed, captured the cell of the tile placed this turn; the vehicle it captured (or 0)
--   completed        the features that tile completed (scored at the end of the turn)
--   queue            during the end-of-turn scoring, the {feature, seat} boosts still to ask
--   boosts           the markers chosen for this turn's scorings, {feature, seat, species}
--   vehicles         the two vehicles' cells
--   markers          per seat, the animal markers in hand (species ids); supply (face down,
--                    drawn from the end), spent (discarded by boosts, reshuffled when needed);
--                    fresh: per seat, markers won this turn by a completed baobab (only when
--                    baobab_markers_immediate is false)
--   meeples          per seat, meeples in the player's supply
--   baobabs          meeples lying on baobabs: {cell, seat}
--   standing         meeples on trails and bushes, where they were put: {cell, segment, seat}
--                    (the host counts a feature's pieces; this is where the map draws them)
--   holes            watering holes by vertex "r,c" (the top-left corner of cell r, c):
--                    {v = {r, c}, markers = {{q, species, seat, meeple}}, complete}
--   points           per seat, points scored during the game by category
--   tally            counts for the designer's report (see `stats`)
--   log              what the last turn's scoring awarded and why (for `play`)

local tiles = require("safari.tiles")
local actions = require("safari.actions")
local holes = require("safari.holes")
local vehicles = require("safari.vehicles")
local scoring = require("safari.scoring")
local view = require("safari.view")

-- The type is for editors (.luarc.json: the API stubs of scripting/api/stubs).
---@type plateau.game
local game = { api_version = 1, version = 1 }

game.categories = scoring.categories
game.setup = tiles.setup
game.to_move = actions.to_move
game.legal_moves = actions.legal_moves
game.random_move = actions.random_move

game.moves = {}
for _, rules in ipairs({ tiles, actions, holes, vehicles, scoring }) do
  for name, handler in pairs(rules.moves) do game.moves[name] = handler end
end

game.score = scoring.score
game.totals = scoring.totals
game.stats = scoring.stats
local bots = require("safari.bots")
game.evaluate = bots.evaluate
game.evaluate_moves = bots.evaluate_moves
game.view = view.view
game.describe = view.describe

return game
