-- table.sort (no comparator) of 1000 strings of 32 KiB sharing a prefix, again and again: all
-- the comparisons run inside one C call; charged by its cost.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- limit: 8
local prefix = ("p"):rep(1 << 15)
function game.moves.bump(ctx, state, seat, move)
  local t = {}
  for i = 1, 1000 do t[i] = prefix .. string.format("%06d", (i * 7919) % 1000) end
  for r = 1, 100000 do table.sort(t, nil) table.sort(t, function(a, b) return a > b end) end
end
