-- A move field of NaN (never equal to itself, so never legal): refused where it is listed.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: legal_moves
function game.legal_moves(ctx, state, seat) return {{type = "bump", by = 0 / 0}} end
