// Lua bindings of zones (host/zone.h): decks, hands and discard piles of cards. state:zone,
// state:add_zone and the zone handle's methods (cards, count, add, del, shuffle, draw,
// reshuffle_into); cards are checked by name, seats as everywhere (CheckSeat).
#include <string>
#include <vector>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

// ---- zone -----------------------------------------------------------------------------

struct ZoneRef {
  int index;
};

Zone* CheckZone(lua_State* L, int arg, bool write) {
  auto* ref = static_cast<ZoneRef*>(luaL_checkudata(L, arg, "plateau.zone"));
  State* s = write ? Writable(L, StateUndo::kZones) : Readable(L);
  if (ref->index < 0 || ref->index >= static_cast<int>(s->zones.size())) Raise(L, "stale zone handle");
  return &s->zones[static_cast<size_t>(ref->index)];
}

int ZoneCards(lua_State* L) {
  Zone* z = CheckZone(L, 1, false);
  lua_createtable(L, static_cast<int>(z->cards.size()), 0);
  for (size_t i = 0; i < z->cards.size(); ++i) {
    PushCardName(L, z->cards[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

int ZoneCount(lua_State* L) {
  Zone* z = CheckZone(L, 1, false);
  if (lua_isnoneornil(L, 2)) {
    lua_pushinteger(L, static_cast<lua_Integer>(z->cards.size()));
    return 1;
  }
  const CardId card = CheckCard(L, 2);
  lua_pushinteger(L, static_cast<lua_Integer>(std::count(z->cards.begin(), z->cards.end(), card)));
  return 1;
}

// The host's account of cards: one zone holds at most kZoneCards, and all zones together
// kStateCards (summed every 65,536 cards a zone grows by, so adding stays cheap).
void CheckZoneCards(lua_State* L, const Zone& z) {
  if (static_cast<int64_t>(z.cards.size()) >= limits::kZoneCards)
    Raise(L, "zone '" + z.name + "' would hold more than " + std::to_string(limits::kZoneCards) + " cards");
  if ((z.cards.size() & 0xffff) != 0) return;
  int64_t total = 0;
  for (const Zone& other : Readable(L)->zones) total += static_cast<int64_t>(other.cards.size());
  if (total > limits::kStateCards)
    Raise(L, "the state's zones would hold more than " + std::to_string(limits::kStateCards) + " cards");
}

int ZoneAdd(lua_State* L) {
  Zone* z = CheckZone(L, 1, true);
  const CardId card = CheckCard(L, 2);
  CheckZoneCards(L, *z);
  z->cards.push_back(card);
  return 0;
}

int ZoneDel(lua_State* L) {
  Zone* z = CheckZone(L, 1, true);
  lua_pushboolean(L, RemoveCard(z, CheckCard(L, 2)));
  return 1;
}

int ZoneShuffle(lua_State* L) {
  Zone* z = CheckZone(L, 1, true);
  State* s = Writable(L);
  Shuffle(z, &s->rng);
  if (s->record) s->Log(-1, "shuffle", {{"zone", z->name}, {"cards", z->cards.size()}});
  return 0;
}

// discard:reshuffle_into(deck): every card of this zone goes into `deck`, which is shuffled.
int ZoneReshuffleInto(lua_State* L) {
  Zone* from = CheckZone(L, 1, true);
  Zone* to = CheckZone(L, 2, true);
  if (from == to) Raise(L, "cannot reshuffle a zone into itself");
  State* s = Writable(L);
  Reshuffle(from, to, &s->rng);
  if (s->record) s->Log(-1, "shuffle", {{"zone", to->name}, {"cards", to->cards.size()}});
  return 0;
}

int ZoneDraw(lua_State* L) {
  Zone* from = CheckZone(L, 1, true);
  Zone* to = CheckZone(L, 2, true);
  const lua_Integer n = OptIntRange(L, 3, 1, 0, limits::kZoneCards, "card count");
  const size_t before = to->cards.size();
  const int drawn = Draw(from, to, static_cast<int>(n));
  lua_createtable(L, drawn, 0);
  for (int i = 0; i < drawn; ++i) {
    PushCardName(L, to->cards[before + static_cast<size_t>(i)]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

}  // namespace

int StateZone(lua_State* L) {
  State* s = Readable(L);
  const char* name = luaL_checkstring(L, 2);
  const int owner = lua_isnoneornil(L, 3) ? -1 : CheckSeat(L, 3, *s);
  const int index = s->ZoneIndex(name, owner);
  if (index < 0) Raise(L, "no zone '" + State::Key(name, owner) + "'");
  auto* ref = static_cast<ZoneRef*>(lua_newuserdatauv(L, sizeof(ZoneRef), 0));
  ref->index = index;
  luaL_setmetatable(L, "plateau.zone");
  return 1;
}

// state:add_zone(name, seat|nil, "hidden"|"owner"|"public", [cards])
int StateAddZone(lua_State* L) {
  State* s = Writable(L, StateUndo::kZones);
  const char* name = luaL_checkstring(L, 2);
  const int owner = lua_isnoneornil(L, 3) ? -1 : CheckSeat(L, 3, *s);
  Visibility vis;
  if (!ParseVisibility(luaL_optstring(L, 4, "hidden"), &vis)) RaiseArg(L, 4, "visibility must be hidden, owner or public");
  if (s->FindZone(name, owner)) Raise(L, "zone '" + State::Key(name, owner) + "' already exists");
  if (static_cast<int64_t>(s->zones.size()) >= limits::kComponents)
    Raise(L, "a state holds at most " + std::to_string(limits::kComponents) + " zones");
  Zone* z = s->AddZone(name, owner, vis);
  if (lua_istable(L, 5)) {
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 5));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, 5, i);
      const CardId c = B(L)->cards->Find(luaL_checkstring(L, -1));
      if (c == kNoCard) Raise(L, std::string("unknown card '") + lua_tostring(L, -1) + "'" + B(L)->cards->Suggest(lua_tostring(L, -1)));
      CheckZoneCards(L, *z);
      z->cards.push_back(c);
      lua_pop(L, 1);
    }
  }
  auto* ref = static_cast<ZoneRef*>(lua_newuserdatauv(L, sizeof(ZoneRef), 0));
  ref->index = s->ZoneIndex(name, owner);
  luaL_setmetatable(L, "plateau.zone");
  return 1;
}

void OpenZoneBindings(lua_State* L, int up) {
  static const luaL_Reg zone_methods[] = {{"cards", ZoneCards}, {"count", ZoneCount}, {"add", ZoneAdd},
                                          {"del", ZoneDel},     {"shuffle", ZoneShuffle}, {"draw", ZoneDraw},
                                          {"reshuffle_into", ZoneReshuffleInto}, {nullptr, nullptr}};
  RegisterHandle(L, "plateau.zone", zone_methods, up);
}

}  // namespace plateau::scripting
