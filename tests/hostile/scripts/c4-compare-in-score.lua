-- The comparison loop in score, run by simulate at the end of every game: each call charged.
-- class: 4
-- command: simulate {game} -n 20 --players 2 --bots random --threads 1
-- expect-exit: 1
-- expect: instruction budget
-- expect: score
-- limit: 10
local A = ("x"):rep(1 << 24)
local B = A:sub(1, -2) .. "y"
function game.score(ctx, state)
  local n = 0
  for i = 1, 10000000 do if A <= B then n = n + 1 end end
  return {{breakdown = {bumps = 1}}, {breakdown = {bumps = 1}}}
end
