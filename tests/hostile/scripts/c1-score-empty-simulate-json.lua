-- score returns no line at all: no winning total of int64's minimum in the JSON report.
-- class: 1
-- command: simulate {game} -n 10 --players 3 --bots random --threads 1 --format json
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:8:
-- reject: -9223372036854775808
-- reject: e+18
function game.score(ctx, state) return {} end
