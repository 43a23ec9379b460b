// Lua bindings of the game's own data (state.data, a JSON tree in host/state.h): data handles
// are paths into it, resolved on every access, that read and write like Lua tables and feed
// the undo journal before each write.
#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "host/json_io.h"

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

// ---- data proxies: paths into state.data, resolved on every access -------------------

// A data handle is a userdata whose user values are (parent handle or nil, key): creating a
// child costs one small allocation. Its memory block mirrors that path in plain pointers (the
// user values keep the parent and the key string alive, and Lua never moves an object), so
// resolving walks C pointers, not Lua calls. It also remembers the node it resolved to, for
// the state and epoch it was resolved in (Binding::epoch), and the journal span in which its
// top-level key was last saved.
struct DataHandle {
  State* state = nullptr;
  uint64_t epoch = 0;
  Json* node = nullptr;
  uint64_t journaled = 0;            // StateUndo::session() of the last save of its top-level key
  const DataHandle* parent = nullptr;  // null for the root
  const DataHandle* top = nullptr;     // the handle right under the root on this path (null: root)
  const char* key = nullptr;         // the key in an object parent, or null: `index` in an array
  lua_Integer index = 0;             // 0-based
};

DataHandle* HandleOf(lua_State* L, int idx) { return static_cast<DataHandle*>(lua_touserdata(L, idx)); }

Json* WalkDataNode(const DataHandle* h, State* s) {
  const DataHandle* chain[33];
  int n = 0;
  for (const DataHandle* p = h; p->parent; p = p->parent) {
    if (n == 32) return nullptr;
    chain[n++] = p;
  }
  Json* node = &s->data;
  for (int i = n - 1; i >= 0 && node; --i) {
    const DataHandle* c = chain[i];
    if (c->key) {
      if (!node->is_object()) return nullptr;
      auto it = node->find(c->key);
      node = it == node->end() ? nullptr : &*it;
    } else {
      node = node->is_array() && c->index >= 0 && static_cast<size_t>(c->index) < node->size()
                 ? &(*node)[static_cast<size_t>(c->index)]
                 : nullptr;
    }
  }
  return node;
}

}  // namespace

Json* FindDataNode(lua_State* L, int idx, State* s) {
  DataHandle* h = HandleOf(L, idx);
  const uint64_t epoch = B(L)->epoch;
  if (h->state == s && h->epoch == epoch) return h->node;
  Json* node = WalkDataNode(h, s);
  h->state = s;
  h->epoch = epoch;
  h->node = node;
  return node;
}

namespace {

Json* ResolveData(lua_State* L, int idx, State* s) {
  Json* node = FindDataNode(L, idx, s);
  if (!node) Raise(L, "stale data handle (the table it pointed into was replaced or removed)");
  return node;
}

}  // namespace

// A handle's user values: 1 its parent handle, 2 its key in the parent (a string, or a 0-based
// index), 3 the cache of its child handles (see PushChildHandle).
void PushDataProxy(lua_State* L, int parent_idx, int key_idx) {
  if (parent_idx) parent_idx = lua_absindex(L, parent_idx);
  if (key_idx) key_idx = lua_absindex(L, key_idx);
  auto* h = new (lua_newuserdatauv(L, sizeof(DataHandle), 3)) DataHandle{};
  if (parent_idx) {
    const DataHandle* parent = HandleOf(L, parent_idx);
    h->parent = parent;
    h->top = parent->parent ? parent->top : h;
    if (lua_type(L, key_idx) == LUA_TSTRING) h->key = lua_tostring(L, key_idx);  // kept alive by user value 2
    else h->index = lua_tointeger(L, key_idx);
    lua_pushvalue(L, parent_idx);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, key_idx);
    lua_setiuservalue(L, -2, 2);
  }
  luaL_setmetatable(L, "plateau.data");
}

namespace {

// The handle of the table under key `key_idx` of the handle at `parent_idx`. A handle names a
// path, not a node, so one per path serves every read of it: the parent keeps its children in
// a weak table, and a child read again (in the same hook or a later one) comes back with the
// node it resolved to while the data has not moved.
void PushChildHandle(lua_State* L, int parent_idx, int key_idx) {
  parent_idx = lua_absindex(L, parent_idx);
  key_idx = lua_absindex(L, key_idx);
  if (lua_getiuservalue(L, parent_idx, 3) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 4);
    if (luaL_newmetatable(L, "plateau.weak_values")) {
      lua_pushliteral(L, "v");
      lua_setfield(L, -2, "__mode");
    }
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, parent_idx, 3);
  }
  lua_pushvalue(L, key_idx);
  if (lua_rawget(L, -2) == LUA_TUSERDATA) {
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 1);
  PushDataProxy(L, parent_idx, key_idx);
  lua_pushvalue(L, key_idx);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);
  lua_remove(L, -2);
}

