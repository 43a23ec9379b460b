-- The totals hook returns 100,000 entries that are not seats (string keys) beside the two
-- totals: refused as entries that are not seats, in time, naming the hook's line.
-- class: 1
-- command: simulate {game} -n 1 --players 2 --bots greedy --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
-- expect: totals: holds entries that are not seats 1..2
local BIG = {}
function game.totals(ctx, state)
  if not BIG[1] then
    for i = 1, 100000 do BIG["k" .. i] = i end
    BIG[1], BIG[2] = 0, 0
  end
  return BIG
end
