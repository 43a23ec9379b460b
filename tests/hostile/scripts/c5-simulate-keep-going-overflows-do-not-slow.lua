-- Half the games overflow the C stack; with --keep-going the other games are not slowed by the
-- earlier overflows (the VM is reset): 60 games within seconds.
-- class: 5
-- command: simulate {game} -n 60 --players 2 --bots random --threads 1 --keep-going
-- expect-exit: 1
-- expect: games/hostile/rules.lua:
-- limit: 10
local function f(s) return (s:gsub(".", f)) end
function game.setup(ctx, state) state.data.count = 0 state.data.added = {0, 0} state.data.bad = ctx.rng:int(1, 2) == 1 end
function game.moves.bump(ctx, state, seat, move)
  if state.data.bad then f("x") end
  state.data.count = state.data.count + move.by
  state.data.added[seat] = state.data.added[seat] + move.by
end
