-- Chenilles: each move in words, with the data's display names ("evolve a gold-moult
-- caterpillar from birth to grow 1 for 1 water + 1 leaf"), for plateau play and the studio
-- (the `describe` hook). The move's arguments stay what tests and saves use; this only reads
-- them.

local M = {}

local NAMES
local function names(ctx)
  if NAMES then return NAMES end
  NAMES = {}
  local d = ctx.data.chenilles
  for _, list in ipairs({ d.species, d.resources }) do
    for _, e in ipairs(list) do NAMES[e.id] = e.name and e.name.en or e.id end
  end
  return NAMES
end

local function stage_words(id) return (tostring(id):gsub("_", " ")) end

function M.describe(ctx, state, seat, move)
  local a = move.args or {}
  local n = names(ctx)
  local t = move.type
  if t == "evolve" then
    local text = "evolve a " .. (n[a.species] or a.species) .. " from " .. stage_words(a.from) .. " to " ..
                 stage_words(a.to) .. " for " .. a.cost
    if a.needs then text = text .. " (a transformation: needs " .. a.needs .. ", " .. a.odds .. " chance)" end
    if a.failures then text = text .. ", " .. a.failures .. " failure(s) so far" end
    return text
  elseif t == "dromedary" then
    return "take 1 " .. (n[a.resource] or a.resource) .. " (dromedary income, " .. a.left .. " to take)"
  elseif t == "nature" then
    return "go to nature (roll " .. (a.roll or "d6 on the forest board") .. ")"
  elseif t == "roll" then
    local text = "roll " .. a.dice .. (a.on and (" on " .. a.on) or "")
    if a.to then text = text .. " for the transformation to " .. stage_words(a.to) end
    if a.needs then text = text .. " (needs " .. a.needs .. ")" end
    if a.hits_on then text = text .. " (the racket hits on " .. a.hits_on .. ")" end
    return text
  elseif t == "buy" then
    return "buy a " .. (n[a.species] or a.species) .. " at the market for " .. a.price
  elseif t == "trade" then
    if a.deal == "buy" then return "buy " .. a.get .. " at the market for " .. a.give end
    return "sell " .. a.give .. " at the market for " .. a.get
  elseif t == "attack" then
    return "send a kamikaze caterpillar (" .. stage_words(a.stage) .. ") against " .. a.target .. ": pay " .. a.cost ..
           ", destroy " .. a.destroys
  elseif t == "sell" then
    return "sell a " .. (n[a.species] or a.species) .. " (" .. stage_words(a.stage) .. ") for " .. a.price
  elseif t == "insure" then
    return "buy insurance for " .. a.cost
  elseif t == "done" then
    return "go on (no more " .. (a.step == "insure" and "insurance" or a.step == "sell" and "sales" or "of this step") .. ")"
  elseif t == "racket" then
    if a.choice == "pay" then return "pay the racket " .. a.cost end
    return "skip the turn rather than pay the racket"
  elseif t == "end" then
    return "end the turn and take " .. a.gain
  end
  return nil
end

return M
