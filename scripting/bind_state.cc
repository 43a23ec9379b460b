// Lua bindings of the state object (host/state.h): its fields (phase, round, turn, data...),
// the seats, state:ask, state:set_phase and state:set_round, and the one `state` object whose
// methods include every module's state:<module> and state:add_<module>.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "host/json_io.h"

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

int StateSeats(lua_State* L) {
  State* s = Readable(L);
  lua_createtable(L, static_cast<int>(s->seats.size()), 0);
  for (size_t i = 0; i < s->seats.size(); ++i) {
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, static_cast<lua_Integer>(i + 1));
    lua_setfield(L, -2, "seat");
    lua_pushstring(L, s->seats[i].name.c_str());
    lua_setfield(L, -2, "name");
    lua_pushstring(L, s->seats[i].kind.c_str());
    lua_setfield(L, -2, "kind");
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

// state:kind(seat): "player", "neutral", "opponent"... without building the seat list.
int StateKind(lua_State* L) {
  State* s = Readable(L);
  lua_pushstring(L, s->seats[static_cast<size_t>(CheckSeat(L, 2, *s))].kind.c_str());
  return 1;
}

// state:read(key): a plain copy of state.data[key] (nil when absent). Reading a whole list
// this way costs one call instead of one handle per element.
int StateRead(lua_State* L) {
  State* s = Readable(L);
  const char* key = luaL_checkstring(L, 2);
  auto it = s->data.find(key);
  if (it == s->data.end()) return 0;
  PushJson(L, *it);
  return 1;
}

// state:data_version(): changes whenever state.data may have changed (host/state.h).
int StateDataVersion(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(Readable(L)->data_version));
  return 1;
}

// state:asked(): the seats with a question open, answered or not: an answer given while other
// seats are still to answer is kept aside until they have, and its seat stays listed until it
// runs. Whether a seat has answered is public at a table; what it answered is not, and this
// says nothing of it. A list of one seat: that seat's answer runs at once, alone.
int StateAsked(lua_State* L) {
  State* s = Readable(L);
  lua_createtable(L, 1, 0);
  lua_Integer n = 0;
  for (size_t i = 0; i < s->flow.asks.size(); ++i)
    if (!s->flow.asks[i].empty()) {
      lua_pushinteger(L, static_cast<lua_Integer>(i + 1));
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}

int StateIndex(lua_State* L) {
  const char* key = luaL_checkstring(L, 2);
  // The methods were looked up before this runs (it is their table's __index); a raw lookup
  // here serves a caller holding only the closure (upvalue 3 is the method table).
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(3)) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  State* s = Readable(L);
  if (std::strcmp(key, "data") == 0) {
    // One root handle serves every call: it names no state, only "the root of the current
    // state's data", so it is made once and kept as an upvalue.
    if (lua_type(L, lua_upvalueindex(4)) != LUA_TUSERDATA) {
      PushDataProxy(L, 0, 0);
      lua_pushvalue(L, -1);
      lua_replace(L, lua_upvalueindex(4));
      return 1;
    }
    lua_pushvalue(L, lua_upvalueindex(4));
    return 1;
  }
  if (std::strcmp(key, "player_count") == 0) lua_pushinteger(L, s->player_count);
  else if (std::strcmp(key, "seat_count") == 0) lua_pushinteger(L, static_cast<lua_Integer>(s->seats.size()));
  else if (std::strcmp(key, "phase") == 0) lua_pushstring(L, s->flow.phase.c_str());
  else if (std::strcmp(key, "round") == 0) lua_pushinteger(L, s->flow.round + 1);
  else if (std::strcmp(key, "turn") == 0) lua_pushinteger(L, s->flow.turn + 1);
  else if (std::strcmp(key, "move_count") == 0) lua_pushinteger(L, s->move_count);
  else return luaL_error(L, "state has no field '%s'", key);
  return 1;
}

