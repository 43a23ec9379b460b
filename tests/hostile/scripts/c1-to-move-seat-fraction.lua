-- to_move returns seat 1.5: not an integer; refused, not truncated to seat 1.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: to_move
function game.to_move(ctx, state) if state.data.count >= 6 then return {} end return {1.5} end
