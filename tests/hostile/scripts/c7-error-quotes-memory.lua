-- The script's own error() quoting the memory-cap message: a script error, not a memory error.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: script error
-- expect: games/hostile/rules.lua:8:
-- reject: memory cap exceeded:
function game.moves.bump(ctx, state, seat, move) error("memory cap of 64 MiB exceeded in hook 'moves.bump'") end
