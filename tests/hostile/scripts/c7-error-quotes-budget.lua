-- The script's own error() quoting the budget message: a script error, not a budget kill.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: script error
-- expect: games/hostile/rules.lua:8:
-- reject: instruction budget exceeded:
function game.moves.bump(ctx, state, seat, move) error("instruction budget of 20000000 exceeded in hook 'moves.bump'") end
