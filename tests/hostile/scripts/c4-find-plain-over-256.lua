-- A plain find of a 64 KiB needle: refused by the sandbox's 256-character pattern limit (plain
-- or not), naming the line, at once.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:10:
-- limit: 5
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(1 << 16) .. "b"
function game.moves.bump(ctx, state, seat, move) return S:find(P, 1, true) end
