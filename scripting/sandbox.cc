// The sandboxed standard library: an allow-list of Lua's libraries with wrappers where
// the stock function could escape, hang, leak addresses or break determinism.
// The reasons behind each line are the team's sandbox checklist (shared/design/reliability.md,
// sections 1-4, in the shared folder beside the checkout).
#include <lua.hpp>

#include <algorithm>
#include <cstdarg>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "scripting/runtime.h"

namespace plateau::scripting {

void PushWeakRegistryTable(lua_State* L, const char* name, const char* mode);  // below

namespace {

// Raises a sandbox violation. The runtime classifies the failure by this mark, not by the
// message text alone, so a script cannot pass its own error off as a sandbox violation; and
// a violation a script caught (pcall) does not mark a later, different error.
int SandboxError(lua_State* L, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  luaL_where(L, 1);
  lua_pushvfstring(L, fmt, args);
  va_end(args);
  lua_concat(L, 2);
  Runtime::From(L)->MarkSandboxViolation(lua_tostring(L, -1));
  return lua_error(L);
}

// A key named in a message: strings and numbers as they are, anything else by its type (a
// table's address would differ from run to run, and __tostring would be the script's code).
std::string KeyText(lua_State* L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TSTRING: return lua_tostring(L, idx);
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? std::to_string(lua_tointeger(L, idx)) : std::to_string(lua_tonumber(L, idx));
    default: return std::string("a ") + luaL_typename(L, idx);
  }
}

// ---- errors and kills that scripts must not swallow ------------------------------------

bool Killed(lua_State* L, int status) {
  Runtime* rt = Runtime::From(L);
  if (status == LUA_ERRMEM) rt->MarkMemoryExhausted();
  return rt->killed();
}

int FinishPcall(lua_State* L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) {
    if (Killed(L, status)) return lua_error(L);
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - static_cast<int>(extra);
}

int SafePcall(lua_State* L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  const int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, FinishPcall);
  return FinishPcall(L, status, 0);
}

// The message handler runs inside luaG_errormsg. For a budget kill that is inside the count
// hook, where Lua keeps hooks off (allowhook == 0): a script handler that loops there is never
// charged and hangs the host. Once the call is killed, pass the error object through instead.
int GuardedHandler(lua_State* L) {
  if (Runtime::From(L)->killed()) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

int SafeXpcall(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, GuardedHandler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);
  const int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, FinishPcall);
  return FinishPcall(L, status, 2);
}

// ---- coroutines: hooks follow every thread, every resume is charged ---------------------

int Resume(lua_State* L, lua_State* co, int narg) {
  Runtime* rt = Runtime::From(L);
  rt->Charge(L, 1000);
  if (!lua_checkstack(co, narg)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  lua_xmove(L, co, narg);
  rt->SetHookFor(co);
  lua_State* previous = rt->current_thread();
  rt->set_current_thread(co);
  int nres = 0;
  const int status = lua_resume(co, L, narg, &nres);
  rt->set_current_thread(previous);
  rt->SetHookFor(L);
  if (status == LUA_OK || status == LUA_YIELD) {
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      lua_pushliteral(L, "too many results to resume");
      return -1;
    }
    lua_xmove(co, L, nres);
    return nres;
  }
  lua_xmove(co, L, 1);
  if (Killed(L, status)) lua_error(L);
  return -1;
}

lua_State* CheckCo(lua_State* L) {
  lua_State* co = lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "coroutine");
  return co;
}

