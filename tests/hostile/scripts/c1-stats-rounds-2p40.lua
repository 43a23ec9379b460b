-- The stats hook says the game lasted 2^40 rounds (or -3): refused or reported as said, with
-- no overflow in the length table.
-- class: 1
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:8:
-- expect-fail: stats
function game.stats(ctx, state) if state.data.added[1] > 2 then return {rounds = 2 ^ 40} end return {rounds = -3} end
