-- state:data_version() changes at the write inside a hook, so a cache keyed on it is never stale.
-- class: 30.8
-- command: validate {game}
-- expect-exit: 0
local base_setup = game.setup
function game.setup(ctx, state) base_setup(ctx, state) local v = state:data_version() state.data.x = 1 assert(state:data_version() ~= v, "stale data_version") local w = state:data_version() state.data.x = 2 assert(state:data_version() ~= w, "stale again") end
