-- Every game overflows the C stack (gsub calling itself): stopped at the first game, named with
-- its file and line (not a bare "C stack overflow"), and the VM is reset.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: seed 1
-- limit: 10
local function f(s) return (s:gsub(".", f)) end
function game.moves.bump(ctx, state, seat, move) return f("x") end
