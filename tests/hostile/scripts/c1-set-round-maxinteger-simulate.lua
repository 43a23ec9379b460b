-- set_round(math.maxinteger) in every move: --max-rounds must stop the game (no overflow in
-- round arithmetic), or the call is refused.
-- class: 1
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1 --max-rounds 50
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:7:
function game.moves.bump(ctx, state, seat, move) state.data.count = state.data.count + move.by state:set_round(math.maxinteger) end
