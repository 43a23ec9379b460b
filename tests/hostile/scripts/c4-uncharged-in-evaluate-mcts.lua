-- evaluate does an uncharged long find; the mcts bot calls it at every rollout: each call is
-- charged, so the run fails on the budget within seconds.
-- class: 4
-- command: simulate {game} -n 2 --players 2 --bots mcts:iters=100:depth=1 --threads 1
-- expect-exit: 1
-- expect: instruction budget
-- expect: evaluate
-- limit: 10
local S = ("a"):rep(1 << 24)
local P = ("a"):rep(254) .. "b"
function game.evaluate(ctx, state, seat) for i = 1, 100 do S:find(P) end return 0 end
