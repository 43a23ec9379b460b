-- A move whose cell is {2^40, 0} ("two integers" beyond the host's coordinates): refused where
-- legal_moves lists it.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: cell
function game.legal_moves(ctx, state, seat) return {{type = "bump", by = 1, cell = {2 ^ 40, 0}}} end
