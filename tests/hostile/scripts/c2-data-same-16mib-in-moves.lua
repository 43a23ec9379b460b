-- Each move stores another copy of a 16 MiB module string (the state grows by 16 MiB a move,
-- up to 100 moves): refused by the state-size account, never bad_alloc.
-- class: 2
-- command: play {game} --players 2 --seed 1 --bots random --set limit=100
-- expect-exit: 1
-- expect: games/hostile/rules.lua:11:
-- expect: state.data
local BIG = ("x"):rep(1 << 24)
function game.moves.bump(ctx, state, seat, move)
  state.data.count = state.data.count + move.by
  state.data["copy" .. state.data.count] = BIG
end
