-- Safari: the helpers over state.data that several rule modules share: the log a turn's
-- scoring leaves for the view, the animal markers (drawn, spent, usable now), the vehicle on a
-- cell and the draw of the next tile.

local MAP = require("safari.data").MAP

local M = {}

-- What a scoring awarded and why: kept for the view and told to `plateau play` (ctx.log).
function M.say(ctx, state, text)
  local log = state.data.log
  log[#log + 1] = text
  ctx.log(text)
end

-- Draws n markers into the seat's hand from the face-down supply, reshuffling the spent ones
-- when it runs out; `fresh` notes them as won this turn. Returns how many it drew.
function M.draw_markers(ctx, state, seat, n, fresh)
  local supply, spent = state.data.supply, state.data.spent
  local hand = state.data.markers[seat]
  local got = 0
  for _ = 1, n do
    if #supply == 0 and #spent > 0 then
      local pile = state:read("spent")
      ctx.rng:shuffle(pile)
      state.data.supply = pile
      state.data.spent = {}
      supply, spent = state.data.supply, state.data.spent
      state.data.tally.reshuffles = state.data.tally.reshuffles + 1
    end
    local k = #supply
    if k == 0 then break end
    hand[#hand + 1] = supply[k]
    if fresh then
      local f = state.data.fresh[seat]
      f[#f + 1] = supply[k]
    end
    supply[k] = nil
    got = got + 1
  end
  return got
end

-- Markers a seat may spend now (not those won this turn when they must wait).
function M.usable_markers(state, seat)
  local hand = state:read("markers")[seat]
  local fresh = state:read("fresh")[seat]
  if #fresh == 0 then return hand end
  local left = {}
  for _, sp in ipairs(fresh) do left[sp] = (left[sp] or 0) + 1 end
  local out = {}
  for _, sp in ipairs(hand) do
    if (left[sp] or 0) > 0 then left[sp] = left[sp] - 1 else out[#out + 1] = sp end
  end
  return out
end

function M.take_marker(state, seat, species)
  local hand = state.data.markers[seat]
  for i = #hand, 1, -1 do
    if hand[i] == species then
      table.remove(hand, i)
      return true
    end
  end
  return false
end

-- The vehicle (1 or 2) on cell (r, c), or nil.
function M.vehicle_at(vehicles, r, c)
  for i, v in ipairs(vehicles) do
    if v[1] == r and v[2] == c then return i end
  end
  return nil
end

-- Draws the next player's tile, setting aside any that fits nowhere; false when none is left.
function M.draw_tile(state)
  local map = state:tile_map(MAP)
  local bag = state.data.bag
  while #bag > 0 do
    local t = bag[#bag]
    bag[#bag] = nil
    if map:can_place(t) then
      state.data.tile = t
      return true
    end
    local aside = state.data.aside
    aside[#aside + 1] = t
  end
  state.data.tile = nil
  return false
end

return M
