-- Per-player numbers of 1e308 (their sums overflow to inf): the JSON report stays valid JSON
-- (no inf or nan in it) or the hook is refused.
-- class: 1
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1 --format json
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:10:
-- reject: inf,
-- reject: nan
-- reject: Infinity
function game.stats(ctx, state) return {players = {{x = 1e308}, {x = 1e308}}} end