int CoResume(lua_State* L) {
  lua_State* co = CheckCo(L);
  const int r = Resume(L, co, lua_gettop(L) - 1);
  if (r < 0) {
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_insert(L, -(r + 1));
  return r + 1;
}

int CoCreate(lua_State* L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  Runtime* rt = Runtime::From(L);
  if (++rt->coroutines_created > rt->limits().max_coroutines)
    return SandboxError(L, "sandbox: more than %d coroutines created in one call",
                      static_cast<int>(rt->limits().max_coroutines));
  lua_State* co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  return 1;
}

int AuxWrap(lua_State* L) {
  lua_State* co = lua_tothread(L, lua_upvalueindex(1));
  const int r = Resume(L, co, lua_gettop(L));
  if (r < 0) {
    if (lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return r;
}

int CoWrap(lua_State* L) {
  CoCreate(L);
  lua_pushcclosure(L, AuxWrap, 1);
  return 1;
}

// ---- metatables: no finalizers, weak tables or to-be-closed handlers --------------------

constexpr const char* kBannedMetafields[] = {"__gc", "__mode", "__close"};

// A table that serves as a metatable is guarded against gaining a banned field later: its own
// metatable becomes a guard whose __newindex refuses them (scripts have no rawset). A guard
// stands for the metatable the script gave the table, if any: it holds that metatable's
// fields, shows it to getmetatable (its __metatable), and passes other new keys on to its
// __newindex, or sets them. Guards are listed in the weak set plateau.guards.
bool IsBannedMetafield(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TSTRING) return false;
  const char* k = lua_tostring(L, idx);
  for (const char* banned : kBannedMetafields)
    if (std::strcmp(k, banned) == 0) return true;
  return false;
}

// __newindex of a guard (upvalue 1: the __newindex of the metatable it stands for, or nil).
int GuardNewindex(lua_State* L) {
  if (IsBannedMetafield(L, 2))
    return SandboxError(L, "sandbox: metatable field '%s' is not allowed", lua_tostring(L, 2));
  switch (lua_type(L, lua_upvalueindex(1))) {
    case LUA_TFUNCTION:
      lua_pushvalue(L, lua_upvalueindex(1));
      lua_insert(L, 1);
      lua_call(L, 3, 0);
      return 0;
    case LUA_TTABLE:
      lua_pushvalue(L, lua_upvalueindex(1));
      lua_replace(L, 1);
      lua_settable(L, 1);
      return 0;
    default:
      lua_rawset(L, 1);
      return 0;
  }
}

bool IsGuard(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  PushWeakRegistryTable(L, "plateau.guards", "k");
  lua_pushvalue(L, idx);
  const bool guard = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 2);
  return guard;
}

// Gives the table at `t` a guard standing for metatable `mt` (an index; 0: none).
void SetGuard(lua_State* L, int t, int mt) {
  t = lua_absindex(L, t);
  if (mt) mt = lua_absindex(L, mt);
  lua_createtable(L, 0, 4);
  const int guard = lua_gettop(L);
  if (mt) {
    lua_pushnil(L);
    while (lua_next(L, mt)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, guard);
    }
    lua_pushliteral(L, "__newindex");
    lua_rawget(L, mt);
  } else {
    lua_pushnil(L);
  }
  lua_pushcclosure(L, GuardNewindex, 1);
  lua_setfield(L, guard, "__newindex");
  // getmetatable(t) shows the script's own metatable (or its __metatable), never the guard;
  // a metatable the script protected stays protected.
  bool is_protected = false;
  if (mt) {
    lua_pushliteral(L, "__metatable");
    is_protected = lua_rawget(L, mt) != LUA_TNIL;
    if (!is_protected) {
      lua_pop(L, 1);
      lua_pushvalue(L, mt);
    }
  } else {
    lua_pushboolean(L, 0);
  }
  lua_setfield(L, guard, "__metatable");
  if (is_protected) {
    lua_pushboolean(L, 1);
    lua_setfield(L, guard, "__plateau_protected");
  }
  PushWeakRegistryTable(L, "plateau.guards", "k");
  lua_pushvalue(L, guard);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_setmetatable(L, t);
}

// Guards the table at `mt`, about to serve as a metatable, unless it is guarded already; its
// own metatable, if any, is what the guard stands for.
void GuardAsMetatable(lua_State* L, int mt) {
  mt = lua_absindex(L, mt);
  if (lua_getmetatable(L, mt)) {
    const int own = lua_gettop(L);
    if (!IsGuard(L, own)) SetGuard(L, mt, own);
    lua_settop(L, own - 1);
  } else {
    SetGuard(L, mt, 0);
  }
}

