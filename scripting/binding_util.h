// What every binding file shares (scripting/ only, never included by host code): the
// Binding in upvalue 1, state access that enforces read-only hooks and feeds the undo journal,
// and the argument checks that every module's bindings shape the same way.
#pragma once

#include <lua.hpp>

#include <string>
#include <vector>

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

// Card ids by name, from the bindings' shared name table (upvalue 2); kNoCard when unknown.
CardId LookupCard(lua_State* L, int idx);
// A card name argument: "unknown card 'x'" when the game has none by that name.
CardId CheckCard(lua_State* L, int arg);
void PushCardName(lua_State* L, CardId id);
// The state key (State::Key) of a name argument and an optional seat argument.
std::string OwnedKey(lua_State* L, int name_arg, int seat_arg, const State& s);
// The state, for a binding that draws a random number: refused in read-only hooks.
State* RandomSource(lua_State* L, const char* what);
// Names the metatable on the stack's top for messages and hides it from scripts.
void NameAndSeal(lua_State* L, const char* display);
// From sandbox.cc: read-only proxies and the registry's weak tables.
void MakeReadOnly(lua_State* L);
void PushWeakRegistryTable(lua_State* L, const char* name, const char* mode);
bool PushFrozenSource(lua_State* L, int idx);

// Pushes a JSON scalar (PushJson, PushMove); false (nothing pushed) for an array or object.
inline bool PushJsonScalar(lua_State* L, const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: lua_pushnil(L); return true;
    case Json::value_t::boolean: lua_pushboolean(L, *j.get_ptr<const Json::boolean_t*>()); return true;
    case Json::value_t::number_integer: lua_pushinteger(L, *j.get_ptr<const Json::number_integer_t*>()); return true;
    case Json::value_t::number_unsigned:
      lua_pushinteger(L, static_cast<lua_Integer>(*j.get_ptr<const Json::number_unsigned_t*>()));
      return true;
    case Json::value_t::number_float: lua_pushnumber(L, *j.get_ptr<const Json::number_float_t*>()); return true;
    case Json::value_t::string: {
      const std::string& str = *j.get_ptr<const Json::string_t*>();
      lua_pushlstring(L, str.data(), str.size());
      return true;
    }
    case Json::value_t::array:
    case Json::value_t::object: return false;
    default: lua_pushnil(L); return true;
  }
}

// Each host module's bindings: state:<module> and state:add_<module> where the state has them,
// and Open<Module>Bindings, called once per VM by OpenBindings (bindings.cc) with the binding
// and the card-name cache at stack slots up, up + 1.
// Grids (bind_grid.cc): the grid handle and the move lists grid:relocations returns, which
// state:ask takes over (the list is empty afterwards) without reading a Lua table per move.
// A list's userdata block is sized after the moves' memory, so the VM's memory cap and
// collector see what it holds.
struct MoveList {
  std::vector<Move> moves;
};
inline MoveList* CheckMoveList(lua_State* L, int idx) { return static_cast<MoveList*>(luaL_checkudata(L, idx, "plateau.moves")); }
Grid* CheckGrid(lua_State* L, bool write);
int StateGrid(lua_State* L);
int StateAddGrid(lua_State* L);
void OpenGridBindings(lua_State* L, int up);
// Grid views and compiled queries (bind_view.cc): grid:view, ctx.view, ctx.query, ctx.card_set.
int GridView_(lua_State* L);
int CtxQuery(lua_State* L);
int CtxCardSet(lua_State* L);
int CtxView(lua_State* L);
void OpenViewBindings(lua_State* L, int up);
// Zones (bind_zone.cc).
int StateZone(lua_State* L);
int StateAddZone(lua_State* L);
void OpenZoneBindings(lua_State* L, int up);
// Counters and tracks (bind_counter.cc).
int StateCounter(lua_State* L);
int StateTrack(lua_State* L);
int StateAddCounter(lua_State* L);
int StateAddTrack(lua_State* L);
void OpenCounterBindings(lua_State* L, int up);
// Data handles (bind_data.cc): FindDataNode is the node the data handle at `idx` stands for in
// `s` (null when its path no longer resolves); PushDataProxy pushes the handle of key `key_idx`
// under the handle at `parent_idx` (0, 0: the root of state.data).
Json* FindDataNode(lua_State* L, int idx, State* s);
void PushDataProxy(lua_State* L, int parent_idx, int key_idx);
void OpenDataBindings(lua_State* L, int up);
// The state object (bind_state.cc), whose methods are every module's state:<module>.
void OpenStateBindings(lua_State* L, int up);
// Moves (bind_move.cc): ctx.move and the frozen moves it makes (PushMove and LuaToMove are
// in bindings.h).
int CtxMove(lua_State* L);
void OpenMoveBindings(lua_State* L, int up);
// ctx.rng (bind_rng.cc) and ctx.dice (bind_dice.cc), set on the ctx table at the stack's top.
void OpenRngBindings(lua_State* L, int up);
void OpenDiceBindings(lua_State* L, int up);
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
