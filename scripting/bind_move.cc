// Lua bindings of moves (host/game.h's Move): moves as Lua tables {type=, card=, cell={r, c},
// to={r, c}, ...} both ways (PushMove, LuaToMove, bindings.h), and ctx.move{...}, which converts a
// move once and hands back a frozen table the host lists again without converting it.
#include <algorithm>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>

#include "host/json_io.h"
#include "scripting/binding_util.h"

namespace plateau::scripting {

// A move's field holds at most this much (LuaToMove).
constexpr size_t kMaxMoveFieldBytes = 64u << 10;

// ---- ctx.move: immutable moves a script lists again and again -----------------------------
// ctx.move{...} converts a move once and returns it frozen (a read-only table). Listing it
// later copies the host move kept beside it instead of converting the table again. A handler
// still receives a table of its own: the same move replayed from a log is no frozen table,
// and a handler must behave the same either way. The registry's plateau.frozen_moves (weak
// keys) maps each frozen table to a userdata holding its host move.

namespace {

struct FrozenMove {
  Move move;
};

int FrozenMoveGc(lua_State* L) {
  static_cast<FrozenMove*>(luaL_checkudata(L, 1, "plateau.frozen_move"))->~FrozenMove();
  return 0;
}

// The host move of the frozen move at `idx`, or null when it is not one.
const Move* FrozenMoveAt(lua_State* L, int idx) {
  if (!lua_istable(L, idx) || !lua_getmetatable(L, idx)) return nullptr;
  lua_pop(L, 1);
  idx = lua_absindex(L, idx);
  PushWeakRegistryTable(L, "plateau.frozen_moves", "k");
  lua_pushvalue(L, idx);
  const int type = lua_rawget(L, -2);
  const Move* m = type == LUA_TUSERDATA ? &static_cast<FrozenMove*>(lua_touserdata(L, -1))->move : nullptr;
  lua_pop(L, 2);
  return m;
}

}  // namespace

bool IsFrozenMove(lua_State* L, int idx) { return FrozenMoveAt(L, idx) != nullptr; }

int CtxMove(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  Move m;
  std::string error;
  if (!LuaToMove(L, 1, *B(L)->cards, &m, &error)) RaiseArg(L, 1, error.c_str());
  const Json j = MoveToJson(m, *B(L)->cards);
  PushFrozenJson(L, j);  // what a handler reads, read-only
  const int frozen = lua_gettop(L);
  PushWeakRegistryTable(L, "plateau.frozen_moves", "k");
  lua_pushvalue(L, frozen);
  // Sized for the host move's own memory too, so the VM's memory cap sees what it holds.
  new (lua_newuserdatauv(L, sizeof(FrozenMove) + 2 * DumpJson(j).size(), 0)) FrozenMove{m};
  luaL_setmetatable(L, "plateau.frozen_move");
  lua_rawset(L, -3);
  lua_pop(L, 1);
  return 1;
}

void PushMove(lua_State* L, const Move& m, const CardSet& cards) {
  // Sized for every field at once: growing a table's hash part as fields arrive rehashes it.
  const Json::object_t* args = m.args->is_object() ? m.args->get_ptr<const Json::object_t*>() : nullptr;
  lua_createtable(L, 0, static_cast<int>((args ? args->size() : 0) + 1 + (m.card != kNoCard) + m.has_cell + m.has_to));
  if (args) {
    luaL_checkstack(L, 4, "json nesting");
    for (const auto& [key, v] : *args) {
      lua_pushlstring(L, key.data(), key.size());
      if (!PushJsonScalar(L, v)) PushJson(L, v);
      lua_rawset(L, -3);
    }
  }
  lua_pushstring(L, m.type.c_str());
  lua_setfield(L, -2, "type");
  if (m.card != kNoCard) {
    lua_pushstring(L, cards.Name(m.card).c_str());
    lua_setfield(L, -2, "card");
  }
  if (m.has_cell) {
    PushCoord(L, m.cell);
    lua_setfield(L, -2, "cell");
  }
  if (m.has_to) {
    PushCoord(L, m.to);
    lua_setfield(L, -2, "to");
  }
}

static bool ReadLuaCoord(lua_State* L, int idx, Coord* out) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx)) return false;
  // Raw reads only: this runs outside any budgeted call, so no metamethod of the script's may
  // run. A frozen table (a cell of a frozen move, ctx.move) is read in the table it stands for.
  int pushed = 0;
  if (PushFrozenSource(L, idx)) {
    idx = lua_gettop(L);
    pushed = 1;
  }
  bool ok = lua_istable(L, idx) && lua_rawlen(L, idx) == 2;
  if (ok) {
    lua_rawgeti(L, idx, 1);
    lua_rawgeti(L, idx, 2);
    // Coordinates beyond the host's range are not cells (never truncated onto a nearby one).
    ok = lua_isinteger(L, -2) && lua_isinteger(L, -1) && std::llabs(lua_tointeger(L, -2)) <= limits::kCoord &&
         std::llabs(lua_tointeger(L, -1)) <= limits::kCoord;
    out->row = ok ? static_cast<int>(lua_tointeger(L, -2)) : 0;
    out->col = ok ? static_cast<int>(lua_tointeger(L, -1)) : 0;
    lua_pop(L, 2);
  }
  lua_pop(L, pushed);
  return ok;
}

