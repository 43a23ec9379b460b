-- Two categories of math.maxinteger: their sum passes int64 and must not wrap (to a negative
-- total); refused naming the seat.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: seat 1
function game.score(ctx, state) return {{breakdown = {a = math.maxinteger, b = math.maxinteger}}, {breakdown = {a = 1}}} end
