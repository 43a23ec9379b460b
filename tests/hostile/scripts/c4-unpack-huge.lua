-- table.unpack({}, 1, 1e8): too many results; a clean error naming the line.
-- class: 4
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: moves.bump
function game.moves.bump(ctx, state, seat, move) return table.unpack({}, 1, 100000000) end
