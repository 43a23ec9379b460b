-- plateau-bench only: Savane's draft (the shared Écosystème base's configuration, run by the
-- host) with the cheapest score hook the host accepts and no after-draft questions. The
-- benchmark plays it through `plateau simulate`'s path to measure what the host costs alone,
-- which bounds how fast the scripted game can get (bench/README.md).

local game = { api_version = 1, version = 1 }

local draft = require("ecosysteme.draft")

function game.draft(ctx)
  return draft.config(ctx, { neutral = true, solo = "Jhay" })
end

-- Savane's categories, so the host reads the score table as it reads Savane's.
game.categories = { "waterhole", "prairie", "tree", "gazelle", "zebra", "giraffe",
                    "cheetah", "lion", "elephant", "hyena", "vulture" }

-- Zero in every category for every seat: the host still calls the hook once per game and
-- reads a table the size of Savane's, which is the host's work. The table is built once per
-- player count and returned again, so the rules themselves do next to nothing.
local tables = {}
function game.score(ctx, state)
  local n = state.player_count
  if not tables[n] then
    local lines = {}
    for k = 1, n do
      local breakdown = {}
      for _, name in ipairs(game.categories) do breakdown[name] = 0 end
      lines[k] = { total = 0, breakdown = breakdown }
    end
    tables[n] = lines
  end
  return tables[n]
end

return game
