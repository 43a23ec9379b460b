-- The stats hook counts NaN: refused naming the hook and the count, not averaged into the report.
-- class: 1
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: stats
function game.stats(ctx, state) return {counts = {odd = 0 / 0}} end
