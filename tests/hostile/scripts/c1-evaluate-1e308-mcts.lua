-- evaluate returns 1e308 (finite, but sums of it overflow to inf in the tree's means): the mcts
-- bot plays on or refuses it by the documented range; it never crashes.
-- class: 1
-- command: simulate {game} -n 3 --players 2 --bots mcts:iters=40:depth=1 --threads 1
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:7:
function game.evaluate(ctx, state, seat) return 1e308 end
