-- Every conformance game overflows the C stack: stopped at the first, named with file:line.
-- class: 5
-- command: test {game} --conformance-only --games 200
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: seed
-- limit: 10
local function f(s) return (s:gsub(".", f)) end
function game.moves.bump(ctx, state, seat, move) return f("x") end
