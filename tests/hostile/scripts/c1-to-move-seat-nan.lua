-- to_move returns NaN: refused naming the hook.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: to_move
function game.to_move(ctx, state) return {0 / 0} end
