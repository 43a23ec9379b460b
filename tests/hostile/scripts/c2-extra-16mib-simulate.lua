-- The score's extra carries a different 16 MiB string in every game: the report's outcome
-- table must not keep them all (200 x 16 MiB); bounded output, no bad_alloc.
-- class: 2
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 0|1
-- max-output: 4000000
-- limit: 20
local BIG = ("e"):rep((1 << 24) - 64)
function game.score(ctx, state)
  local lines = {}
  for seat = 1, state.player_count do lines[seat] = {breakdown = {bumps = state.data.added[seat]}} end
  return lines, {note = BIG .. state.data.added[1] .. ":" .. state.data.added[2]}
end
