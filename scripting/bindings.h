// Lua bindings of the host: the `ctx` services table and the `state` object with its
// grid, zone and data handles. Scripts only touch host state through these, so the host
// can make hooks read-only, snapshot before writes and restore after a failure.
#pragma once

#include <string>

#include "host/game.h"

struct lua_State;

namespace plateau::scripting {

// What the bindings operate on during one call into Lua.
struct Binding {
  State* state = nullptr;   // null outside game calls (load time)
  bool writable = false;
  const char* hook = "";   // current hook name, for "read-only" errors
  const CardSet* cards = nullptr;
  const ScaleSet* scales = nullptr;  // the game's scales data file (ctx.scale), null when none
  // When set, every write first records what it changes, so the caller can undo a failed
  // move without having copied the whole state beforehand.
  StateUndo* undo = nullptr;
  // Data handles remember the JSON node they resolved to while this stays the same. It moves
  // on whenever a node may have moved: at the start and end of every hook call, on every
  // write through a binding but a data handle's in-place write of a single value, and when a
  // journal puts the state back.
  uint64_t epoch = 1;
  // The rules called state:set_round: they count rounds (PlayOut's per-round move limit).
  bool counts_rounds = false;
  // Registry reference of the grid handles by grid index (bind_grid.cc), set once per VM.
  int grid_handles = 0;
  const void* grid_meta = nullptr;  // the grid handles' metatable, to know a handle by
};

// Installs metatables and pushes nothing. Call once per VM.
void OpenBindings(lua_State* L, Binding* binding);
// Pushes the state object for the current binding.
void PushState(lua_State* L);
// Converts between Lua values and JSON. LuaToJson rejects functions, userdata other than
// data handles, cycles and nesting deeper than 32, with a message in *error.
bool LuaToJson(lua_State* L, int idx, Json* out, std::string* error);
// Bytes LuaToJson has converted on this thread since the last call (the host's copies of
// script values): a hook that stored a lot has the state's data measured after it.
size_t TakeConvertedBytes();
// Bytes the last LuaToJson on this thread converted.
size_t LastConversionBytes();
// The bytes `j` stands for (16 a value plus its text), counted up to about `limit`.
size_t JsonTextBytes(const Json& j, size_t limit);
// A value as a refusal shows it: "1.5", "1e+300", "nan", "9223372036854775807", or its type
// name when it is not a number. Floats print in the fewest digits that read back the same.
std::string NumberText(lua_State* L, int idx);
void PushJson(lua_State* L, const Json& j);
// Pushes a deep read-only copy of `j` (game data files, parameters).
void PushFrozenJson(lua_State* L, const Json& j);
// Whether the value at idx is a move made by ctx.move (a frozen, read-only table).
bool IsFrozenMove(lua_State* L, int idx);
// Moves as Lua tables: {type=..., card=..., cell={r, c}, to={r, c}, ...}.
void PushMove(lua_State* L, const Move& m, const CardSet& cards);
bool LuaToMove(lua_State* L, int idx, const CardSet& cards, Move* out, std::string* error);
// Pushes a seat number as scripts see it (1-based).
inline int LuaSeat(int seat) { return seat + 1; }

}  // namespace plateau::scripting
