-- A breakdown of 1e300 is out of range, not a "non-integer number" (class 7's wrong name).
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: breakdown 'bumps' for seat 1
-- reject: non-integer
function game.score(ctx, state) return {{breakdown = {bumps = 1e300}}, {breakdown = {bumps = 1}}} end
