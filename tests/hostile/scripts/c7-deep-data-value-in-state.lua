-- A state.data value nested 100,000 deep (built in a loop): refused by the documented 32
-- levels, naming the line; not a stack overflow in the host's conversion.
-- class: 7
-- command: play {game} --players 2 --seed 1 --bots random
-- expect-exit: 1
-- expect: games/hostile/rules.lua:12:
-- expect: state.data
function game.setup(ctx, state)
  state.data.count = 0 state.data.added = {0, 0}
  local t = {}
  for i = 1, 100000 do t = {t} end
  state.data.deep = t
end
