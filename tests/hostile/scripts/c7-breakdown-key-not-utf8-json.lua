-- The same non-UTF-8 category through simulate --format json: refused, not rewritten.
-- class: 7
-- command: simulate {game} -n 5 --players 2 --bots random --threads 1 --format json
-- expect-exit: 1
-- expect: games/hostile/rules.lua:9:
-- expect: UTF-8
-- reject: \ufffd
-- reject: �
function game.score(ctx, state) return {{breakdown = {["\xff\xfe"] = 1}}, {breakdown = {["\xff\xfe"] = 1}}} end
