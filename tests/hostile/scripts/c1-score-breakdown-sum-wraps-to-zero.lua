-- Four categories that sum to exactly 2^64 wrap to 0 in int64: refused, never reported as 0.
-- class: 1
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1 --format json
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: seat 1
function game.score(ctx, state) local h = 1 << 62 return {{breakdown = {a = h, b = h, c = h, d = h}}, {breakdown = {a = 1}}} end