namespace {

// A move's own fields when each is a short string, an integer or a boolean (a corner, a
// species, an index): the common case of long generated lists. Moves with the same such fields
// share one args object (SharedJson is immutable), found by a key of the sorted fields, instead
// of each building a JSON object of its own. The cache is per thread and bounded.
struct ScalarField {
  const char* key;
  size_t key_len;
  int type;  // LUA_TSTRING, LUA_TNUMBER (an integer) or LUA_TBOOLEAN
  const char* text;
  size_t text_len;
  lua_Integer integer;
};
constexpr int kMaxScalarFields = 6;
constexpr size_t kMaxScalarText = 64;

// Records the field at the top of the stack (key just below it) when it is one of those.
bool TakeScalarField(lua_State* L, const char* key, size_t key_len, ScalarField* f) {
  const int t = lua_type(L, -1);
  f->key = key;
  f->key_len = key_len;
  f->type = t;
  f->text = nullptr;
  f->text_len = 0;
  f->integer = 0;
  if (t == LUA_TSTRING) {
    f->text = lua_tolstring(L, -1, &f->text_len);
    return f->text_len <= kMaxScalarText && IsValidUtf8(f->text, f->text_len);
  }
  if (t == LUA_TNUMBER && lua_isinteger(L, -1)) {
    f->integer = lua_tointeger(L, -1);
    return true;
  }
  if (t == LUA_TBOOLEAN) {
    f->integer = lua_toboolean(L, -1);
    return true;
  }
  return false;
}

SharedJson SharedScalarArgs(ScalarField* fields, int n) {
  std::sort(fields, fields + n, [](const ScalarField& a, const ScalarField& b) {
    return std::string_view(a.key, a.key_len) < std::string_view(b.key, b.key_len);
  });
  std::string key;
  for (int i = 0; i < n; ++i) {
    const ScalarField& f = fields[i];
    key.append(f.key, f.key_len);
    key.push_back('\0');
    key.push_back(static_cast<char>('0' + f.type));
    // A string value may hold any byte, NUL included: its length first keeps keys apart.
    if (f.type == LUA_TSTRING) {
      key.append(std::to_string(f.text_len));
      key.push_back(':');
      key.append(f.text, f.text_len);
    } else {
      key.append(std::to_string(f.integer));
    }
    key.push_back('\0');
  }
  thread_local std::unordered_map<std::string, SharedJson> shared;
  thread_local size_t shared_bytes = 0;
  if (auto it = shared.find(key); it != shared.end()) return it->second;
  Json args = Json::object();
  for (int i = 0; i < n; ++i) {
    const ScalarField& f = fields[i];
    Json& v = args[std::string(f.key, f.key_len)];
    if (f.type == LUA_TSTRING) v = std::string(f.text, f.text_len);
    else if (f.type == LUA_TBOOLEAN) v = f.integer != 0;
    else v = static_cast<int64_t>(f.integer);
  }
  if (shared_bytes > (1u << 20)) {
    shared.clear();
    shared_bytes = 0;
  }
  shared_bytes += key.size() + 64 * static_cast<size_t>(n);
  return shared.emplace(std::move(key), SharedJson(std::move(args))).first->second;
}

}  // namespace

