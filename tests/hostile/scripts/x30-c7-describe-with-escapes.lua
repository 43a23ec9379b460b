-- a describe hook returning escape sequences: the terminal gets them inert.
-- class: 30.7
-- command: play {game} --players 2 --bots random
-- expect-exit: 0|1
-- check: ! grep -q $'\x1b' "$OUT"
function game.describe(ctx, state, seat, move) return "\27[31mred\27[0m move" end
