-- evaluate returns -inf to the heuristic bot (means of samples): refused naming the hook.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots heuristic
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: evaluate
function game.evaluate(ctx, state, seat) return -math.huge end
