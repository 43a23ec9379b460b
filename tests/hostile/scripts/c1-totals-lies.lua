-- The totals hook gives seat 2 one point more than the score does: the bots would rank moves
-- by a number the score never gives, so `plateau test` fails it naming the seat and the line.
-- class: 1
-- command: test {game} --conformance-only --games 2
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8: totals: seat 2 (P2)
-- expect: where score's total is
function game.totals(ctx, state)
  local totals = {}
  for seat = 1, state.player_count do totals[seat] = state.data.added[seat] + (seat == 2 and 1 or 0) end
  return totals
end
