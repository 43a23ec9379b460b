-- evaluate returns NaN to the greedy bot, which compares two moves: refused naming the hook.
-- class: 1
-- command: simulate {game} -n 3 --players 2 --bots greedy --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: evaluate
function game.evaluate(ctx, state, seat) return 0 / 0 end
