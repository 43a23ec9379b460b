-- The totals hook gives the greedy bot NaN for a seat: refused naming the hook, its line and
-- the seat, before any move is ranked by it.
-- class: 1
-- command: simulate {game} -n 3 --players 2 --bots greedy --threads 1
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
-- expect: totals: total for seat 1 is
-- expect: nan, an integer within
function game.totals(ctx, state) return {0 / 0, 0} end
