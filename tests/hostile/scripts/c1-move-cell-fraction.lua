-- A move whose cell is {0.5, 0}: not two integers; refused where legal_moves lists it.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: cell
function game.legal_moves(ctx, state, seat) return {{type = "bump", by = 1, cell = {0.5, 0}}} end
