-- math.mininteger and -1 in one breakdown: the sum passes int64's minimum; refused, not wrapped.
-- class: 1
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: seat 2
function game.score(ctx, state) return {{breakdown = {a = 1}}, {breakdown = {a = math.mininteger, b = -1}}} end
