-- to_move returns 1e300: out of range (not "non-integer"), named.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: to_move
-- reject: non-integer
function game.to_move(ctx, state) return {1e300} end
