-- Many back-reference matches on 4 KiB strings, each cheap enough to pass a per-call check:
-- charged by their work in total.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- limit: 8
local S = ("a"):rep(4096)
function game.moves.bump(ctx, state, seat, move)
  for i = 1, 10000000 do S:match("(a-)%1$") end
end
