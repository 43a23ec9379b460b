-- to_move returns math.maxinteger: out of range, named.
-- class: 1
-- command: simulate {game} -n 3 --players 2 --bots random --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: to_move
function game.to_move(ctx, state) return {math.maxinteger} end
