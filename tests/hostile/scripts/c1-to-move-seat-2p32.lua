-- to_move returns seat 2^32 + 1, which an int truncation reads as seat 1: refused.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: to_move
function game.to_move(ctx, state) if state.data.count >= 6 then return {} end return {2 ^ 32 + 1} end
