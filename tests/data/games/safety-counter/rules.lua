-- Test game for lua_rules_safety_test: seats take turns to bump a shared counter; the other
-- move types misbehave in one specific way each (error, loop, refusal, memory, swallowing).
local game = {api_version = 1, moves = {}, categories = {'bumps'}}

local MOVES = {'bump', 'fail_after_write', 'loop_after_write', 'refuse_after_write', 'work',
               'hog_memory', 'swallow_budget', 'roll_then_fail', 'bad_type', 'store_cycle',
               'shuffle_loop', 'len_loop', 'touch_everything_then_fail', 'ask_self', 'ask_twice',
               'overwrite_then_grow', 'overwrite_then_grow_then_fail'}

function game.setup(ctx, state)
  state.data.count = 0
  state.data.turn = 1
  state.data.history = {}
  state.data.deep = {a = {b = {c = 1}}, list = {1, 2, 3}}
  state:add_counter('coins', 1, {value = 3, max = 10})
  state:add_track('clock', {length = 6, circular = true})
  state:add_zone('bag', nil, 'hidden', {'token', 'blank', 'token'})
  state:add_zone('shown', nil, 'public')
  state:add_grid('board', nil, {rows = 3, cols = 3, must_touch = false})
end

function game.to_move(ctx, state)
  if state.data.count >= 100 then return {} end
  return {state.data.turn}
end

function game.legal_moves(ctx, state, seat)
  local out = {}
  for i, name in ipairs(MOVES) do out[i] = {type = name} end
  return out
end

local function next_turn(state, seat)
  state.data.turn = seat % state.player_count + 1
end

function game.moves.bump(ctx, state, seat, move)
  state.data.count = state.data.count + 1
  -- table.insert on a state.data array (a host proxy with __len) must keep working.
  table.insert(state.data.history, seat)
  next_turn(state, seat)
end

function game.moves.fail_after_write(ctx, state, seat, move)
  state.data.count = 99
  local h = state.data.history
  h[#h + 1] = seat
  state.data.junk = {nested = {1, 2, 3}}
  state:set_phase('broken')
  error('fails after writing')
end

function game.moves.loop_after_write(ctx, state, seat, move)
  state.data.count = 50
  state.data.junk = 'partial'
  while true do end
end

function game.moves.refuse_after_write(ctx, state, seat, move)
  state.data.count = 7
  return false, 'not now'
end

function game.moves.work(ctx, state, seat, move)
  local s = 0
  for i = 1, 3000000 do s = s + i end
  state.data.work = s
  next_turn(state, seat)
end

function game.moves.hog_memory(ctx, state, seat, move)
  state.data.count = 1
  local t = {}
  for i = 1, 1e9 do t[i] = {i} end
end

function game.moves.swallow_budget(ctx, state, seat, move)
  state.data.count = 3
  pcall(function() while true do end end)
  state.data.count = 4
  next_turn(state, seat)
end

function game.moves.roll_then_fail(ctx, state, seat, move)
  state.data.roll = ctx.rng:int(1, 6) + math.random(1, 6)
  error('after rolling')
end

function game.moves.bad_type(ctx, state, seat, move)
  state.data.count = 5
  state.data.fn = function() end
end

function game.moves.store_cycle(ctx, state, seat, move)
  local t = {}
  t.self = t
  state.data.count = 6
  state.data.cycle = t
end

-- A host binding (ctx.rng:shuffle) calls back into a metamethod that never returns.
function game.moves.shuffle_loop(ctx, state, seat, move)
  state.data.count = 8
  local t = setmetatable({}, {__len = function() return 10 end, __index = function() while true do end end})
  ctx.rng:shuffle(t)
end

-- ctx.rng:pick reads the list's length through __len, which never returns.
function game.moves.len_loop(ctx, state, seat, move)
  state.data.count = 9
  ctx.rng:pick(setmetatable({}, {__len = function() while true do end end}))
end

function game.score(ctx, state)
  local out = {}
  for seat = 1, state.player_count do out[seat] = {breakdown = {bumps = 0}} end
  local h = state.data.history
  for i = 1, #h do
    local b = out[h[i]].breakdown
    b.bumps = b.bumps + 1
  end
  return out
end

-- Writes every part of the state a move can reach, then fails: the undo journal must put
-- each one back exactly.
function game.moves.touch_everything_then_fail(ctx, state, seat, move)
  state.data.count = 42
  state.data.deep.a.b.c = 2
  state.data.deep.list[2] = 20
  table.remove(state.data.deep.list)
  state.data.fresh = {x = 1}
  state.data.history = nil
  state:counter('coins', 1):add(20)
  state:track('clock'):move(8)
  state:zone('bag'):draw(state:zone('shown'), 1)
  state:zone('bag'):shuffle()
  state:add_zone('extra', nil, 'public')
  state:add_counter('late', nil, {value = 1})
  state:grid('board'):add(1, 1, 'token')
  state:ask(seat, {{type = 'bump'}})
  state:set_phase('elsewhere')
  ctx.dice:roll('2d6')
  math.random(6)
  error('fails after touching everything')
end

-- Puts a question to the seat; its only answer fails after writing, so a failed answer must
-- leave the question standing.
function game.moves.ask_self(ctx, state, seat, move)
  state:ask(seat, {{type = 'answer_then_fail'}})
end

-- A question whose answers ask again: the journal must put back the first question exactly.
function game.moves.ask_twice(ctx, state, seat, move)
  state:ask(seat, {{type = 'reask_then_fail'}, {type = 'reask'}})
end

function game.moves.reask_then_fail(ctx, state, seat, move)
  state:ask(seat, {{type = 'answer_then_fail'}})
  error('fails after asking again')
end

function game.moves.reask(ctx, state, seat, move)
  state:ask(seat, {{type = 'answer_then_fail'}})
end

function game.moves.answer_then_fail(ctx, state, seat, move)
  state.data.count = 77
  error('the answer fails')
end

-- Scalars overwritten in place (the journal keeps only their old values), then the same
-- top-level keys changed in shape (the journal copies the key whole), then written again.
local function overwrite_then_grow(state)
  local deep = state.data.deep
  deep.list[1] = 10            -- in place
  deep.list[1] = 11            -- the same place twice
  deep.a.b.c = 7               -- in place, elsewhere under the same key
  deep.list[4] = 4             -- grows the list: the key is copied whole from here on
  deep.list[2] = 20
  state.data.count = 5         -- in place at the top level
  state.data.count = {was = 5} -- then replaced by a table
  state.data.turn = 2          -- in place, and left so
end

function game.moves.overwrite_then_grow(ctx, state, seat, move)
  overwrite_then_grow(state)
end

function game.moves.overwrite_then_grow_then_fail(ctx, state, seat, move)
  overwrite_then_grow(state)
  error('fails after overwriting and growing')
end

return game
