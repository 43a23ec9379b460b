// Lua bindings of the game's random number generator (host/rng.h): ctx.rng.int, ctx.rng.pick
// and ctx.rng.shuffle, only in hooks that may change the state (RandomSource).
#include <string>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

int RngInt(lua_State* L) {
  State* s = RandomSource(L, "ctx.rng");
  const lua_Integer lo = CheckIntRange(L, 2, INT64_MIN / 2, INT64_MAX / 2, "lower bound"),
                    hi = CheckIntRange(L, 3, INT64_MIN / 2, INT64_MAX / 2, "upper bound");
  luaL_argcheck(L, lo <= hi, 3, "interval is empty");
  lua_pushinteger(L, s->rng.Int(lo, hi));
  return 1;
}

// A list's length as the host may trust it: a frozen data proxy's own list, or a plain
// table's raw length; a script table with a __len metamethod (which could claim any size, or
// loop) is refused.
lua_Integer TrustedLength(lua_State* L, int idx) {
  luaL_checktype(L, idx, LUA_TTABLE);
  if (PushFrozenSource(L, idx)) {
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, -1));
    lua_pop(L, 1);
    return n;
  }
  if (luaL_getmetafield(L, idx, "__len") != LUA_TNIL) RaiseArg(L, idx, "a list with a __len metamethod is not accepted");
  return static_cast<lua_Integer>(lua_rawlen(L, idx));
}

int RngPick(lua_State* L) {
  State* s = RandomSource(L, "ctx.rng");
  const lua_Integer n = TrustedLength(L, 2);
  if (n <= 0) RaiseArg(L, 2, "cannot pick from an empty list");
  const lua_Integer k = s->rng.Int(1, n);
  lua_geti(L, 2, k);
  lua_pushinteger(L, k);
  return 2;
}

int RngShuffle(lua_State* L) {
  State* s = RandomSource(L, "ctx.rng");
  const lua_Integer n = TrustedLength(L, 2);
  if (n > 1) Runtime::From(L)->Charge(L, n);  // one C loop over the list
  for (lua_Integer i = n; i > 1; --i) {
    const lua_Integer j = s->rng.Int(1, i);
    lua_geti(L, 2, i);
    lua_geti(L, 2, j);
    lua_seti(L, 2, i);
    lua_seti(L, 2, j);
  }
  lua_settop(L, 2);
  return 1;
}

}  // namespace

// ctx.rng, on the ctx table at the top of the stack.
void OpenRngBindings(lua_State* L, int up) {
  static const luaL_Reg rng_methods[] = {{"int", RngInt}, {"pick", RngPick}, {"shuffle", RngShuffle}, {nullptr, nullptr}};
  lua_newtable(L);
  SetFuncs(L, rng_methods, up);
  MakeReadOnly(L);
  lua_setfield(L, -2, "rng");
}

}  // namespace plateau::scripting
