-- A syntax error: exit 1 naming the file and line.
-- class: 0
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:6:
local x = = 1
