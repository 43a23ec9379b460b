// What every binding file shares (binding_util.h): argument checks (seats, integers in range,
// coordinates, card names), state keys, the registration of functions and handle types, and
// the access rule for randomness.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "scripting/binding_util.h"

namespace plateau::scripting {

int CheckSeat(lua_State* L, int arg, const State& s) {
  if (lua_type(L, arg) == LUA_TSTRING) {
    const int seat = s.SeatIndex(lua_tostring(L, arg));
    if (seat < 0) RaiseArg(L, arg, std::string("no seat named '") + lua_tostring(L, arg) + "'");
    return seat;
  }
  return static_cast<int>(CheckIntRange(L, arg, 1, static_cast<lua_Integer>(s.seats.size()), "seat") - 1);
}

void PushCoord(lua_State* L, Coord c) {
  lua_createtable(L, 2, 0);
  lua_pushinteger(L, c.row);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, c.col);
  lua_rawseti(L, -2, 2);
}

std::string NumberText(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TNUMBER) return luaL_typename(L, idx);
  if (lua_isinteger(L, idx)) return std::to_string(lua_tointeger(L, idx));
  const double d = lua_tonumber(L, idx);
  if (std::isnan(d)) return "nan";  // 0/0 is -nan on x86: one spelling for messages
  char text[64];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, d);
    if (std::strtod(text, nullptr) == d || std::isnan(d)) break;
  }
  return text;
}

namespace {
// Why the value at idx is not an integer within [lo, hi], or "" when it is (*out is set).
// Every binding taking a number runs this: the accepted path builds no string.
std::string IntegerProblem(lua_State* L, int idx, lua_Integer lo, lua_Integer hi, lua_Integer* out) {
  auto outside = [&](const std::string& got) {
    return got + " outside " + std::to_string(lo) + ".." + std::to_string(hi);
  };
  if (lua_type(L, idx) != LUA_TNUMBER) return std::string("expected an integer, got ") + luaL_typename(L, idx);
  if (lua_isinteger(L, idx)) {
    *out = lua_tointeger(L, idx);
    return *out < lo || *out > hi ? outside(std::to_string(*out)) : std::string();
  }
  const double d = lua_tonumber(L, idx);
  const bool whole = std::isfinite(d) && d == std::floor(d);
  // 2^63 is the first double past INT64_MAX (which no double holds): it and above never
  // convert, whatever `hi` is; -2^63 is INT64_MIN exactly.
  constexpr double kTwo63 = 9223372036854775808.0;
  if (whole && d >= -kTwo63 && d < kTwo63 && d >= static_cast<double>(lo) && d <= static_cast<double>(hi) &&
      static_cast<lua_Integer>(d) >= lo && static_cast<lua_Integer>(d) <= hi) {
    *out = static_cast<lua_Integer>(d);
    return "";
  }
  const std::string text = NumberText(L, idx);
  return whole ? outside(text) : "expected an integer, got " + text;
}
}  // namespace

lua_Integer CheckIntRange(lua_State* L, int arg, lua_Integer lo, lua_Integer hi, const char* what) {
  lua_Integer v = 0;
  const std::string why = IntegerProblem(L, arg, lo, hi, &v);
  // "cell coordinate 5000 outside -4096..4096"; "cell coordinate: expected an integer, got 1.5"
  if (!why.empty()) RaiseArg(L, arg, std::string(what) + (why[0] == 'e' ? ": " : " ") + why);
  return v;
}

lua_Integer OptIntRange(lua_State* L, int arg, lua_Integer def, lua_Integer lo, lua_Integer hi, const char* what) {
  return lua_isnoneornil(L, arg) ? def : CheckIntRange(L, arg, lo, hi, what);
}

lua_Integer FieldIntRange(lua_State* L, int table, const char* field, lua_Integer def, lua_Integer lo, lua_Integer hi,
                          const char* what) {
  table = lua_absindex(L, table);
  lua_getfield(L, table, field);
  lua_Integer v = def;
  if (!lua_isnil(L, -1)) {
    const std::string why = IntegerProblem(L, -1, lo, hi, &v);
    if (!why.empty()) Raise(L, std::string(what) + ": field '" + field + "'" + (why[0] == 'e' ? ": " : " ") + why);
  }
  lua_pop(L, 1);
  return v;
}

// Grids grow a dense window around their cells, so coordinates are kept to a sane range.
int CheckCoordArg(lua_State* L, int arg) {
  return static_cast<int>(CheckIntRange(L, arg, -limits::kCoord, limits::kCoord, "cell coordinate"));
}

void SetFuncs(lua_State* L, const luaL_Reg* regs, int nup_table_idx) {
  // Pushes each function as a closure over (binding, card-name cache).
  for (; regs->name; ++regs) {
    lua_pushvalue(L, nup_table_idx);
    lua_pushvalue(L, nup_table_idx + 1);
    lua_pushcclosure(L, regs->func, 2);
    lua_setfield(L, -2, regs->name);
  }
}

// Creates metatable `name` for a handle type whose methods are closures over the binding.
void RegisterHandle(lua_State* L, const char* name, const luaL_Reg* methods, int up) {
  luaL_newmetatable(L, name);
  lua_newtable(L);
  SetFuncs(L, methods, up);
  lua_setfield(L, -2, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
}

// Card ids by name, looked up in the bindings' shared name table (upvalue 2): the name is
// already an interned Lua string, so this costs a table probe instead of a std::string.
CardId LookupCard(lua_State* L, int idx) {
  // Upvalue 2 of every binding maps ids to names and names to ids.
  lua_pushvalue(L, idx);
  const CardId id = lua_rawget(L, lua_upvalueindex(2)) == LUA_TNUMBER ? static_cast<CardId>(lua_tointeger(L, -1)) : kNoCard;
  lua_pop(L, 1);
  return id;
}

CardId CheckCard(lua_State* L, int arg) {
  luaL_checkstring(L, arg);
  const CardId id = LookupCard(L, arg);
  if (id == kNoCard) RaiseArg(L, arg, std::string("unknown card '") + lua_tostring(L, arg) + "'" + B(L)->cards->Suggest(lua_tostring(L, arg)));
  return id;
}

void PushCardName(lua_State* L, CardId id) {
  // Card names are cached in upvalue 2 (an array indexed by id + 1) to skip re-hashing.
  if (lua_rawgeti(L, lua_upvalueindex(2), id + 1) == LUA_TSTRING) return;
  lua_pop(L, 1);
  lua_pushstring(L, B(L)->cards->Name(id).c_str());
}

std::string OwnedKey(lua_State* L, int name_arg, int seat_arg, const State& s) {
  const char* name = luaL_checkstring(L, name_arg);
  const int owner = lua_isnoneornil(L, seat_arg) ? -1 : CheckSeat(L, seat_arg, s);
  return State::Key(name, owner);
}

// Drawing a random number changes the state (the RNG is part of it), so only hooks that may
// change the state can do it; a read-only hook that rolled would make scoring non-repeatable.
State* RandomSource(lua_State* L, const char* what) {
  Binding* b = B(L);
  State* s = Readable(L);
  if (!b->writable)
    Raise(L, std::string(what) + " is not available in hook '" + b->hook +
                 "' (it only reads the state; randomness belongs in moves and setup)");
  return s;
}

// Names the metatable on the stack's top for messages ("bad argument ... (move list expected)")
// and hides it from scripts (getmetatable returns false).
void NameAndSeal(lua_State* L, const char* display) {
  lua_pushstring(L, display);
  lua_setfield(L, -2, "__name");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
}

}  // namespace plateau::scripting
