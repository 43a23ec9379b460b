-- describe returns text that is not UTF-8: refused or shown with the bytes replaced visibly as
-- '?', consistently with error messages; never a crash.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots human
-- stdin: 1\n1\n1\n1\n1\n1\n
-- expect-exit: 0|1
-- expect-fail: games/hostile/rules.lua:8:
function game.describe(ctx, state, seat, move) return "add \xff" .. move.by end
