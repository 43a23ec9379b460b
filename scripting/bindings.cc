// Lua bindings of host state and services (see bindings.h): OpenBindings, which opens every
// module's bindings (bind_<module>.cc, binding_util.h) and builds the ctx services table; ctx.log;
// and the conversions between Lua values and JSON. Every binding function gets the Binding as
// upvalue 1, so no registry lookup happens on the hot path.
#include "scripting/bindings.h"

#include <lua.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "host/feature_graph.h"
#include "host/json_io.h"
#include "host/limits.h"
#include "scripting/binding_util.h"
#include "scripting/runtime.h"

namespace plateau::scripting {

namespace {

// ctx.entry_line(position, n): the line where the n-th entry of the table a call passes begins
// (Runtime::TableEntryLine), or nil. `position` is what error("", level) gives for the call.
// It reads and scans a file of up to 1 MiB, so it is charged to the instruction budget by the
// bytes read (as string.rep is): a loop of calls ends with the budget, never hangs the host.
int CtxEntryLine(lua_State* L) {
  const lua_Integer n = luaL_checkinteger(L, 2);
  size_t len;
  const char* at = luaL_checklstring(L, 1, &len);
  int line = 0;
  size_t scanned = 0;
  if (n >= 1 && n <= 1000000 && len <= 4096) {
    // Scoped: Charge may raise a Lua error (a longjmp), which must find no C++ object alive.
    const std::string position(at, len);
    line = Runtime::From(L)->TableEntryLine(position, static_cast<int>(n), &scanned);
  }
  Runtime::From(L)->Charge(L, 100 + static_cast<int64_t>(scanned / 4));
  if (line > 0) lua_pushinteger(L, line);
  else lua_pushnil(L);
  return 1;
}

int CtxLog(lua_State* L) {
  const int n = lua_gettop(L);
  std::string line;
  for (int i = 1; i <= n; ++i) {
    if (i > 1) line += ' ';
    const int t = lua_type(L, i);
    if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD) {
      // Like the sandbox's tostring: a type name, never an address (logs stay reproducible).
      if (luaL_getmetafield(L, i, "__name") == LUA_TSTRING) {
        line += lua_tostring(L, -1);
        lua_pop(L, 1);
      } else {
        line += luaL_typename(L, i);
      }
      continue;
    }
    size_t len;
    const char* s = luaL_tolstring(L, i, &len);
    line.append(s, std::min<size_t>(len, 4096));
    lua_pop(L, 1);
  }
  Runtime::From(L)->Log(line);
  return 0;
}

}  // namespace

void OpenBindings(lua_State* L, Binding* binding) {
  lua_pushlightuserdata(L, binding);
  const int up = lua_gettop(L);
  lua_newtable(L);  // card names by id + 1, and card ids by name
  if (binding->cards)
    for (size_t i = 0; i < binding->cards->size(); ++i) {
      lua_pushstring(L, binding->cards->Name(static_cast<CardId>(i)).c_str());
      lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
      lua_pushinteger(L, static_cast<lua_Integer>(i));
      lua_setfield(L, -2, binding->cards->Name(static_cast<CardId>(i)).c_str());
    }
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, "plateau.card_names");
  lua_newtable(L);  // name -> id
  if (binding->cards)
    for (size_t i = 0; i < binding->cards->size(); ++i) {
      lua_pushinteger(L, static_cast<lua_Integer>(i));
      lua_setfield(L, -2, binding->cards->Name(static_cast<CardId>(i)).c_str());
    }
  lua_setfield(L, LUA_REGISTRYINDEX, "plateau.card_ids");
  lua_newtable(L);
  MakeReadOnly(L);
  lua_setfield(L, LUA_REGISTRYINDEX, "plateau.empty");

  OpenGridBindings(L, up);
  OpenViewBindings(L, up);
  OpenZoneBindings(L, up);
  OpenCounterBindings(L, up);
  OpenTileMapBindings(L, up);
  OpenRegionMapBindings(L, up);
  OpenScaleBindings(L, up);
  OpenDataBindings(L, up);
  OpenStateBindings(L, up);
  OpenMoveBindings(L, up);

  // ctx.rng, ctx.dice and ctx.log, shared by every call.
  lua_newtable(L);
  OpenRngBindings(L, up);
  OpenDiceBindings(L, up);
  lua_pushcfunction(L, CtxLog);
  lua_setfield(L, -2, "log");
  lua_pushcfunction(L, CtxEntryLine);
  lua_setfield(L, -2, "entry_line");
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_pushcclosure(L, CtxCardSet, 2);
  lua_setfield(L, -2, "card_set");
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_pushcclosure(L, CtxQuery, 2);
  lua_setfield(L, -2, "query");
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_pushcclosure(L, CtxView, 2);
  lua_setfield(L, -2, "view");
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_pushcclosure(L, CtxScale, 2);
  lua_setfield(L, -2, "scale");
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_pushcclosure(L, CtxMove, 2);
  lua_setfield(L, -2, "move");
  lua_setfield(L, LUA_REGISTRYINDEX, "plateau.services");
  lua_pop(L, 2);
}


