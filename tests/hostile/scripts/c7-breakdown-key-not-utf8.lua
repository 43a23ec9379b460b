-- A breakdown category whose name is not UTF-8: refused like the same key in extra, never
-- rewritten to U+FFFD.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
-- expect: UTF-8
-- reject: �
function game.score(ctx, state) return {{breakdown = {["caf\xe9"] = 1}}, {breakdown = {["caf\xe9"] = 2}}} end