// Reads the well-known fields directly; only other fields go through JSON, and only when they
// are not all short scalars (SharedScalarArgs).
bool LuaToMove(lua_State* L, int idx, const CardSet& cards, Move* out, std::string* error) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx)) {
    *error = std::string("move must be a table, got ") + luaL_typename(L, idx);
    return false;
  }
  if (const Move* frozen = FrozenMoveAt(L, idx)) {  // ctx.move: converted once
    *out = *frozen;
    return true;
  }
  Move m;
  ScalarField scalars[kMaxScalarFields];
  int nscalars = 0;
  bool general = false;  // some field is not a short scalar: every own field goes through JSON
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      lua_pop(L, 2);
      *error = "move fields must have string names";
      return false;
    }
    size_t klen;
    const char* k = lua_tolstring(L, -2, &klen);
    if (!IsValidUtf8(k, klen) || std::strlen(k) != klen) {
      lua_pop(L, 2);
      *error = "move field names must be UTF-8 text without NUL bytes";
      return false;
    }
    if (std::strcmp(k, "type") == 0) {
      if (lua_type(L, -1) != LUA_TSTRING) {
        lua_pop(L, 2);
        *error = "move field 'type' must be a string";
        return false;
      }
      size_t len;
      const char* type = lua_tolstring(L, -1, &len);
      if (!IsValidUtf8(type, len)) {
        lua_pop(L, 2);
        *error = "move field 'type' must be UTF-8 text";
        return false;
      }
      m.type.assign(type, len);
    } else if (std::strcmp(k, "card") == 0 && lua_type(L, -1) == LUA_TSTRING) {
      m.card = cards.Find(lua_tostring(L, -1));
      if (m.card == kNoCard) {
        *error = std::string("unknown card '") + lua_tostring(L, -1) + "' in move";
        lua_pop(L, 2);
        return false;
      }
    } else if (std::strcmp(k, "cell") == 0 || std::strcmp(k, "to") == 0) {
      const bool cell = k[0] == 'c';
      if (!ReadLuaCoord(L, -1, cell ? &m.cell : &m.to)) {
        *error = std::string("move field '") + k + "' must be {row, col}";
        lua_pop(L, 2);
        return false;
      }
      (cell ? m.has_cell : m.has_to) = true;
    } else if (!general) {
      general = nscalars == kMaxScalarFields || !TakeScalarField(L, k, klen, &scalars[nscalars]);
      if (!general) ++nscalars;
    }
    lua_pop(L, 1);
  }
  if (m.type.empty()) {
    *error = "move needs a string field 'type'";
    return false;
  }
  if (!general) {
    if (nscalars > 0) m.args = SharedScalarArgs(scalars, nscalars);
    *out = std::move(m);
    return true;
  }
  // The general path: the move's own fields as JSON (the well-known ones were read above).
  Json args;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const char* k = lua_tostring(L, -2);
    if (std::strcmp(k, "type") == 0 || (std::strcmp(k, "card") == 0 && lua_type(L, -1) == LUA_TSTRING) ||
        std::strcmp(k, "cell") == 0 || std::strcmp(k, "to") == 0) {
      lua_pop(L, 1);
      continue;
    } else {
      Json v;
      if (!LuaToJson(L, -1, &v, error)) {
        lua_pop(L, 2);
        return false;
      }
      // A move is copied into lists, questions and the log of every game: its fields are kept
      // small (the host's limit, stated in the API reference).
      if (LastConversionBytes() > kMaxMoveFieldBytes) {
        *error = std::string("move field '") + k + "' is over " + std::to_string(kMaxMoveFieldBytes >> 10) + " KiB";
        lua_pop(L, 2);
        return false;
      }
      args[k] = std::move(v);
    }
    lua_pop(L, 1);
  }
  m.args = std::move(args);
  *out = std::move(m);
  return true;
}

void OpenMoveBindings(lua_State* L, int up) {
  luaL_newmetatable(L, "plateau.frozen_move");
  lua_pushcfunction(L, FrozenMoveGc);
  lua_setfield(L, -2, "__gc");
  NameAndSeal(L, "frozen move");
  lua_pop(L, 1);
}

}  // namespace plateau::scripting
