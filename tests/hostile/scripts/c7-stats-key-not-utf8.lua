-- A non-UTF-8 count name from the stats hook: refused, not rewritten in the report.
-- class: 7
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: UTF-8
-- reject: �
function game.stats(ctx, state) return {counts = {["n\xe9"] = 1}, tags = {"t\xff"}} end
