-- evaluate returns +inf to the mcts bot: refused naming the hook.
-- class: 1
-- command: simulate {game} -n 3 --players 2 --bots mcts:iters=40:depth=1 --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: evaluate
function game.evaluate(ctx, state, seat) return math.huge end