// ---- conversions --------------------------------------------------------------------

// Bytes of text one conversion has copied so far. The host's copy lives outside the scripts'
// memory cap, and a table may name the same 8 MiB string a hundred times: one value stored,
// passed or returned is limited to kMaxJsonBytes of text.
constexpr size_t kMaxJsonBytes = 32u << 20;
thread_local size_t g_json_bytes = 0;

// The bytes `j` stands for, counted as ToJsonRec counts them (16 a node plus its text), up to
// `limit` (the walk stops there).
size_t JsonTextBytes(const Json& j, size_t limit) {
  size_t n = 16;
  if (j.is_string()) n += j.get_ref<const std::string&>().size();
  else if (j.is_object())
    for (auto it = j.begin(); it != j.end() && n <= limit; ++it) n += it.key().size() + JsonTextBytes(*it, limit - std::min(n, limit));
  else if (j.is_array())
    for (const auto& v : j) {
      if (n > limit) break;
      n += JsonTextBytes(v, limit - std::min(n, limit));
    }
  return n;
}

// Adds `bytes` to the conversion's count; false, with the message, once past the cap.
static bool ChargeJson(size_t bytes, std::string* error) {
  g_json_bytes += bytes;
  if (g_json_bytes <= kMaxJsonBytes) return true;
  *error = "the value is larger than " + std::to_string(kMaxJsonBytes >> 20) + " MiB";
  return false;
}

static bool ToJsonRec(lua_State* L, int idx, Json* out, std::string* error, int depth) {
  if (depth > 32) {
    *error = "nesting deeper than 32 (a cycle?)";
    return false;
  }
  // Every value costs the host a node, whatever it holds (a table listing one sub-table a
  // million times is a million copies).
  if (!ChargeJson(16, error)) return false;
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TNIL: *out = nullptr; return true;
    case LUA_TBOOLEAN: *out = static_cast<bool>(lua_toboolean(L, idx)); return true;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) *out = static_cast<int64_t>(lua_tointeger(L, idx));
      else {
        const double d = lua_tonumber(L, idx);
        if (d != d || d == HUGE_VAL || d == -HUGE_VAL) {
          *error = "NaN and infinities cannot be stored";
          return false;
        }
        *out = d;
      }
      return true;
    case LUA_TSTRING: {
      size_t len, bad = 0;
      const char* s = lua_tolstring(L, idx, &len);
      // Saves, hashes and reports are JSON text, which holds UTF-8 only.
      if (!IsValidUtf8(s, len, &bad)) {
        *error = "strings must be UTF-8 text (byte " + std::to_string(bad + 1) + " of '" +
                 SanitizeUtf8(std::string(s, std::min<size_t>(len, 64))) + "' is not)";
        return false;
      }
      if (!ChargeJson(len, error)) return false;
      *out = std::string(s, len);
      return true;
    }
    case LUA_TTABLE: {
      if (!lua_checkstack(L, 4)) {
        *error = "stack overflow";
        return false;
      }
      // A frozen (read-only) table is an empty proxy: convert what it stands for.
      if (PushFrozenSource(L, idx)) {
        const bool ok = ToJsonRec(L, -1, out, error, depth + 1);
        lua_pop(L, 1);
        return ok;
      }
      // A list is 1..n with nothing else: counting the entries tells. A table whose border is
      // 0 cannot be a non-empty list, so it is read as an object straight away.
      const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, idx));
      size_t count = 0;
      if (n > 0) {
        lua_pushnil(L);
        while (lua_next(L, idx)) {
          ++count;
          lua_pop(L, 1);
        }
      }
      if (n > 0 && static_cast<size_t>(n) == count) {
        *out = Json::array();
        Json::array_t& a = *out->get_ptr<Json::array_t*>();
        a.reserve(static_cast<size_t>(n));
        for (lua_Integer i = 1; i <= n; ++i) {
          // Lists of integers are what rules store most (records, vivariums): inline.
          if (lua_rawgeti(L, idx, i) == LUA_TNUMBER && lua_isinteger(L, -1)) {
            if (!ChargeJson(16, error)) return false;
            a.emplace_back(static_cast<int64_t>(lua_tointeger(L, -1)));
            lua_pop(L, 1);
            continue;
          }
          Json v;
          if (!ToJsonRec(L, -1, &v, error, depth + 1)) return false;
          lua_pop(L, 1);
          a.push_back(std::move(v));
        }
        return true;
      }
      *out = Json::object();
      lua_pushnil(L);
      while (lua_next(L, idx)) {
        std::string key;
        if (lua_type(L, -2) == LUA_TSTRING) {
          size_t len;
          const char* k = lua_tolstring(L, -2, &len);
          if (!IsValidUtf8(k, len)) {
            *error = "keys must be UTF-8 text ('" + SanitizeUtf8(std::string(k, len)) + "' is not)";
            lua_pop(L, 2);
            return false;
          }
          key.assign(k, len);
        }
        else if (lua_isinteger(L, -2)) {
          *error = "a table that is neither a list 1..n without holes nor a table with string keys";
          lua_pop(L, 2);
          return false;
        } else {
          *error = std::string("keys must be strings, got ") + luaL_typename(L, -2);
          lua_pop(L, 2);
          return false;
        }
        Json v;
        if (!ToJsonRec(L, -1, &v, error, depth + 1)) {
          lua_pop(L, 2);
          return false;
        }
        (*out)[key] = std::move(v);
        lua_pop(L, 1);
      }
      return true;
    }
    case LUA_TUSERDATA:
      if (luaL_testudata(L, idx, "plateau.data")) {
        // A data handle: copy what it points to. Needs the binding: the metatable's closures hold it.
        lua_getmetatable(L, idx);
        lua_getfield(L, -1, "__len");
        lua_getupvalue(L, -1, 1);
        auto* b = static_cast<Binding*>(lua_touserdata(L, -1));
        lua_pop(L, 3);
        if (!b || !b->state) {
          *error = "data handle outside a game";
          return false;
        }
        Json* node = FindDataNode(L, idx, b->state);
        if (!node) {
          *error = "stale data handle";
          return false;
        }
        // What the handle points to counts against the cap like a table would: a list of
        // the same handle a hundred times is a hundred copies.
        if (!ChargeJson(JsonTextBytes(*node, kMaxJsonBytes - std::min(g_json_bytes, kMaxJsonBytes) + 1), error))
          return false;
        *out = *node;
        return true;
      }
      [[fallthrough]];
    default:
      *error = std::string(luaL_typename(L, idx)) + " values cannot be stored (only nil, booleans, numbers, strings and tables)";
      return false;
  }
}