int SafeSetmetatable(lua_State* L) {
  const int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  if (t == LUA_TTABLE) {
    // Raw, as the collector reads them.
    for (const char* banned : kBannedMetafields) {
      lua_pushstring(L, banned);
      if (lua_rawget(L, 2) != LUA_TNIL)
        return SandboxError(L, "sandbox: metatable field '%s' is not allowed", banned);
      lua_pop(L, 1);
    }
  }
  lua_settop(L, 2);
  // A table that is itself a metatable keeps a guard, now standing for the new metatable.
  if (lua_getmetatable(L, 1)) {
    const bool guarded = IsGuard(L, -1);
    bool is_protected = false;
    if (guarded) {
      lua_pushliteral(L, "__plateau_protected");
      is_protected = lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (guarded) {
      if (is_protected) return luaL_error(L, "cannot change a protected metatable");
      SetGuard(L, 1, t == LUA_TTABLE ? 2 : 0);
      if (t == LUA_TTABLE) GuardAsMetatable(L, 2);
      lua_settop(L, 1);
      return 1;
    }
  }
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
  if (t == LUA_TTABLE) GuardAsMetatable(L, 2);
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

// ---- output without addresses ------------------------------------------------------------

void PushSafeString(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  if (luaL_callmeta(L, idx, "__tostring")) {
    if (!lua_isstring(L, -1)) luaL_error(L, "'__tostring' must return a string");
    return;
  }
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
      lua_pushvalue(L, idx);
      lua_tostring(L, -1);
      return;
    case LUA_TBOOLEAN: lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false"); return;
    case LUA_TNIL: lua_pushliteral(L, "nil"); return;
    default: {
      const int t = luaL_getmetafield(L, idx, "__name");
      if (t == LUA_TSTRING) return;
      if (t != LUA_TNIL) lua_pop(L, 1);
      lua_pushstring(L, luaL_typename(L, idx));
    }
  }
}

int SafeTostring(lua_State* L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  PushSafeString(L, 1);
  return 1;
}

int SafePrint(lua_State* L) {
  // One line of at most 4 KiB, however many arguments: the host's copy is outside the cap.
  constexpr size_t kMaxLine = 4096;
  const int n = lua_gettop(L);
  std::string line;
  bool cut = false;
  for (int i = 1; i <= n && !cut; ++i) {
    PushSafeString(L, i);
    if (i > 1) line += '\t';
    size_t len;
    const char* s = lua_tolstring(L, -1, &len);
    const size_t room = kMaxLine - std::min(kMaxLine, line.size());
    cut = len > room || (i < n && line.size() + len >= kMaxLine);
    line.append(s, std::min(len, room));
    lua_pop(L, 1);
  }
  if (cut) line += " ...";
  Runtime::From(L)->Log(line);
  return 0;
}

// Runs the wrapped library function (upvalue 1, a stock C function) in the wrapper's own call
// frame. A nested lua_call would make the wrapper the erring function's caller, so its errors
// lost the script's "file:line:" and the function's name ("bad argument #2 to '?'").
int CallOriginal(lua_State* L) {
  const lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
  if (!original) return luaL_error(L, "internal error: wrapped function is not a C function");
  return original(L);
}

int SafeFormat(lua_State* L) {
  size_t len;
  const char* fmt = luaL_checklstring(L, 1, &len);
  int arg = 1;
  for (size_t i = 0; i < len; ++i) {
    if (fmt[i] != '%') continue;
    if (++i < len && fmt[i] == '%') continue;
    ++arg;
    while (i < len && std::strchr("-+ #0123456789.", fmt[i])) ++i;
    if (i >= len) break;
    if (fmt[i] == 'p') return SandboxError(L, "sandbox: string.format '%%p' is not allowed");
    if (fmt[i] == 's' && arg <= lua_gettop(L)) {
      PushSafeString(L, arg);
      lua_replace(L, arg);
    }
  }
  return CallOriginal(L);
}

// ---- string functions with bounded cost ----------------------------------------------------

constexpr lua_Integer kMaxRep = 16 << 20;

// Work done inside one C call, charged to the budget before it runs (it cannot be interrupted
// once it does), so that a loop of such calls runs out of budget like any other loop: a
// pattern matcher's step at about an eighth of a VM instruction, a byte copied, compared or
// searched by memchr at about a thirty-second (measured against a plain Lua loop).
void ChargeSteps(lua_State* L, double steps) {
  if (steps >= 8) Runtime::From(L)->Charge(L, static_cast<int64_t>(std::min(steps / 8, 1e15)));
}
void ChargeBytes(lua_State* L, double bytes) {
  if (bytes >= 32) Runtime::From(L)->Charge(L, static_cast<int64_t>(std::min(bytes / 32, 1e15)));
}

int SafeRep(lua_State* L) {
  size_t l, lsep = 0;
  luaL_checklstring(L, 1, &l);
  const lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &lsep);
  if (n > 0 && static_cast<lua_Integer>(std::max<size_t>(l + lsep, 1)) > kMaxRep / n)
    return SandboxError(L, "sandbox: string.rep result over %d bytes", static_cast<int>(kMaxRep));
  if (n > 0) ChargeBytes(L, static_cast<double>(l + lsep) * static_cast<double>(n));
  return CallOriginal(L);
}

