-- Helpers for Safari's scenario tests: a game whose players hold no markers, and placing a
-- chosen tile (g:set_data("tile", id) picks the tile the player to move has drawn).
local M = {}

function M.game(params, data, players)
  local g = new_game{ players = players or 2, seed = 1, params = params or {}, data = data }
  g:set_data("markers", { {}, {}, {}, {}, {} })
  return g
end

function M.place(g, seat, tile, r, c, rot)
  g:set_data("tile", tile)
  return g:play(seat, { type = "place", cell = { r, c }, rotation = rot or 0 })
end

function M.count(moves, kind)
  local n = 0
  for _, m in ipairs(moves) do
    if m.type == kind then n = n + 1 end
  end
  return n
end

return M
