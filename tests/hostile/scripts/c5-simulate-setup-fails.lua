-- setup fails for every game: the run ends with the rules' message (naming the line) at once.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- limit: 10
function game.setup(ctx, state) error("cannot set up") end
