-- A non-UTF-8 key in extra: refused (the sibling the breakdown must match).
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- expect: UTF-8
function game.score(ctx, state) return {{breakdown = {bumps = 1}}, {breakdown = {bumps = 1}}}, {["caf\xe9"] = true} end
