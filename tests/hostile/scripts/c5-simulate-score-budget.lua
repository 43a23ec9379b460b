-- score exhausts its budget at the end of every game: stopped at the first.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots random
-- expect-exit: 1
-- expect: instruction budget
-- expect: seed 1
-- limit: 10
function game.score(ctx, state) while true do end end
