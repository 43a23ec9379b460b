-- gsub of every character of 16 MiB with a string: 16 million replacements in one call, in a
-- loop; charged by its cost.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- limit: 8
local S = ("a"):rep(1 << 24)
function game.moves.bump(ctx, state, seat, move)
  for i = 1, 100000 do S:gsub(".", "b") end
end
