// Lua bindings of scales (host/region_map.h): ctx.scale(id) from the game's scales data file,
// and the handle's methods. Buckets are 1-based in Lua; values must be finite numbers.
#include <cmath>
#include <cstring>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

struct ScaleRef {
  const Scale* scale;
};

const Scale& CheckScale(lua_State* L) { return *static_cast<ScaleRef*>(luaL_checkudata(L, 1, "plateau.scale"))->scale; }

int CheckBucket(lua_State* L, int arg, const Scale& s) {
  const lua_Integer b = CheckIntRange(L, arg, INT64_MIN, INT64_MAX, "bucket");
  if (b < 1 || b > static_cast<lua_Integer>(s.buckets.size()))
    RaiseArg(L, arg, "the " + s.id + " scale has buckets 1.." + std::to_string(s.buckets.size()) + ", not " + std::to_string(b));
  return static_cast<int>(b - 1);
}

// s:bucket(value) -> the bucket holding the value (1-based), or nil when none does
int ScBucket(lua_State* L) {
  const Scale& s = CheckScale(L);
  const double v = luaL_checknumber(L, 2);
  if (!std::isfinite(v)) RaiseArg(L, 2, "a measure must be a finite number");
  const int b = s.BucketOf(v);
  if (b < 0) return 0;
  lua_pushinteger(L, b + 1);
  return 1;
}

// s:neighbors(bucket) -> the buckets beside it (1 or 2)
int ScNeighbors(lua_State* L) {
  const Scale& s = CheckScale(L);
  const int b = CheckBucket(L, 2, s);
  lua_newtable(L);
  int n = 0;
  if (b > 0) {
    lua_pushinteger(L, b);
    lua_rawseti(L, -2, ++n);
  }
  if (b + 1 < static_cast<int>(s.buckets.size())) {
    lua_pushinteger(L, b + 2);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

int ScCount(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(CheckScale(L).buckets.size()));
  return 1;
}

// s:label(bucket) -> its label; s:range(bucket) -> min, max; s:unit(), s:id()
int ScLabel(lua_State* L) {
  const Scale& s = CheckScale(L);
  lua_pushstring(L, s.buckets[static_cast<size_t>(CheckBucket(L, 2, s))].label.c_str());
  return 1;
}

int ScRange(lua_State* L) {
  const Scale& s = CheckScale(L);
  const ScaleBucket& b = s.buckets[static_cast<size_t>(CheckBucket(L, 2, s))];
  lua_pushnumber(L, b.min);
  lua_pushnumber(L, b.max);
  return 2;
}

int ScUnit(lua_State* L) {
  lua_pushstring(L, CheckScale(L).unit.c_str());
  return 1;
}

int ScId(lua_State* L) {
  lua_pushstring(L, CheckScale(L).id.c_str());
  return 1;
}

}  // namespace

// ctx.scale(id) -> the scale's handle
int CtxScale(lua_State* L) {
  const ScaleSet* set = B(L)->scales;
  if (!set) Raise(L, "this game has no scales data file (a data entry with \"schema\": \"scales\" in game.json)");
  const char* id = luaL_checkstring(L, 1);
  const Scale* s = set->Find(id);
  if (!s) {
    std::string known;
    for (const auto& sc : set->scales) known += (known.empty() ? "" : ", ") + sc.id;
    RaiseArg(L, 1, std::string("unknown scale '") + id + "' (scales: " + known + ")");
  }
  auto* ref = static_cast<ScaleRef*>(lua_newuserdatauv(L, sizeof(ScaleRef), 0));
  ref->scale = s;
  luaL_setmetatable(L, "plateau.scale");
  return 1;
}

void OpenScaleBindings(lua_State* L, int up) {
  static const luaL_Reg methods[] = {{"bucket", ScBucket}, {"neighbors", ScNeighbors}, {"count", ScCount},
                                     {"label", ScLabel},   {"range", ScRange},         {"unit", ScUnit},
                                     {"id", ScId},         {nullptr, nullptr}};
  RegisterHandle(L, "plateau.scale", methods, up);
}

}  // namespace plateau::scripting