// A match is one C call the budget cannot interrupt, so its worst case is priced before it
// runs, and what could take more than about 5e7 matcher steps is refused. The price: every
// start position (one when the pattern is anchored with ^, which gmatch does not honour),
// times the pattern's length when it repeats nothing, or else the longest set [...] (read for
// every subject character) times the subject's length per repetition (*, -, + after an item)
// or balance (%b, which scans to the end); doubled for each optional item (?), whose
// backtracking branches. A pattern with
// no special character, or string.find's plain mode, is a memory search, linear in practice.
int PricePattern(lua_State* L, bool is_find, bool anchors) {
  size_t sl = 0, pl = 0;
  luaL_checklstring(L, 1, &sl);
  const char* p = luaL_checklstring(L, 2, &pl);
  if (pl > 256) return SandboxError(L, "sandbox: pattern longer than 256 characters");
  const std::string_view pat(p, pl);  // may hold NUL bytes
  const bool plain = is_find && lua_gettop(L) >= 4 && lua_toboolean(L, 4);
  if (plain || pat.find_first_of(std::string_view("^$*+?.([%-", 10)) == std::string_view::npos) {
    // A memory search: memchr for the first byte, then a compare at each hit, so up to
    // subject x pattern steps ('aaa...b' in 'aaaa...').
    ChargeBytes(L, static_cast<double>(sl + 1) * static_cast<double>(std::max<size_t>(pl, 1)));
    return CallOriginal(L);
  }
  int repetitions = 0, optional = 0;
  bool in_set = false;
  size_t set_start = 0, longest_set = 1;
  for (size_t i = 0; i < pl; ++i) {
    const char c = p[i];
    if (c == '%') {
      if (!in_set && i + 1 < pl && p[i + 1] == 'b') {
        ++repetitions;
        i += 3;  // %bxy
      } else if (!in_set && i + 1 < pl && p[i + 1] >= '1' && p[i + 1] <= '9') {
        ++repetitions;  // a back-reference compares a whole capture at every step
        ++i;
      } else {
        ++i;
      }
      continue;
    }
    if (in_set) {
      if (c == ']') {
        in_set = false;
        longest_set = std::max(longest_set, i - set_start);
      }
      continue;
    }
    if (c == '[') {
      in_set = true;
      set_start = i;
      if (i + 1 < pl && p[i + 1] == '^') ++i;
      if (i + 1 < pl && p[i + 1] == ']') ++i;  // a ']' first in a set is a member
      continue;
    }
    if (i == 0) continue;  // a quantifier first in a pattern is a plain character
    if (c == '*' || c == '-' || c == '+') ++repetitions;
    if (c == '?') ++optional;
  }
  // Per start, a pattern without repetitions reads at most all of itself; with repetitions,
  // each step of the search reads one item, a set at worst.
  double cost = anchors && p[0] == '^' ? 1 : static_cast<double>(sl + 1);
  cost *= static_cast<double>(repetitions == 0 ? pl : longest_set);
  for (int k = 0; k < repetitions && cost <= 5e7; ++k) cost *= static_cast<double>(sl + 1);
  for (int k = 0; k < optional && cost <= 5e7; ++k) cost *= 2;
  if (cost > 5e7)
    return SandboxError(L, "sandbox: pattern with %d repetitions and %d optional items is too costly on a %d-character "
                        "subject", repetitions, optional, static_cast<int>(sl));
  ChargeSteps(L, cost);
  return CallOriginal(L);
}

// string functions that walk their whole subject (or build a result of that size) in one C
// call are charged by length, like the pattern functions by their price.
int ChargeSubject(lua_State* L) {
  size_t l = 0;
  if (lua_type(L, 1) == LUA_TSTRING) lua_tolstring(L, 1, &l);
  ChargeBytes(L, static_cast<double>(l));
  return CallOriginal(L);
}

int SafeFind(lua_State* L) { return PricePattern(L, true, true); }
int SafeMatch(lua_State* L) { return PricePattern(L, false, true); }
int SafeGmatch(lua_State* L) { return PricePattern(L, false, false); }

// ---- deterministic pairs: string hashes are seeded per process, so order keys ----------

int KeyRank(lua_State* L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return 3;
  }
}

// Keys in the order pairs and next use: numbers ascending (integers and floats compared
// exactly), then strings by bytes, then false and true; other keys (tables, functions) last,
// in the table's own order.
struct OrderKey {
  int rank = 3;
  bool is_int = false;
  lua_Integer i = 0;
  double d = 0;
  std::string s;
  int ref = 0;  // SafePairs: where the key is kept
};

OrderKey OrderKeyAt(lua_State* L, int idx) {
  OrderKey k;
  k.rank = KeyRank(L, idx);
  if (k.rank == 0) {
    k.is_int = lua_isinteger(L, idx);
    if (k.is_int) k.i = lua_tointeger(L, idx);
    k.d = lua_tonumber(L, idx);
  } else if (k.rank == 1) {
    size_t l;
    const char* s = lua_tolstring(L, idx, &l);
    k.s.assign(s, l);
  } else if (k.rank == 2) {
    k.i = lua_toboolean(L, idx);
  }
  return k;
}

// i < f, exactly (a double holds every integer up to 2^53 only).
bool IntLessFloat(lua_Integer i, double f) {
  if (f >= 9223372036854775808.0) return true;    // 2^63 and above
  if (f < -9223372036854775808.0) return false;   // below -2^63
  return i < static_cast<lua_Integer>(std::ceil(f));  // ceil(f) fits: |f| < 2^63 here
}

// a < b for two number keys, each an integer or a float. Keys are never NaN, and an integral
// float key is stored as an integer, so an integer and a float key are never equal.
bool NumberKeyLess(bool a_int, lua_Integer ai, double ad, bool b_int, lua_Integer bi, double bd) {
  if (a_int && b_int) return ai < bi;
  if (!a_int && !b_int) return ad < bd;
  if (a_int) return IntLessFloat(ai, bd);
  return !IntLessFloat(bi, ad);
}

bool OrderLess(const OrderKey& a, const OrderKey& b) {
  if (a.rank != b.rank) return a.rank < b.rank;
  if (a.rank == 0) return NumberKeyLess(a.is_int, a.i, a.d, b.is_int, b.i, b.d);
  if (a.rank == 1) return a.s < b.s;
  if (a.rank == 2) return a.i < b.i;
  return false;
}

