// What every binding file shares (scripting/ only, never included by host code): the
// Binding in upvalue 1, state access that enforces read-only hooks and feeds the undo journal,
// and the argument checks that every module's bindings shape the same way.
#pragma once

#include <lua.hpp>

#include <string>

#include "host/limits.h"
#include "scripting/bindings.h"
#include "scripting/runtime.h"

namespace plateau::scripting {

inline Binding* B(lua_State* L) { return static_cast<Binding*>(lua_touserdata(L, lua_upvalueindex(1))); }

inline State* Readable(lua_State* L) {
  Binding* b = B(L);
  if (!b->state) Raise(L, "no game state is available while the rules load");
  return b->state;
}

// Without moving the data handles' epoch: for writes that move no JSON node.
inline State* WritableInPlace(lua_State* L) {
  Binding* b = B(L);
  State* s = Readable(L);
  if (!b->writable) Raise(L, std::string("state is read-only in hook '") + b->hook + "'");
  return s;
}

inline State* Writable(lua_State* L) {
  State* s = WritableInPlace(L);
  ++B(L)->epoch;
  return s;
}

// The same, for a write to `parts` of the state (StateUndo::Part), which the undo journal
// copies first when one is active.
inline State* Writable(lua_State* L, uint32_t parts) {
  State* s = Writable(L);
  if (StateUndo* undo = B(L)->undo) undo->Save(*s, parts);
  return s;
}

// Seats: 1-based integers, or the name/kind of a seat ("neutral", "opponent", "P2").
int CheckSeat(lua_State* L, int arg, const State& s);
// Every number a script hands the host is checked here, once: an integer argument within
// [lo, hi], named in the error. Fractions, NaN and infinities are "expected an integer, got
// 1.5"; whole numbers beyond the range (2^40, 1e300) are "1e+300 outside lo..hi", never
// truncated. Ranges come from host/limits.h.
lua_Integer CheckIntRange(lua_State* L, int arg, lua_Integer lo, lua_Integer hi, const char* what);
// The same for an optional argument (`def` when nil or absent).
lua_Integer OptIntRange(lua_State* L, int arg, lua_Integer def, lua_Integer lo, lua_Integer hi, const char* what);
// The same for field `field` of the table at `table` (`def` when nil).
lua_Integer FieldIntRange(lua_State* L, int table, const char* field, lua_Integer def, lua_Integer lo, lua_Integer hi,
                          const char* what);
// A cell coordinate within -limits::kCoord..limits::kCoord.
int CheckCoordArg(lua_State* L, int arg);
void PushCoord(lua_State* L, Coord c);
// Pushes each function as a closure over (binding, card-name cache) at stack slots up, up + 1.
void SetFuncs(lua_State* L, const luaL_Reg* regs, int up);
// Creates metatable `name` for a handle type whose methods are closures over the binding.
void RegisterHandle(lua_State* L, const char* name, const luaL_Reg* methods, int up);

// Tile maps (bind_tile_map.cc): state:tile_map, state:add_tile_map and the handle's methods.
int StateTileMap(lua_State* L);
int StateAddTileMap(lua_State* L);
void OpenTileMapBindings(lua_State* L, int up);
// Region maps (bind_region_map.cc): state:region_map, state:add_region_map and their methods.
int StateRegionMap(lua_State* L);
int StateAddRegionMap(lua_State* L);
void OpenRegionMapBindings(lua_State* L, int up);
// Scales (bind_scale.cc): ctx.scale(id) and the scale handle's methods.
int CtxScale(lua_State* L);
void OpenScaleBindings(lua_State* L, int up);

}  // namespace plateau::scripting