void PushDataValue(lua_State* L, const Json& v, int proxy_idx, int key_idx) {
  switch (v.type()) {
    case Json::value_t::null: lua_pushnil(L); return;
    case Json::value_t::boolean: lua_pushboolean(L, v.get<bool>()); return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: lua_pushinteger(L, v.get<lua_Integer>()); return;
    case Json::value_t::number_float: lua_pushnumber(L, v.get<double>()); return;
    case Json::value_t::string: {
      // With its length: a string may hold NUL bytes, which lua_pushstring would cut at.
      const std::string& text = v.get_ref<const std::string&>();
      lua_pushlstring(L, text.data(), text.size());
      return;
    }
    default: PushChildHandle(L, proxy_idx, key_idx); return;
  }
}

int DataIndex(lua_State* L) {
  State* s = Readable(L);
  Json* node = ResolveData(L, 1, s);
  if (node->is_object()) {
    if (lua_type(L, 2) != LUA_TSTRING) return 0;
    auto it = node->find(lua_tostring(L, 2));
    if (it == node->end()) return 0;
    PushDataValue(L, *it, 1, 2);
    return 1;
  }
  if (node->is_array()) {
    if (!lua_isinteger(L, 2)) return 0;
    const lua_Integer k = lua_tointeger(L, 2);
    if (k < 1 || static_cast<size_t>(k) > node->size()) return 0;
    lua_pushinteger(L, k - 1);
    PushDataValue(L, (*node)[static_cast<size_t>(k - 1)], 1, -1);
    return 1;
  }
  return 0;
}

// Records, in the active undo journal, what a write through the handle at `idx` (with key at
// `key_idx`) will change: the old value of `slot` when the write overwrites that scalar in
// place, else the whole top-level key of state.data it falls under.
void JournalDataWrite(lua_State* L, State* s, int idx, int key_idx, Json* slot) {
  // Every write through a handle passes here: the data's version changes at once, so a cache a
  // script keys on state:data_version() is never read stale later in the same hook.
  s->data_version = NewContentVersion();
  StateUndo* undo = B(L)->undo;
  if (!undo) return;
  DataHandle* h = HandleOf(L, idx);
  if (!h->parent) {  // the root: the key written is the top-level key
    if (lua_type(L, key_idx) != LUA_TSTRING) undo->SaveAllData(*s);
    else if (slot) undo->SaveDataSlot(*s, lua_tostring(L, key_idx), slot);
    else undo->SaveDataKey(*s, lua_tostring(L, key_idx));
    return;
  }
  // A handle below the root always has the same top-level key: once that key is saved whole
  // in this span, saving anything under it again would change nothing.
  if (h->journaled == undo->session()) return;
  const char* top = h->top->key;
  if (!top) {
    undo->SaveAllData(*s);
    h->journaled = undo->session();
  } else if (slot) {
    undo->SaveDataSlot(*s, top, slot);
  } else {
    undo->SaveDataKey(*s, top);
    h->journaled = undo->session();
  }
}