int PairsNext(lua_State* L) {
  // upvalue 1: the table; upvalue 2: the sorted key array; upvalue 3: position.
  lua_Integer pos = lua_tointeger(L, lua_upvalueindex(3)) + 1;
  for (;;) {
    if (lua_rawgeti(L, lua_upvalueindex(2), pos) == LUA_TNIL) return 0;
    lua_pushinteger(L, pos);
    lua_replace(L, lua_upvalueindex(3));
    lua_pushvalue(L, -1);
    if (lua_gettable(L, lua_upvalueindex(1)) != LUA_TNIL) return 2;  // key, value
    lua_pop(L, 2);  // removed during iteration: skip it
    ++pos;
  }
}

int SafePairs(lua_State* L) {
  luaL_checkany(L, 1);
  if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
    lua_pushvalue(L, 1);
    lua_call(L, 1, 3);
    return 3;
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  std::vector<OrderKey> keys;
  lua_newtable(L);  // keys in original order (for non-sortable keys)
  const int store = lua_gettop(L);
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    OrderKey k = OrderKeyAt(L, -1);
    k.ref = ++n;
    lua_pushvalue(L, -1);
    lua_rawseti(L, store, n);
    keys.push_back(std::move(k));
  }
  // Collecting and sorting the keys is one C call: charged n log n, so a loop of pairs over a
  // million-key table runs out of budget instead of sorting for minutes.
  if (n > 1) Runtime::From(L)->Charge(L, static_cast<int64_t>(n * std::log2(static_cast<double>(n))));
  std::stable_sort(keys.begin(), keys.end(), OrderLess);
  lua_createtable(L, static_cast<int>(keys.size()), 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    lua_rawgeti(L, store, keys[i].ref);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_pushvalue(L, 1);
  lua_insert(L, -2);
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, PairsNext, 3);
  lua_pushnil(L);
  lua_pushnil(L);
  return 3;
}

// OrderLess on two keys on the stack, without copying strings.
bool KeyLessAt(lua_State* L, int a, int b) {
  const int ra = KeyRank(L, a), rb = KeyRank(L, b);
  if (ra != rb) return ra < rb;
  if (ra == 0)
    return NumberKeyLess(lua_isinteger(L, a), lua_tointeger(L, a), lua_tonumber(L, a), lua_isinteger(L, b),
                         lua_tointeger(L, b), lua_tonumber(L, b));
  if (ra == 1) {
    size_t la, lb;
    const char* sa = lua_tolstring(L, a, &la);
    const char* sb = lua_tolstring(L, b, &lb);
    const int c = std::memcmp(sa, sb, std::min(la, lb));
    return c < 0 || (c == 0 && la < lb);
  }
  if (ra == 2) return lua_toboolean(L, a) < lua_toboolean(L, b);
  return false;
}

// next(t, k) in the order pairs uses, so that a loop written with next is as repeatable as
// one written with pairs. Each call scans the table and is charged to the budget as 4
// instructions a key: a full walk with next is quadratic (pairs is the way to walk a large
// table).
int SafeNext(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);  // 2: the key to follow (nil: from the start)
  const bool from_start = lua_isnil(L, 2);
  if (!from_start && KeyRank(L, 2) == 3) {
    // Past an unordered key: the raw order from there, unordered keys only.
    Runtime::From(L)->Charge(L, 4);
    lua_pushvalue(L, 2);
    for (;;) {
      if (!lua_next(L, 1)) {
        lua_pushnil(L);
        return 1;
      }
      if (KeyRank(L, -2) == 3) return 2;
      lua_pop(L, 1);
    }
  }
  // The least ordered key greater than the one given (any, from the start), kept in slot 3.
  lua_pushnil(L);
  bool found = false;
  int64_t keys = 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    ++keys;
    if (KeyRank(L, -1) == 3) continue;
    if ((from_start || KeyLessAt(L, 2, -1)) && (!found || KeyLessAt(L, -1, 3))) {
      found = true;
      lua_pushvalue(L, -1);
      lua_replace(L, 3);
    }
  }
  Runtime::From(L)->Charge(L, 4 * keys);
  if (found) {
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 3);
    lua_rawget(L, 1);
    return 2;
  }
  // Then the unordered keys, in the table's order.
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    if (KeyRank(L, -2) == 3) return 2;
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  return 1;
}

// ---- table functions: lengths that cannot lie, element work charged up front -------------

// A stock table.* call loops as often as its range arguments or a __len metamethod say, without
// running one Lua instruction: table.move({}, 1, 1e15, 2), or table.insert(t, 1, x) on a table
// whose __len returns math.maxinteger, ran until killed. Script tables with __len are refused
// (host data proxies keep their honest __len), and the elements a call will visit are charged
// to the budget before it runs.
lua_Integer TableLen(lua_State* L) {
  const int t = lua_type(L, 1);
  const bool has_len = (t == LUA_TTABLE || t == LUA_TUSERDATA) && luaL_getmetafield(L, 1, "__len") != LUA_TNIL;
  if (has_len) lua_pop(L, 1);
  if (t == LUA_TTABLE) {
    if (has_len) SandboxError(L, "sandbox: table functions do not accept a table with a __len metamethod");
    return static_cast<lua_Integer>(lua_rawlen(L, 1));
  }
  return has_len ? luaL_len(L, 1) : 0;  // other values: the stock function raises its own error
}

