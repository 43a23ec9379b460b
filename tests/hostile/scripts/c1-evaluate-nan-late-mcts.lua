-- evaluate is fine until the count passes 2, then NaN: the rollouts meet it; refused, not a crash.
-- class: 1
-- command: simulate {game} -n 3 --players 2 --bots mcts:iters=60:depth=1 --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: evaluate
function game.evaluate(ctx, state, seat) if state.data.count > 2 then return 0 / 0 end return 1 end
