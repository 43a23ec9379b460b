-- ".-b" on 1 MiB of "a" tries every start and scans to the end: O(n^2) in one call; refused
-- as too costly or charged.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:10:
-- limit: 8
local S = ("a"):rep(1 << 20)
function game.moves.bump(ctx, state, seat, move)
  for i = 1, 1000 do S:find(".-b") end
end