double NumberArg(lua_State* L, int arg, double fallback) {
  int ok = 0;
  const lua_Number v = lua_tonumberx(L, arg, &ok);
  return ok ? static_cast<double>(v) : fallback;
}

void ChargeElements(lua_State* L, double n) {
  if (n >= 1) Runtime::From(L)->Charge(L, static_cast<int64_t>(std::min(n, 1e15)));
}

int SafeTableInsert(lua_State* L) {  // insert(t, pos, v) shifts #t + 1 - pos elements
  const lua_Integer n = TableLen(L);
  if (lua_gettop(L) == 3) ChargeElements(L, static_cast<double>(n) + 1 - NumberArg(L, 2, 0));
  return CallOriginal(L);
}

int SafeTableRemove(lua_State* L) {  // remove(t, pos) shifts #t - pos elements
  const lua_Integer n = TableLen(L);
  ChargeElements(L, static_cast<double>(n) - NumberArg(L, 2, static_cast<double>(n)));
  return CallOriginal(L);
}

int SafeTableSort(lua_State* L) {
  const double n = static_cast<double>(TableLen(L));
  if (n > 1) ChargeElements(L, n * std::log2(n));
  return CallOriginal(L);
}

int SafeTableConcat(lua_State* L) {  // concat(t, sep, i, j)
  const double n = static_cast<double>(TableLen(L));
  ChargeElements(L, NumberArg(L, 4, n) - NumberArg(L, 3, 1) + 1);
  return CallOriginal(L);
}

int SafeTableUnpack(lua_State* L) {  // unpack(t, i, j)
  const double n = static_cast<double>(TableLen(L));
  ChargeElements(L, NumberArg(L, 3, n) - NumberArg(L, 2, 1) + 1);
  return CallOriginal(L);
}

int SafeTableMove(lua_State* L) {  // move(a1, f, e, t [, a2]): the range is given, not a length
  ChargeElements(L, NumberArg(L, 3, 0) - NumberArg(L, 2, 0) + 1);
  return CallOriginal(L);
}

int SafeCollectgarbage(lua_State* L) {
  const char* opt = luaL_optstring(L, 1, "count");
  if (std::strcmp(opt, "count") != 0) return SandboxError(L, "sandbox: collectgarbage only supports \"count\"");
  lua_pushnumber(L, static_cast<lua_Number>(lua_gc(L, LUA_GCCOUNT)) + lua_gc(L, LUA_GCCOUNTB) / 1024.0);
  return 1;
}

// ---- math.random through the host RNG --------------------------------------------------

int HostRandom(lua_State* L) {
  Rng* rng = Runtime::From(L)->rng();
  if (!rng) return luaL_error(L, "math.random is not available here (no game state in this hook)");
  lua_Integer lo, hi;
  switch (lua_gettop(L)) {
    case 0: lua_pushnumber(L, rng->Unit()); return 1;
    case 1: lo = 1; hi = luaL_checkinteger(L, 1); break;
    case 2: lo = luaL_checkinteger(L, 1); hi = luaL_checkinteger(L, 2); break;
    default: return luaL_error(L, "wrong number of arguments");
  }
  luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
  lua_pushinteger(L, rng->Int(lo, hi));
  return 1;
}

int HostRandomseed(lua_State* L) {
  return SandboxError(L, "sandbox: the random seed belongs to the host (use the game's --seed)");
}

// ---- require inside the game's own folders ---------------------------------------------

