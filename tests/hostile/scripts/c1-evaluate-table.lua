-- evaluate returns a table: refused naming the hook (a number is expected).
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots greedy
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: evaluate
function game.evaluate(ctx, state, seat) return {} end
