// Lua bindings of counters and tracks (host/counter.h): state:counter, state:track,
// state:add_counter, state:add_track and their handles' methods. A handle names a key of the
// state, not the state itself, so it stays valid across calls.
#include <cstring>
#include <string>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

// ---- counters and tracks ----------------------------------------------------------------

struct KeyRef {
  char key[64];
};

void PushKeyRef(lua_State* L, const std::string& key, const char* meta) {
  auto* ref = static_cast<KeyRef*>(lua_newuserdatauv(L, sizeof(KeyRef), 0));
  std::snprintf(ref->key, sizeof ref->key, "%s", key.c_str());
  luaL_setmetatable(L, meta);
}

Counter* CheckCounter(lua_State* L, bool write) {
  auto* ref = static_cast<KeyRef*>(luaL_checkudata(L, 1, "plateau.counter"));
  State* s = write ? Writable(L, StateUndo::kCounters) : Readable(L);
  auto it = s->counters.find(ref->key);
  if (it == s->counters.end()) Raise(L, std::string("no counter '") + ref->key + "'");
  return &it->second;
}

int CounterGet(lua_State* L) {
  lua_pushinteger(L, CheckCounter(L, false)->value);
  return 1;
}
// c:add(n) -> the amount actually added (caps clamp it), the amount lost to the cap
int CounterAdd(lua_State* L) {
  Counter* c = CheckCounter(L, true);
  const int64_t lost_before = c->lost;
  lua_pushinteger(L, c->Add(CheckIntRange(L, 2, -INT64_MAX, INT64_MAX, "counter change")));
  lua_pushinteger(L, c->lost - lost_before);
  return 2;
}
int CounterSet(lua_State* L) {
  Counter* c = CheckCounter(L, true);
  const int64_t v = CheckIntRange(L, 2, INT64_MIN, INT64_MAX, "counter value");
  c->value = std::clamp(v, c->min, c->max);
  return 0;
}
// c:limits() -> min, max (nil when uncapped), total lost to the cap so far
int CounterLimits(lua_State* L) {
  Counter* c = CheckCounter(L, false);
  lua_pushinteger(L, c->min);
  if (c->max == INT64_MAX) lua_pushnil(L);
  else lua_pushinteger(L, c->max);
  lua_pushinteger(L, c->lost);
  return 3;
}

Track* CheckTrack(lua_State* L, bool write) {
  auto* ref = static_cast<KeyRef*>(luaL_checkudata(L, 1, "plateau.track"));
  State* s = write ? Writable(L, StateUndo::kTracks) : Readable(L);
  auto it = s->tracks.find(ref->key);
  if (it == s->tracks.end()) Raise(L, std::string("no track '") + ref->key + "'");
  return &it->second;
}
// t:get() -> position (1-based), laps
int TrackGet(lua_State* L) {
  Track* t = CheckTrack(L, false);
  lua_pushinteger(L, t->position + 1);
  lua_pushinteger(L, t->laps);
  return 2;
}
// t:move(steps) -> new position (1-based), laps
int TrackMove(lua_State* L) {
  Track* t = CheckTrack(L, true);
  t->Advance(CheckIntRange(L, 2, INT64_MIN / 2, INT64_MAX / 2, "track steps"));
  lua_pushinteger(L, t->position + 1);
  lua_pushinteger(L, t->laps);
  return 2;
}
int TrackLength(lua_State* L) {
  lua_pushinteger(L, CheckTrack(L, false)->length);
  return 1;
}

}  // namespace

// Counter handles name a key, not a state, so one handle per key is reused (kept in a
// weak table: scripts look the same counters up on every call).
int StateCounter(lua_State* L) {
  State* s = Readable(L);
  const std::string key = OwnedKey(L, 2, 3, *s);
  if (!s->counters.count(key)) Raise(L, "no counter '" + key + "'");
  PushWeakRegistryTable(L, "plateau.counter_handles", "v");
  if (lua_getfield(L, -1, key.c_str()) == LUA_TUSERDATA) return 1;
  lua_pop(L, 1);
  PushKeyRef(L, key, "plateau.counter");
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, key.c_str());
  return 1;
}

int StateTrack(lua_State* L) {
  State* s = Readable(L);
  const std::string key = OwnedKey(L, 2, 3, *s);
  if (!s->tracks.count(key)) Raise(L, "no track '" + key + "'");
  PushKeyRef(L, key, "plateau.track");
  return 1;
}

// state:add_counter(name, seat|nil, {value=, min=, max=})
int StateAddCounter(lua_State* L) {
  State* s = Writable(L, StateUndo::kCounters);
  const std::string key = OwnedKey(L, 2, 3, *s);
  if (key.size() >= 63) RaiseArg(L, 2, "counter name too long");
  Counter c;
  if (lua_istable(L, 4)) {
    c.min = FieldIntRange(L, 4, "min", 0, INT64_MIN, INT64_MAX, "counter");
    c.max = FieldIntRange(L, 4, "max", INT64_MAX, INT64_MIN, INT64_MAX, "counter");
    c.value = FieldIntRange(L, 4, "value", c.min, INT64_MIN, INT64_MAX, "counter");
  }
  if (c.min > c.max || c.value < c.min || c.value > c.max) Raise(L, "counter '" + key + "': needs min <= value <= max");
  if (s->counters.count(key)) Raise(L, "counter '" + key + "' already exists");
  if (static_cast<int64_t>(s->counters.size()) >= limits::kComponents)
    Raise(L, "a state holds at most " + std::to_string(limits::kComponents) + " counters");
  s->counters[key] = c;
  PushKeyRef(L, key, "plateau.counter");
  return 1;
}

// state:add_track(name, {length=, circular=, position=})
int StateAddTrack(lua_State* L) {
  State* s = Writable(L, StateUndo::kTracks);
  const std::string key = luaL_checkstring(L, 2);
  if (key.size() >= 63) RaiseArg(L, 2, "track name too long");
  luaL_checktype(L, 3, LUA_TTABLE);
  Track t;
  lua_getfield(L, 3, "length");
  if (lua_isnil(L, -1)) Raise(L, "track '" + key + "': field 'length' is missing");
  lua_pop(L, 1);
  const std::string what = "track '" + key + "'";
  t.length = static_cast<int>(FieldIntRange(L, 3, "length", 1, 1, limits::kTrackLength, what.c_str()));
  lua_getfield(L, 3, "circular");
  t.circular = lua_toboolean(L, -1);
  lua_pop(L, 1);
  t.position = static_cast<int>(FieldIntRange(L, 3, "position", 1, 1, t.length, what.c_str())) - 1;
  if (static_cast<int64_t>(s->tracks.size()) >= limits::kComponents)
    Raise(L, "a state holds at most " + std::to_string(limits::kComponents) + " tracks");
  if (s->tracks.count(key)) Raise(L, "track '" + key + "' already exists");
  s->tracks[key] = t;
  PushKeyRef(L, key, "plateau.track");
  return 1;
}

void OpenCounterBindings(lua_State* L, int up) {
  static const luaL_Reg counter_methods[] = {{"get", CounterGet}, {"add", CounterAdd}, {"set", CounterSet},
                                             {"limits", CounterLimits}, {nullptr, nullptr}};
  RegisterHandle(L, "plateau.counter", counter_methods, up);
  static const luaL_Reg track_methods[] = {{"get", TrackGet}, {"move", TrackMove}, {"length", TrackLength},
                                           {nullptr, nullptr}};
  RegisterHandle(L, "plateau.track", track_methods, up);
}

}  // namespace plateau::scripting