int SafeRequire(lua_State* L) {
  size_t len;
  const char* name = luaL_checklstring(L, 1, &len);
  std::string mod(name, len);
  bool ok = !mod.empty() && mod.size() < 128 && mod.find("..") == std::string::npos && mod[0] != '/';
  for (char c : mod) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/' || c == '-' || c == '.');
  if (!ok) return SandboxError(L, "sandbox: bad module name '%s' (letters, digits, '_', '-', '/' inside the game folder)", name);
  for (char& c : mod)
    if (c == '.') c = '/';
  // Cache in the registry so each module runs once per VM.
  lua_getfield(L, LUA_REGISTRYINDEX, "plateau.loaded");
  if (lua_getfield(L, -1, mod.c_str()) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  Runtime* rt = Runtime::From(L);
  const Runtime::Source src = rt->FindSource(mod + ".lua");
  if (!src.found) {
    // Name every folder looked in; a game that extends nothing is told how a base's modules are
    // found, since forgetting "extends" is how a variant usually gets here.
    const auto& roots = rt->source_roots();
    std::string where = roots.empty() ? "the game folder" : roots.front().display;
    for (size_t i = 1; i < roots.size(); ++i) where += (i + 1 == roots.size() ? " nor " : ", ") + roots[i].display;
    const std::string hint = roots.size() == 1
        ? " (the modules of a base game are found only when game.json names the base in \"extends\")"
        : "";
    return luaL_error(L, "module '%s' not found in %s (looked for %s.lua)%s", name, where.c_str(), mod.c_str(), hint.c_str());
  }
  if (!src.error.empty()) return SandboxError(L, "sandbox: %s", src.error.c_str());
  const std::string chunk = "@" + src.name;
  if (luaL_loadbufferx(L, src.text.data(), src.text.size(), chunk.c_str(), "t") != LUA_OK) {
    const std::string why = ExplainCompileError(lua_tostring(L, -1) ? lua_tostring(L, -1) : "", src.text, src.name);
    lua_pushstring(L, why.c_str());
    return lua_error(L);
  }
  rt->PushEnv();
  lua_setupvalue(L, -2, 1);
  // A module that requires itself, directly or through others, would recurse until the C
  // stack ran out ("C stack overflow", with no file named): refused by name instead.
  lua_getfield(L, LUA_REGISTRYINDEX, "plateau.loading");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, "plateau.loading");
  }
  const int loading = lua_gettop(L);
  if (lua_getfield(L, loading, mod.c_str()) != LUA_TNIL)
    return luaL_error(L, "module '%s' requires itself (a cycle of require calls)", name);
  lua_pop(L, 1);
  lua_pushboolean(L, 1);
  lua_setfield(L, loading, mod.c_str());
  lua_pushvalue(L, loading - 1);  // the chunk
  lua_pushstring(L, mod.c_str());
  const int rc = lua_pcall(L, 1, 1, 0);
  lua_pushnil(L);
  lua_setfield(L, loading, mod.c_str());
  if (rc != LUA_OK) return lua_error(L);  // the same error object: a budget kill stays one
  lua_replace(L, loading - 1);  // the result where the chunk was
  lua_settop(L, loading - 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, mod.c_str());
  return 1;
}

// ---- read-only tables ------------------------------------------------------------------

int ReadOnlyNewindex(lua_State* L) {
  return SandboxError(L, "sandbox: attempt to modify read-only table (field '%s')", KeyText(L, 2).c_str());
}

int EnvIndex(lua_State* L) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return luaL_error(L, "undeclared global '%s'", lua_tostring(L, 2));
  return 0;
}

int EnvNewindex(lua_State* L) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return luaL_error(L, "assignment to undeclared global '%s' (declare it 'local')", lua_tostring(L, 2));
  return luaL_error(L, "assignment to the global table");
}

int ProxyLen(lua_State* L) {
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__index");
  lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, -1)));
  return 1;
}

int ProxyPairs(lua_State* L) {
  lua_getmetatable(L, 1);
  lua_getfield(L, -1, "__index");
  lua_pushcfunction(L, SafePairs);
  lua_insert(L, -2);
  lua_call(L, 1, 3);
  return 3;
}

}  // namespace

// Pushes registry table `name`, made on first use with weak `mode` ("k" or "v").
void PushWeakRegistryTable(lua_State* L, const char* name, const char* mode) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, name) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, name);
}

// If the value at `idx` is a read-only proxy (MakeReadOnly), pushes the table it stands for and
// returns true. Raw reads only: callers run outside budgeted calls too, and a script may dress
// up a table of its own as a proxy.
bool PushFrozenSource(lua_State* L, int idx) {
  if (luaL_getmetafield(L, idx, "__plateau_frozen") == LUA_TNIL) return false;
  lua_pop(L, 1);
  lua_getmetatable(L, idx);
  lua_pushliteral(L, "__index");
  lua_rawget(L, -2);
  lua_remove(L, -2);
  return true;
}

// Wraps the table at the top of the stack in a read-only proxy (replacing it).
void MakeReadOnly(lua_State* L) {
  lua_newtable(L);                  // proxy
  lua_createtable(L, 0, 5);         // its metatable
  lua_pushvalue(L, -3);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, ReadOnlyNewindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, ProxyLen);
  lua_setfield(L, -2, "__len");
  lua_pushcfunction(L, ProxyPairs);
  lua_setfield(L, -2, "__pairs");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "__plateau_frozen");  // lets the host read through the proxy
  lua_setmetatable(L, -2);
  lua_remove(L, -2);
}

namespace {

// Copies the listed fields of library `lib` (opened into a private table) into a new table.
void CopyFields(lua_State* L, int from, const std::vector<const char*>& names) {
  lua_createtable(L, 0, static_cast<int>(names.size()));
  for (const char* n : names) {
    lua_getfield(L, from, n);
    lua_setfield(L, -2, n);
  }
}

void WrapField(lua_State* L, int lib_copy, int original_lib, const char* name, lua_CFunction wrapper) {
  lua_getfield(L, original_lib, name);
  lua_pushcclosure(L, wrapper, 1);
  lua_setfield(L, lib_copy, name);
}

}  // namespace

