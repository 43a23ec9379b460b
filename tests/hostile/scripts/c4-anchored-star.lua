-- "a*$" on 256 KiB of "a" then "b": every start scans the whole run (quadratic); charged.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
-- limit: 8
local S = ("a"):rep(1 << 18) .. "b"
function game.moves.bump(ctx, state, seat, move)
  for i = 1, 1000 do S:gsub("a*$", "") end
end
