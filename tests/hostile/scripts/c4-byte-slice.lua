-- string.byte(s, 1, -1) on 1 MiB asks for a million results: a clean error, not a crash.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
local S = ("b"):rep(1 << 20)
function game.moves.bump(ctx, state, seat, move) local t = {S:byte(1, -1)} end
