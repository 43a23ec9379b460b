-- evaluate returns -1e308 for one seat and 1e308 for the other: no crash in the mcts bot.
-- class: 1
-- command: simulate {game} -n 3 --players 2 --bots mcts:iters=40:depth=1 --threads 1
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:6:
function game.evaluate(ctx, state, seat) if seat == 1 then return -1e308 end return 1e308 end