void InstallSandbox(lua_State* L, Runtime* rt, int* env_ref) {
  // Open the libraries into private tables; scripts only ever see copies of allowed fields.
  luaL_requiref(L, "_G", luaopen_base, 0);
  const int base = lua_gettop(L);
  luaL_requiref(L, "string", luaopen_string, 0);
  const int str = lua_gettop(L);
  luaL_requiref(L, "table", luaopen_table, 0);
  const int tab = lua_gettop(L);
  luaL_requiref(L, "math", luaopen_math, 0);
  const int math = lua_gettop(L);
  luaL_requiref(L, "utf8", luaopen_utf8, 0);
  const int utf = lua_gettop(L);
  luaL_requiref(L, "coroutine", luaopen_coroutine, 0);
  const int co = lua_gettop(L);

  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, "plateau.loaded");

  lua_newtable(L);  // the environment
  const int env = lua_gettop(L);
  for (const char* n : {"assert", "error", "ipairs", "rawequal", "rawget", "rawlen", "select",
                        "getmetatable", "tonumber", "type"}) {
    lua_getfield(L, base, n);
    lua_setfield(L, env, n);
  }
  lua_pushliteral(L, LUA_VERSION);
  lua_setfield(L, env, "_VERSION");
  const struct { const char* name; lua_CFunction f; } base_wrappers[] = {
      {"pcall", SafePcall},         {"xpcall", SafeXpcall},       {"setmetatable", SafeSetmetatable},
      {"tostring", SafeTostring},   {"print", SafePrint},         {"pairs", SafePairs},  {"next", SafeNext},
      {"collectgarbage", SafeCollectgarbage}, {"require", SafeRequire}};
  for (const auto& w : base_wrappers) {
    lua_pushcfunction(L, w.f);
    lua_setfield(L, env, w.name);
  }

  // string: no dump; bounded rep and patterns; format without addresses.
  CopyFields(L, str, {"byte", "char", "len", "lower", "reverse", "sub", "upper", "pack", "packsize", "unpack"});
  const int scopy = lua_gettop(L);
  WrapField(L, scopy, str, "rep", SafeRep);
  WrapField(L, scopy, str, "format", SafeFormat);
  WrapField(L, scopy, str, "find", SafeFind);
  WrapField(L, scopy, str, "match", SafeMatch);
  WrapField(L, scopy, str, "gsub", SafeMatch);  // gsub anchors on ^ as match does
  WrapField(L, scopy, str, "gmatch", SafeGmatch);
  for (const char* name : {"upper", "lower", "reverse"}) WrapField(L, scopy, str, name, ChargeSubject);
  // The shared string metatable now indexes the safe copy, and is hidden from scripts.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_pushvalue(L, scopy);
  lua_setfield(L, -2, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);
  lua_pushvalue(L, scopy);
  MakeReadOnly(L);
  lua_setfield(L, env, "string");
  lua_pop(L, 1);  // scopy

  CopyFields(L, tab, {"concat", "insert", "move", "pack", "remove", "sort", "unpack"});
  const struct { const char* name; lua_CFunction f; } table_wrappers[] = {
      {"concat", SafeTableConcat}, {"insert", SafeTableInsert}, {"move", SafeTableMove},
      {"remove", SafeTableRemove}, {"sort", SafeTableSort},     {"unpack", SafeTableUnpack}};
  for (const auto& w : table_wrappers) WrapField(L, lua_gettop(L), tab, w.name, w.f);
  MakeReadOnly(L);
  lua_setfield(L, env, "table");

  CopyFields(L, math, {"abs", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger",
                       "min", "mininteger", "modf", "pi", "rad", "sin", "sqrt", "tan", "tointeger", "type", "ult",
                       "acos", "asin", "atan"});
  lua_pushcfunction(L, HostRandom);
  lua_setfield(L, -2, "random");
  lua_pushcfunction(L, HostRandomseed);
  lua_setfield(L, -2, "randomseed");
  MakeReadOnly(L);
  lua_setfield(L, env, "math");

  CopyFields(L, utf, {"char", "charpattern", "codes", "codepoint", "len", "offset"});
  WrapField(L, lua_gettop(L), utf, "len", ChargeSubject);
  MakeReadOnly(L);
  lua_setfield(L, env, "utf8");

  CopyFields(L, co, {"isyieldable", "running", "status", "yield"});
  lua_pushcfunction(L, CoCreate);
  lua_setfield(L, -2, "create");
  lua_pushcfunction(L, CoResume);
  lua_setfield(L, -2, "resume");
  lua_pushcfunction(L, CoWrap);
  lua_setfield(L, -2, "wrap");
  MakeReadOnly(L);
  lua_setfield(L, env, "coroutine");

  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");

  // Strict globals: reading an undeclared name or assigning any global is an error.
  lua_createtable(L, 0, 3);
  lua_pushcfunction(L, EnvIndex);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, EnvNewindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, env);

  lua_pushvalue(L, env);
  *env_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_settop(L, base - 1);

  // Remove the libraries' globals from the real global table too: nothing should reach it.
  lua_pushglobaltable(L);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, -4);
  }
  lua_pop(L, 1);
  // Drop the loaded-library cache that could hand the originals back.
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  (void)rt;
}

}  // namespace plateau::scripting
