-- With --keep-going, simulate goes on past failing games and ends with exit 1, naming them,
-- within seconds.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots random --keep-going
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- limit: 10
function game.moves.bump(ctx, state, seat, move) if state.data.count > 2 then error("late") end state.data.count = state.data.count + move.by end
