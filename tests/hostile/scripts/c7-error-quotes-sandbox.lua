-- The script's own error() whose text quotes a sandbox message: a script error, not a sandbox
-- violation.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: script error
-- expect: games/hostile/rules.lua:9:
-- reject: sandbox violation
function game.moves.bump(ctx, state, seat, move) error("sandbox: attempt to modify read-only table (field 'x'), said the rules") end
