-- A breakdown of 2^63 as a float (integral, but no int64 holds it): out of range, not wrapped
-- and not called non-integer.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
-- expect: breakdown 'bumps'
-- reject: non-integer
function game.score(ctx, state) return {{breakdown = {bumps = 2.0 ^ 63}}, {breakdown = {bumps = 1}}} end
