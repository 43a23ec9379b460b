-- A score line for seat 5 in a 2-player game: refused naming the seat, not ignored or indexed.
-- class: 1
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:7:
-- expect: 5
function game.score(ctx, state) return {{breakdown = {bumps = 1}}, {breakdown = {bumps = 1}}, nil, nil, {breakdown = {bumps = 9}}} end