int DataNewindex(lua_State* L) {
  State* s = WritableInPlace(L);
  Json* node = ResolveData(L, 1, s);
  Json value;
  std::string error;
  if (!lua_isnil(L, 3) && !LuaToJson(L, 3, &value, &error)) Raise(L, "cannot store in state.data: " + error);
  // The host's account of state.data (its copy is outside the scripts' memory cap): a large
  // value is measured against everything already stored before it is kept.
  const size_t asked = LastConversionBytes();
  if (asked > (1u << 20)) {
    const State* st = Readable(L);
    const size_t stored = JsonTextBytes(st->data, limits::kStateDataBytes + 1);
    if (stored + asked > limits::kStateDataBytes)
      Raise(L, "cannot store in state.data: it would hold more than " + std::to_string(limits::kStateDataBytes >> 20) +
                   " MiB (the host's limit; " + std::to_string(asked >> 20) + " MiB more asked)");
  }
  // One value over another where there is one already: no node moves, so the handles'
  // remembered nodes stay good (the moves bots try write mostly this way).
  if (!value.is_structured()) {
    Json* slot = nullptr;
    if (node->is_array() && lua_isinteger(L, 2)) {
      const lua_Integer k = lua_tointeger(L, 2);
      if (k >= 1 && static_cast<size_t>(k) <= node->size()) slot = &(*node)[static_cast<size_t>(k - 1)];
    } else if (node->is_object() && lua_type(L, 2) == LUA_TSTRING) {
      auto it = node->find(lua_tostring(L, 2));
      if (it != node->end()) slot = &*it;
    }
    if (slot && !slot->is_structured() && !value.is_null()) {
      // The value it already holds (a turn's `captured = 0`, `step = "place"`): nothing changes,
      // so nothing is journaled and no cached answer for this state goes stale.
      if (slot->type() == value.type() && *slot == value) return 0;
      JournalDataWrite(L, s, 1, 2, slot);
      *slot = std::move(value);
      return 0;
    }
  }
  JournalDataWrite(L, s, 1, 2, nullptr);
  ++B(L)->epoch;
  if (node->is_object() && node->empty() && lua_isinteger(L, 2) && lua_tointeger(L, 2) == 1) *node = Json::array();
  // Removing from an empty table removes nothing, whatever the key (t[#t] = nil on {}).
  if (node->empty() && lua_isnil(L, 3)) return 0;
  if (node->is_object()) {
    if (lua_type(L, 2) != LUA_TSTRING) Raise(L, "state.data object keys must be strings");
    size_t klen;
    const char* k = lua_tolstring(L, 2, &klen);
    if (!IsValidUtf8(k, klen)) Raise(L, "state.data keys must be UTF-8 text ('" + SanitizeUtf8(std::string(k, klen)) + "' is not)");
    if (lua_isnil(L, 3)) node->erase(lua_tostring(L, 2));
    else (*node)[lua_tostring(L, 2)] = std::move(value);
    return 0;
  }
  if (node->is_array()) {
    if (!lua_isinteger(L, 2)) Raise(L, "state.data array index must be an integer");
    const lua_Integer k = lua_tointeger(L, 2);
    const lua_Integer n = static_cast<lua_Integer>(node->size());
    if (lua_isnil(L, 3)) {
      if (k == n) node->erase(node->end() - 1);
      else if (k >= 1 && k < n) Raise(L, "cannot leave a hole in a state.data array (use table.remove)");
      return 0;
    }
    if (k == n + 1) node->push_back(std::move(value));
    else if (k >= 1 && k <= n) (*node)[static_cast<size_t>(k - 1)] = std::move(value);
    else Raise(L, "state.data array index " + std::to_string(k) + " out of range 1.." + std::to_string(n + 1));
    return 0;
  }
  Raise(L, "not a table");
}

int DataLen(lua_State* L) {
  Json* node = ResolveData(L, 1, Readable(L));
  lua_pushinteger(L, node->is_array() ? static_cast<lua_Integer>(node->size()) : 0);
  return 1;
}

int DataPairsNext(lua_State* L) {
  // upvalues: 1 binding, 2 names, 3 proxy, 4 key list, 5 position
  lua_Integer pos = lua_tointeger(L, lua_upvalueindex(5)) + 1;
  if (lua_rawgeti(L, lua_upvalueindex(4), pos) == LUA_TNIL) return 0;
  lua_pushinteger(L, pos);
  lua_replace(L, lua_upvalueindex(5));
  lua_pushvalue(L, lua_upvalueindex(3));
  lua_pushvalue(L, -2);
  lua_gettable(L, -2);
  lua_remove(L, -2);
  return 2;
}

int DataPairs(lua_State* L) {
  Json* node = ResolveData(L, 1, Readable(L));
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushvalue(L, 1);
  lua_newtable(L);
  lua_Integer n = 0;
  if (node->is_object())
    for (auto it = node->begin(); it != node->end(); ++it) {
      lua_pushlstring(L, it.key().data(), it.key().size());
      lua_rawseti(L, -2, ++n);
    }
  else if (node->is_array())
    for (size_t i = 0; i < node->size(); ++i) {
      lua_pushinteger(L, static_cast<lua_Integer>(i + 1));
      lua_rawseti(L, -2, ++n);
    }
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, DataPairsNext, 5);
  lua_pushnil(L);
  lua_pushnil(L);
  return 3;
}

}  // namespace

void OpenDataBindings(lua_State* L, int up) {
  static const luaL_Reg data_meta[] = {{"__index", DataIndex},
                                       {"__newindex", DataNewindex},
                                       {"__len", DataLen},
                                       {"__pairs", DataPairs},
                                       {nullptr, nullptr}};
  luaL_newmetatable(L, "plateau.data");
  SetFuncs(L, data_meta, up);
  NameAndSeal(L, "data");
  lua_pop(L, 1);
}

}  // namespace plateau::scripting
