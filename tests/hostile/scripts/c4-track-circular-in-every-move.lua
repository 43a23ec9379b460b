-- A circular track moved 2^33 steps in every move of 200 games: no lap loop anywhere.
-- class: 4
-- command: simulate {game} -n 200 --players 2 --bots random --threads 1
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:8:
-- limit: 10
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state:add_track("clock", {length = 5, circular = true}) end
function game.moves.bump(ctx, state, seat, move) state.data.count = state.data.count + move.by state:track("clock"):move(2 ^ 33) end
