-- A back-reference pattern on a long string ("(a*)%1b"): refused as too costly, or charged;
-- either way a clean failure within seconds.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:10:
-- limit: 8
local S = ("a"):rep(1 << 16)
function game.moves.bump(ctx, state, seat, move)
  for i = 1, 100000 do S:find("(a*)%1b") end
end