// state:ask(seat, moves): the rules put a question to a seat; its answer is one of `moves`.
// An empty list withdraws the question.
int StateAsk(lua_State* L) {
  State* s = Writable(L);
  const int seat = CheckSeat(L, 2, *s);
  // The journal keeps only this seat's question, unless the list has no place for it yet.
  if (StateUndo* undo = B(L)->undo) {
    if (s->flow.asks.size() < s->seats.size()) undo->Save(*s, StateUndo::kFlow);
    else undo->SaveAsk(*s, static_cast<size_t>(seat));
  }
  std::vector<Move> moves;
  if (luaL_testudata(L, 3, "plateau.moves")) {  // built by the host: handed over, not copied
    MoveList* list = CheckMoveList(L, 3);
    moves = std::move(list->moves);
    list->moves.clear();
  } else {
    if (!lua_istable(L, 3)) RaiseArg(L, 3, "a list of moves, or a move list from the host, was expected");
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 3));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, 3, i);
      Move m;
      std::string error;
      if (!LuaToMove(L, -1, *B(L)->cards, &m, &error)) Raise(L, "ask: move #" + std::to_string(i) + ": " + error);
      lua_pop(L, 1);
      moves.push_back(std::move(m));
    }
  }
  if (s->flow.asks.size() < s->seats.size()) s->flow.asks.resize(s->seats.size());
  s->flow.asks[static_cast<size_t>(seat)] = std::move(moves);
  return 0;
}

int StateSetPhase(lua_State* L) {
  State* s = Writable(L, StateUndo::kFlow);
  size_t len;
  const char* phase = luaL_checklstring(L, 2, &len);
  if (!IsValidUtf8(phase, len)) RaiseArg(L, 2, "the phase must be UTF-8 text");
  if (len > 256) RaiseArg(L, 2, "the phase name is " + std::to_string(len) + " bytes, over 256");
  s->flow.phase.assign(phase, len);
  return 0;
}

// Games without a draft count their own rounds; telling the host lets simulations stop a game
// that never ends (--max-rounds) and report lengths without a game-specific probe.
int StateSetRound(lua_State* L) {
  State* s = Writable(L, StateUndo::kFlow);
  const lua_Integer n = CheckIntRange(L, 2, 1, limits::kRounds, "round");
  if (s->flow.phase == "draft") return luaL_error(L, "the draft owns state.round while it runs");
  s->flow.round = static_cast<int>(n - 1);
  B(L)->counts_rounds = true;
  return 0;
}

}  // namespace

void OpenStateBindings(lua_State* L, int up) {
  static const luaL_Reg state_methods[] = {{"grid", StateGrid},   {"zone", StateZone},
                                           {"seats", StateSeats}, {"set_phase", StateSetPhase}, {"set_round", StateSetRound},
                                           {"ask", StateAsk},     {"asked", StateAsked}, {"kind", StateKind},
                                           {"read", StateRead},   {"counter", StateCounter},
                                           {"data_version", StateDataVersion},
                                           {"track", StateTrack}, {"add_counter", StateAddCounter},
                                           {"add_track", StateAddTrack}, {"add_zone", StateAddZone},
                                           {"add_grid", StateAddGrid}, {"tile_map", StateTileMap},
                                           {"add_tile_map", StateAddTileMap}, {"region_map", StateRegionMap},
                                           {"add_region_map", StateAddRegionMap}, {nullptr, nullptr}};
  // state:grid(k) and the other methods are found in the method table itself, in the VM;
  // only what it lacks (state.data, state.player_count ...) reaches StateIndex, through the
  // method table's own __index. (A C __index for every method call cost as much as the call.)
  luaL_newmetatable(L, "plateau.state");
  lua_newtable(L);  // the methods
  SetFuncs(L, state_methods, up);
  lua_newtable(L);  // its metatable
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_pushvalue(L, -4);  // StateIndex's upvalue 3: the methods, for the error of a missing one
  lua_pushnil(L);  // the root data handle, made on first use
  lua_pushcclosure(L, StateIndex, 4);
  lua_setfield(L, -2, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  // The one state object.
  lua_newuserdatauv(L, 0, 0);
  luaL_setmetatable(L, "plateau.state");
  lua_setfield(L, LUA_REGISTRYINDEX, "plateau.state_object");
}

void PushState(lua_State* L) { lua_getfield(L, LUA_REGISTRYINDEX, "plateau.state_object"); }

}  // namespace plateau::scripting
