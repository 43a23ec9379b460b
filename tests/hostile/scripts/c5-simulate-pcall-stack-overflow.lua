-- Every game recurses through pcall until the stack overflows, catching each overflow: the
-- run ends within seconds (today it runs for minutes).
-- class: 5
-- command: simulate {game} -n 20 --players 2 --bots random --threads 1
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:
-- limit: 10
local function f() return select(2, pcall(f)) end
function game.moves.bump(ctx, state, seat, move) state.data.count = state.data.count + move.by f() end
