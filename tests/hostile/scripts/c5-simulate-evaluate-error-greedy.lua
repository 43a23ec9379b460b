-- evaluate fails in every game the greedy bot plays: stopped at the first, with the seed.
-- class: 5
-- command: simulate {game} -n 200 --players 2 --bots greedy
-- expect-exit: 1
-- expect: games/hostile/rules.lua:8:
-- expect: seed 1
-- limit: 10
function game.evaluate(ctx, state, seat) error("no opinion") end