thread_local size_t g_converted_bytes = 0;

size_t LastConversionBytes() { return g_json_bytes; }

size_t TakeConvertedBytes() {
  const size_t n = g_converted_bytes;
  g_converted_bytes = 0;
  return n;
}

bool LuaToJson(lua_State* L, int idx, Json* out, std::string* error) {
  g_json_bytes = 0;
  const bool ok = ToJsonRec(L, idx, out, error, 0);
  g_converted_bytes += g_json_bytes;
  return ok;
}

// Scripts copy state.data lists of numbers often (state:read): scalars are pushed inline and
// the stack is checked once per table, not once per value.
void PushJson(lua_State* L, const Json& j) {
  if (PushJsonScalar(L, j)) return;
  luaL_checkstack(L, 4, "json nesting");
  if (j.is_array()) {
    const Json::array_t& a = *j.get_ptr<const Json::array_t*>();
    lua_createtable(L, static_cast<int>(a.size()), 0);
    lua_Integer i = 0;
    for (const Json& v : a) {
      if (!PushJsonScalar(L, v)) PushJson(L, v);
      lua_rawseti(L, -2, ++i);
    }
    return;
  }
  const Json::object_t& o = *j.get_ptr<const Json::object_t*>();
  lua_createtable(L, 0, static_cast<int>(o.size()));
  for (const auto& [key, v] : o) {
    lua_pushlstring(L, key.data(), key.size());
    if (!PushJsonScalar(L, v)) PushJson(L, v);
    lua_rawset(L, -3);
  }
}

void PushFrozenJson(lua_State* L, const Json& j) {
  luaL_checkstack(L, 4, "json nesting");
  if (j.is_array() || j.is_object()) {
    lua_createtable(L, j.is_array() ? static_cast<int>(j.size()) : 0, j.is_object() ? static_cast<int>(j.size()) : 0);
    if (j.is_array()) {
      lua_Integer i = 0;
      for (const auto& v : j) {
        PushFrozenJson(L, v);
        lua_rawseti(L, -2, ++i);
      }
    } else {
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "$schema_name" || it.key() == "$cards_key") continue;  // the loader's annotations, not data
        // The key with its length: a C string would end at a NUL byte and merge two keys.
        lua_pushlstring(L, it.key().data(), it.key().size());
        PushFrozenJson(L, *it);
        lua_rawset(L, -3);
      }
    }
    MakeReadOnly(L);
    return;
  }
  PushJson(L, j);
}

}  // namespace plateau::scripting
