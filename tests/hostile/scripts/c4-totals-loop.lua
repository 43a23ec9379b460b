-- The totals hook never returns: the greedy bot's first call is stopped by the instruction
-- budget, named as the totals hook's.
-- class: 4
-- command: simulate {game} -n 1 --players 2 --bots greedy --threads 1
-- expect-exit: 1
-- expect: instruction budget
-- expect: totals
-- limit: 10
function game.totals(ctx, state)
  local n = 0
  while true do n = n + 1 end
end
