-- The stats hook counts +inf: refused naming the hook.
-- class: 1
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1 --format json
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: stats
function game.stats(ctx, state) return {counts = {odd = math.huge}} end
