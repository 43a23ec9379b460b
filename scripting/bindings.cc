// Lua bindings of host state and services (see bindings.h). Every binding function gets
// the Binding as upvalue 1, so no registry lookup happens on the hot path.
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

// ---- shared by every binding file (binding_util.h) ----------------------------------

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
  if (whole && d >= static_cast<double>(lo) && d <= static_cast<double>(hi)) {
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

void MakeReadOnly(lua_State* L);  // sandbox.cc
void PushWeakRegistryTable(lua_State* L, const char* name, const char* mode);  // sandbox.cc
bool PushFrozenSource(lua_State* L, int idx);  // sandbox.cc

namespace {

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
  if (id == kNoCard) RaiseArg(L, arg, std::string("unknown card '") + lua_tostring(L, arg) + "'");
  return id;
}

void PushCardName(lua_State* L, CardId id) {
  // Card names are cached in upvalue 2 (an array indexed by id + 1) to skip re-hashing.
  if (lua_rawgeti(L, lua_upvalueindex(2), id + 1) == LUA_TSTRING) return;
  lua_pop(L, 1);
  lua_pushstring(L, B(L)->cards->Name(id).c_str());
}

// ---- grid ----------------------------------------------------------------------------

struct GridRef {
  int index;
};

Grid* CheckGrid(lua_State* L, bool write) {
  auto* ref = static_cast<GridRef*>(luaL_checkudata(L, 1, "plateau.grid"));
  State* s = write ? Writable(L, StateUndo::kGrids) : Readable(L);
  if (ref->index < 0 || ref->index >= static_cast<int>(s->grids.size())) Raise(L, "stale grid handle");
  return &s->grids[static_cast<size_t>(ref->index)].second;
}

int GridGet(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  const Cell* c = g->Get(CheckCoordArg(L, 2), CheckCoordArg(L, 3));
  if (!c || c->empty()) return 0;
  PushCardName(L, c->item);
  lua_pushboolean(L, c->face_down);
  lua_pushinteger(L, c->rotation);
  return 3;
}

int GridCount(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  if (lua_isnoneornil(L, 2)) {
    lua_pushinteger(L, g->count());
    return 1;
  }
  const CardId card = CheckCard(L, 2);
  std::vector<Coord> cells;
  g->OccupiedCells(&cells);
  int n = 0;
  for (const Coord& c : cells) n += g->Get(c.row, c.col)->item == card;
  lua_pushinteger(L, n);
  return 1;
}

int GridBounds(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  if (g->count() == 0) return 0;
  const Bounds& b = g->bounds();
  lua_pushinteger(L, b.min_row);
  lua_pushinteger(L, b.max_row);
  lua_pushinteger(L, b.min_col);
  lua_pushinteger(L, b.max_col);
  return 4;
}

// A list of moves built by the host (grid:relocations): state:ask takes it over (the list is
// empty afterwards) without reading a Lua table per move. Its userdata block is sized after
// the moves' memory, so the VM's memory cap and collector see what a list holds.
struct MoveList {
  std::vector<Move> moves;
};

MoveList* CheckMoveList(lua_State* L, int idx) { return static_cast<MoveList*>(luaL_checkudata(L, idx, "plateau.moves")); }

int MoveListGc(lua_State* L) {
  CheckMoveList(L, 1)->~MoveList();
  return 0;
}

int MoveListLen(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(CheckMoveList(L, 1)->moves.size()));
  return 1;
}

// moves[i]: the i-th move as a table, for scripts that look at a few.
int MoveListIndex(lua_State* L) {
  const MoveList* list = CheckMoveList(L, 1);
  if (!lua_isinteger(L, 2)) return 0;
  const lua_Integer i = lua_tointeger(L, 2);
  if (i < 1 || static_cast<size_t>(i) > list->moves.size()) return 0;
  PushMove(L, list->moves[static_cast<size_t>(i - 1)], *B(L)->cards);
  return 1;
}

// grid:relocations{type = "octopus", keep_connected = true, skip = true}: every legal move of
// one card to an empty cell and every swap of two different cards (Grid::Relocations), as
// moves {type, action = "move" | "swap", cell, to}, after {type, action = "skip"} when `skip`.
int GridRelocations(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  luaL_checktype(L, 2, LUA_TTABLE);
  if (lua_getfield(L, 2, "type") != LUA_TSTRING) RaiseArg(L, 2, "relocations needs type = \"<move type>\"");
  const std::string type = lua_tostring(L, -1);
  bool keep_connected = true, skip = false;
  if (lua_getfield(L, 2, "keep_connected") != LUA_TNIL) {
    if (!lua_isboolean(L, -1)) RaiseArg(L, 2, "keep_connected must be true or false");
    keep_connected = lua_toboolean(L, -1);
  }
  if (lua_getfield(L, 2, "skip") != LUA_TNIL) {
    if (!lua_isboolean(L, -1)) RaiseArg(L, 2, "skip must be true or false");
    skip = lua_toboolean(L, -1);
  }
  lua_pop(L, 3);
  std::vector<Relocation> found;
  g->Relocations(keep_connected, &found);
  const size_t n = found.size() + (skip ? 1 : 0);
  constexpr size_t kPerMove = sizeof(Move) + 64;  // the move, its type and its args
  auto* list = new (lua_newuserdatauv(L, sizeof(MoveList) + n * kPerMove, 0)) MoveList();
  luaL_setmetatable(L, "plateau.moves");
  list->moves.reserve(n);
  // Three argument objects for the whole list: the moves share them.
  const SharedJson move_args(Json{{"action", "move"}}), swap_args(Json{{"action", "swap"}});
  auto add = [&](const SharedJson& args) -> Move& {
    Move& m = list->moves.emplace_back();
    m.type = type;
    m.args = args;
    return m;
  };
  if (skip) add(SharedJson(Json{{"action", "skip"}}));
  for (const Relocation& r : found) {
    Move& m = add(r.swap ? swap_args : move_args);
    m.has_cell = m.has_to = true;
    m.cell = r.from;
    m.to = r.to;
  }
  return 1;
}

// Dense copy of the bounding box: what scoring functions iterate over. `down` flags face-down
// cells; when none is face down it is a shared empty read-only table (every index is nil).
int GridSnapshot(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  const Bounds& b = g->bounds();
  const int rows = g->count() ? b.rows() : 0, cols = g->count() ? b.cols() : 0;
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, rows);
  lua_setfield(L, -2, "rows");
  lua_pushinteger(L, cols);
  lua_setfield(L, -2, "cols");
  lua_pushinteger(L, b.min_row);
  lua_setfield(L, -2, "min_row");
  lua_pushinteger(L, b.min_col);
  lua_setfield(L, -2, "min_col");
  lua_createtable(L, rows * cols, 0);
  bool any_down = false;
  int i = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      ++i;
      const Cell* cell = g->Get(b.min_row + r, b.min_col + c);
      if (cell && !cell->empty()) {
        PushCardName(L, cell->item);
        any_down |= cell->face_down != 0;
      } else {
        lua_pushboolean(L, 0);
      }
      lua_rawseti(L, -2, i);
    }
  lua_setfield(L, -2, "cells");
  if (any_down) {
    lua_createtable(L, rows * cols, 0);
    i = 0;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const Cell* cell = g->Get(b.min_row + r, b.min_col + c);
        lua_pushboolean(L, cell && cell->face_down);
        lua_rawseti(L, -2, ++i);
      }
  } else {
    lua_getfield(L, LUA_REGISTRYINDEX, "plateau.empty");
  }
  lua_setfield(L, -2, "down");
  return 1;
}

int GridPlaceable(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  std::vector<Coord> cells;
  g->Placeable(&cells);
  lua_createtable(L, static_cast<int>(cells.size()), 0);
  for (size_t i = 0; i < cells.size(); ++i) {
    PushCoord(L, cells[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

int GridCanPlace(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  std::string why;
  const bool ok = g->CanPlace(CheckCoordArg(L, 2), CheckCoordArg(L, 3), &why);
  lua_pushboolean(L, ok);
  if (ok) return 1;
  lua_pushstring(L, why.c_str());
  return 2;
}

// The host's account of grid memory: every grid's dense window, summed, stays under the
// state's limit (a script can ask for many large grids without touching its own memory cap).
void CheckGridCells(lua_State* L, const State& s) {
  int64_t cells = 0;
  for (const auto& [key, grid] : s.grids) cells += grid.window_cells();
  if (cells > limits::kStateGridCells)
    Raise(L, "the state's grids would store " + std::to_string(cells) + " cells, over the limit of " +
                 std::to_string(limits::kStateGridCells));
}

int GridAdd(lua_State* L) {
  Grid* g = CheckGrid(L, true);
  const int r = CheckCoordArg(L, 2), c = CheckCoordArg(L, 3);
  const CardId card = CheckCard(L, 4);
  if (g->Occupied(r, c)) Raise(L, "cell [" + std::to_string(r) + ", " + std::to_string(c) + "] is occupied");
  Cell cell{card};
  cell.face_down = lua_toboolean(L, 5);
  const int64_t window = g->window_cells();
  try {
    g->Set(r, c, cell);
  } catch (const std::length_error& e) {
    Raise(L, e.what());
  }
  if (g->window_cells() != window) CheckGridCells(L, *Readable(L));
  return 0;
}

int GridDel(lua_State* L) {
  Grid* g = CheckGrid(L, true);
  const Cell old = g->Take(CheckCoordArg(L, 2), CheckCoordArg(L, 3));
  if (old.empty()) return 0;
  PushCardName(L, old.item);
  return 1;
}

int GridMove(lua_State* L) {
  Grid* g = CheckGrid(L, true);
  const int r1 = CheckCoordArg(L, 2), c1 = CheckCoordArg(L, 3);
  const int r2 = CheckCoordArg(L, 4), c2 = CheckCoordArg(L, 5);
  if (!g->Occupied(r1, c1)) Raise(L, "no card at [" + std::to_string(r1) + ", " + std::to_string(c1) + "]");
  if (g->Occupied(r2, c2)) Raise(L, "cell [" + std::to_string(r2) + ", " + std::to_string(c2) + "] is occupied");
  const Cell cell = g->Take(r1, c1);
  g->Set(r2, c2, cell);
  return 0;
}

int GridSwap(lua_State* L) {
  Grid* g = CheckGrid(L, true);
  const int r1 = CheckCoordArg(L, 2), c1 = CheckCoordArg(L, 3);
  const int r2 = CheckCoordArg(L, 4), c2 = CheckCoordArg(L, 5);
  if (!g->Occupied(r1, c1) || !g->Occupied(r2, c2)) Raise(L, "swap needs two occupied cells");
  const Cell a = *g->Get(r1, c1), b = *g->Get(r2, c2);
  g->Set(r1, c1, b);
  g->Set(r2, c2, a);
  return 0;
}

int GridSetFaceDown(lua_State* L) {
  Grid* g = CheckGrid(L, true);
  const int r = CheckCoordArg(L, 2), c = CheckCoordArg(L, 3);
  if (!g->Occupied(r, c)) Raise(L, "no card at [" + std::to_string(r) + ", " + std::to_string(c) + "]");
  g->SetFaceDown(r, c, lua_isnone(L, 4) ? true : lua_toboolean(L, 4));
  return 0;
}

int GridNeighbors(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  const int r = CheckCoordArg(L, 2), c = CheckCoordArg(L, 3);
  static const char* const kinds[] = {"orthogonal", "diagonal", "all", nullptr};
  const int kind = luaL_checkoption(L, 4, "orthogonal", kinds);
  std::vector<Coord> out;
  g->Neighbors(r, c, static_cast<Adjacency>(kind), &out);
  lua_createtable(L, static_cast<int>(out.size()), 0);
  for (size_t i = 0; i < out.size(); ++i) {
    PushCoord(L, out[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

// g:distance(r1, c1, r2, c2, ["manhattan"|"chebyshev"])
int GridDistance(lua_State* L) {
  CheckGrid(L, false);
  static const char* const kinds[] = {"manhattan", "chebyshev", nullptr};
  const Coord a{CheckCoordArg(L, 2), CheckCoordArg(L, 3)};
  const Coord b{CheckCoordArg(L, 4), CheckCoordArg(L, 5)};
  lua_pushinteger(L, luaL_checkoption(L, 6, "manhattan", kinds) == 0 ? ManhattanDistance(a, b) : ChebyshevDistance(a, b));
  return 1;
}

// g:line("row"|"col", k): the occupied cells of row (or column) k, in order, as {r, c, card}.
int GridLine(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  static const char* const kinds[] = {"row", "col", nullptr};
  const bool row = luaL_checkoption(L, 2, nullptr, kinds) == 0;
  const int k = CheckCoordArg(L, 3);
  lua_newtable(L);
  if (g->count() == 0) return 1;
  const Bounds& b = g->bounds();
  int n = 0;
  const int lo = row ? b.min_col : b.min_row, hi = row ? b.max_col : b.max_row;
  for (int i = lo; i <= hi; ++i) {
    const int r = row ? k : i, c = row ? i : k;
    const Cell* cell = g->Get(r, c);
    if (!cell || cell->empty()) continue;
    lua_createtable(L, 3, 0);
    lua_pushinteger(L, r);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, c);
    lua_rawseti(L, -2, 2);
    PushCardName(L, cell->item);
    lua_rawseti(L, -2, 3);
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

int GridFind(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  const CardId card = CheckCard(L, 2);
  std::vector<Coord> cells;
  g->OccupiedCells(&cells);
  lua_newtable(L);
  int n = 0;
  for (const Coord& c : cells)
    if (g->Get(c.row, c.col)->item == card) {
      PushCoord(L, c);
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}

int GridGroups(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  const CardId card = CheckCard(L, 2);
  const auto groups = CellGroups(*g, [card](const Cell& c) { return c.item == card; });
  lua_createtable(L, static_cast<int>(groups.size()), 0);
  for (size_t i = 0; i < groups.size(); ++i) {
    lua_createtable(L, static_cast<int>(groups[i].size()), 0);
    for (size_t k = 0; k < groups[i].size(); ++k) {
      PushCoord(L, groups[i][k]);
      lua_rawseti(L, -2, static_cast<lua_Integer>(k + 1));
    }
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}


// ---- grid views: scoring queries answered by the host ---------------------------------
//
// g:view() copies a grid's bounding box into a dense host array with a face-down overlay
// that scoring can change without touching the state. Its queries run the loops scoring
// rules keep repeating (count, neighbour pairs, distinct neighbours, groups, lines), so a
// card's rule is one call instead of an interpreted scan of every cell. Cells are dense
// indices i = r * cols + c + 1 (r, c from 0 at the top-left of the bounding box).

// Allocated with exactly rows * cols cells after the header (a Lua userdata), uninitialised
// until filled: views are made on every scoring call.
struct GridView {
  int rows = 0, cols = 0, min_row = 0, min_col = 0;
  CardId* cell;
  bool* down;
  int n() const { return rows * cols; }
};

enum ViewAdj { kAdjOrth, kAdjDiag, kAdjAll, kAdjDist2, kAdjBelow, kAdjAbove, kAdjRow, kAdjCol };

// Views are checked against their metatable kept in upvalue 3 of every view method: a
// pointer comparison instead of a registry lookup by name on each query.
GridView* CheckView(lua_State* L) {
  void* p = lua_touserdata(L, 1);
  if (p && lua_getmetatable(L, 1)) {
    const bool ok = lua_rawequal(L, -1, lua_upvalueindex(3));
    lua_pop(L, 1);
    if (ok) return static_cast<GridView*>(p);
  }
  luaL_typeerror(L, 1, "view");
  return nullptr;
}

ViewAdj CheckAdj(lua_State* L, int arg) {
  if (lua_isnoneornil(L, arg)) return kAdjOrth;
  static const char* const kinds[] = {"orthogonal", "diagonal", "all", "distance2", "below", "above", "row", "col", nullptr};
  return static_cast<ViewAdj>(luaL_checkoption(L, arg, nullptr, kinds));
}

// A card or a list of cards, as a bit set over card ids (games have at most 256 card types).
struct CardMask {
  uint64_t bits[4] = {0, 0, 0, 0};
  bool Has(CardId c) const { return c >= 0 && c < 256 && (bits[c >> 6] >> (c & 63)) & 1; }
  void Add(CardId c) { if (c >= 0 && c < 256) bits[c >> 6] |= uint64_t{1} << (c & 63); }
};

CardMask CheckMask(lua_State* L, int arg) {
  CardMask m;
  if (lua_type(L, arg) == LUA_TSTRING) {
    m.Add(CheckCard(L, arg));
    return m;
  }
  if (lua_type(L, arg) == LUA_TUSERDATA) {
    // An immutable set made once with ctx.card_set{...}: no conversion per query.
    if (auto* set = static_cast<CardMask*>(luaL_testudata(L, arg, "plateau.card_set"))) return *set;
    luaL_typeerror(L, arg, "card id, list of card ids or card set");
  }
  luaL_checktype(L, arg, LUA_TTABLE);
  arg = lua_absindex(L, arg);
  // A frozen list (from ctx.data) is read through its proxy.
  if (PushFrozenSource(L, arg)) {
    CardMask inner = CheckMask(L, lua_gettop(L));
    lua_pop(L, 1);
    return inner;
  }
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, arg));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, arg, i);
    if (lua_type(L, -1) != LUA_TSTRING) Raise(L, "card lists hold card ids (strings)");
    const CardId c = LookupCard(L, -1);
    if (c == kNoCard) Raise(L, std::string("unknown card '") + lua_tostring(L, -1) + "'");
    m.Add(c);
    lua_pop(L, 1);
  }
  return m;
}

// Calls f(j) for each neighbour j (0-based dense index) of cell i in the given relation.
template <typename F>
void ForNeighbors(const GridView& v, int i, ViewAdj adj, F&& f) {
  const int r = i / v.cols, c = i % v.cols;
  auto at = [&](int rr, int cc) {
    if (rr >= 0 && rr < v.rows && cc >= 0 && cc < v.cols) f(rr * v.cols + cc);
  };
  switch (adj) {
    case kAdjOrth: at(r - 1, c); at(r, c + 1); at(r + 1, c); at(r, c - 1); break;
    case kAdjDiag: at(r - 1, c - 1); at(r - 1, c + 1); at(r + 1, c + 1); at(r + 1, c - 1); break;
    case kAdjAll:
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc)
          if (dr || dc) at(r + dr, c + dc);
      break;
    case kAdjDist2: at(r - 2, c); at(r, c + 2); at(r + 2, c); at(r, c - 2); break;
    case kAdjBelow: for (int rr = r + 1; rr < v.rows; ++rr) at(rr, c); break;
    case kAdjAbove: for (int rr = 0; rr < r; ++rr) at(rr, c); break;
    case kAdjRow: for (int cc = 0; cc < v.cols; ++cc) if (cc != c) at(r, cc); break;
    case kAdjCol: for (int rr = 0; rr < v.rows; ++rr) if (rr != r) at(rr, c); break;
  }
}

// Which neighbours count: "any" (default), "up" (face-up only) or "down" (face-down only).
int CheckFace(lua_State* L, int arg) {
  if (lua_isnoneornil(L, arg)) return 0;
  static const char* const faces[] = {"any", "up", "down", nullptr};
  return luaL_checkoption(L, arg, nullptr, faces);
}
bool FaceOk(const GridView& v, int j, int face) { return face == 0 || (face == 1) != v.down[j]; }

int GridView_(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  const Bounds& b = g->bounds();
  const int n = g->count() ? b.rows() * b.cols() : 0;
  if (n > 256) Raise(L, "grid views are for grids of at most 256 cells");
  auto* v = static_cast<GridView*>(
      lua_newuserdatauv(L, sizeof(GridView) + static_cast<size_t>(n) * (sizeof(CardId) + sizeof(bool)), 0));
  v->rows = v->cols = v->min_row = v->min_col = 0;
  v->cell = reinterpret_cast<CardId*>(v + 1);
  v->down = reinterpret_cast<bool*>(v->cell + n);
  lua_rawgeti(L, lua_upvalueindex(2), 0);  // the view metatable, kept in the name table
  lua_setmetatable(L, -2);
  if (n == 0) return 1;
  v->rows = b.rows();
  v->cols = b.cols();
  v->min_row = b.min_row;
  v->min_col = b.min_col;
  for (int r = 0; r < v->rows; ++r)
    for (int c = 0; c < v->cols; ++c) {
      const Cell* cell = g->Get(b.min_row + r, b.min_col + c);
      v->cell[r * v->cols + c] = cell ? cell->item : kNoCard;
      v->down[r * v->cols + c] = cell && cell->face_down;
    }
  return 1;
}

// v:size() -> rows, cols, min_row, min_col
int ViewSize(lua_State* L) {
  GridView* v = CheckView(L);
  lua_pushinteger(L, v->rows);
  lua_pushinteger(L, v->cols);
  lua_pushinteger(L, v->min_row);
  lua_pushinteger(L, v->min_col);
  return 4;
}





// Calls on_group(size) for each orthogonally connected group of cells in `m` (seen with
// `face`), in row-major order of the groups' first cells.
template <typename F>
void ForGroups(const GridView& v, const CardMask& m, int face, F&& on_group) {
  bool seen[256] = {};
  int stack[256];
  for (int i = 0; i < v.n(); ++i) {
    if (seen[i] || !m.Has(v.cell[i]) || !FaceOk(v, i, face)) continue;
    int top = 0, size = 0;
    stack[top++] = i;
    seen[i] = true;
    while (top) {
      const int x = stack[--top];
      ++size;
      ForNeighbors(v, x, kAdjOrth, [&](int j) {
        if (!seen[j] && m.Has(v.cell[j]) && FaceOk(v, j, face)) {
          seen[j] = true;
          stack[top++] = j;
        }
      });
    }
    on_group(size);
  }
}

// v:groups(cards, points, [face]) -> sum over orthogonally connected groups of `cards` of
// points[min(size, #points)], and the sizes as a list
int ViewGroups(lua_State* L) {
  GridView* v = CheckView(L);
  const CardMask m = CheckMask(L, 2);
  luaL_checktype(L, 3, LUA_TTABLE);
  const int face = CheckFace(L, 4);
  const lua_Integer np = static_cast<lua_Integer>(lua_rawlen(L, 3));
  if (np < 1) RaiseArg(L, 3, "points table must list the points for sizes 1, 2, ...");
  lua_Integer total = 0;
  lua_newtable(L);
  int groups = 0;
  ForGroups(*v, m, face, [&](int size) {
    lua_rawgeti(L, 3, std::min<lua_Integer>(size, np));
    total += CheckIntRange(L, -1, -limits::kScore, limits::kScore, "points");
    lua_pop(L, 1);
    lua_pushinteger(L, size);
    lua_rawseti(L, -2, ++groups);
  });
  lua_pushinteger(L, total);
  lua_insert(L, -2);
  return 2;
}


// v:cells(cards, [face]) -> dense indices of the cells holding one of `cards`
int ViewCells(lua_State* L) {
  GridView* v = CheckView(L);
  const CardMask m = CheckMask(L, 2);
  const int face = CheckFace(L, 3);
  lua_newtable(L);
  int k = 0;
  for (int i = 0; i < v->n(); ++i)
    if (m.Has(v->cell[i]) && FaceOk(*v, i, face)) {
      lua_pushinteger(L, i + 1);
      lua_rawseti(L, -2, ++k);
    }
  return 1;
}


int CheckDense(lua_State* L, const GridView& v, int arg) {
  return static_cast<int>(CheckIntRange(L, arg, 1, v.n(), "cell index") - 1);
}

// v:get(i) -> card (nil when empty), face_down
int ViewGet(lua_State* L) {
  GridView* v = CheckView(L);
  const int i = CheckDense(L, *v, 2);
  if (v->cell[i] == kNoCard) return 0;
  PushCardName(L, v->cell[i]);
  lua_pushboolean(L, v->down[i]);
  return 2;
}

// v:set_down(i, [down]): the overlay only; the state's grid is not changed
int ViewSetDown(lua_State* L) {
  GridView* v = CheckView(L);
  const int i = CheckDense(L, *v, 2);
  v->down[i] = lua_isnone(L, 3) ? true : lua_toboolean(L, 3);
  return 0;
}

// v:around(i, cards, [adj], [face]) -> how many `adj` neighbours of cell i are in `cards`
int ViewAround(lua_State* L) {
  GridView* v = CheckView(L);
  const int i = CheckDense(L, *v, 2);
  const CardMask m = CheckMask(L, 3);
  const ViewAdj adj = CheckAdj(L, 4);
  const int face = CheckFace(L, 5);
  int n = 0;
  ForNeighbors(*v, i, adj, [&](int j) { n += m.Has(v->cell[j]) && FaceOk(*v, j, face); });
  lua_pushinteger(L, n);
  return 1;
}

// v:cell(i) -> grid coordinates r, c of dense index i (for moves)
int ViewCell(lua_State* L) {
  GridView* v = CheckView(L);
  const int i = CheckDense(L, *v, 2);
  lua_pushinteger(L, v->min_row + i / v->cols);
  lua_pushinteger(L, v->min_col + i % v->cols);
  return 2;
}

// v:index(r, c) -> dense index of grid cell (r, c), or nil outside the view
int ViewIndex(lua_State* L) {
  GridView* v = CheckView(L);
  const lua_Integer r = CheckCoordArg(L, 2) - v->min_row, c = CheckCoordArg(L, 3) - v->min_col;
  if (r < 0 || c < 0 || r >= v->rows || c >= v->cols) return 0;
  lua_pushinteger(L, r * v->cols + c + 1);
  return 1;
}


// ---- compiled view queries ------------------------------------------------------------
//
// ctx.query{ {op, args...}, ... } compiles a list of view queries once; v:run(q) answers
// them all in one call and returns one number per entry, in order. Entries run in order on
// the same view, so a "flip_touching" entry changes what later entries see. Ops and their
// arguments are the view methods': count(cards, face), pairs(a, b, adj, face),
// touching(a, b, adj, face), distinct(a, b, adj, face), groups(cards, points, face),
// lines(cards, face) -> rows + columns, flip_touching(a, b, adj), and
// each(a, b, adj, face, base, per, floor): the sum over cells of `a` of
// max(base + per * (neighbours in b), floor).

struct QueryOp {
  enum Kind { kCount, kPairs, kTouching, kDistinct, kGroups, kLines, kFlip, kEach } kind;
  CardMask a, b;
  ViewAdj adj = kAdjOrth;
  int face = 0;
  std::vector<lua_Integer> points;
  lua_Integer base = 0, per = 0, floor = INT32_MIN;
};

struct Query {
  std::vector<QueryOp> ops;
};

int QueryGc(lua_State* L) {
  static_cast<Query*>(lua_touserdata(L, 1))->~Query();
  return 0;
}

// The fields of a query entry written with names ({op = "each", cards = ..., near = ...}), by
// op, in the order of the positional form's arguments: both forms compile to the same QueryOp.
// scripting/api/lua_api.json declares the same names (class query_entry).
const char* const kQueryFields[][8] = {
    {"cards", "face"},                                                   // count
    {"cards", "near", "adj", "face"},                                    // pairs
    {"cards", "near", "adj", "face"},                                    // touching
    {"cards", "near", "adj", "face"},                                    // distinct
    {"cards", "points", "face"},                                         // groups
    {"cards", "face"},                                                   // lines
    {"cards", "near", "adj"},                                            // flip_touching
    {"cards", "near", "adj", "face", "base", "per", "floor"},            // each
};

// A named entry holds "op" and the op's fields only: a misspelt field would otherwise be a
// default silently taken.
void CheckNamedEntry(lua_State* L, int entry, lua_Integer e, int kind, const char* op_name) {
  lua_pushnil(L);
  while (lua_next(L, entry)) {
    lua_pop(L, 1);
    const std::string where = "query entry #" + std::to_string(e) + " (" + op_name + ")";
    if (lua_type(L, -1) != LUA_TSTRING)
      Raise(L, where + ": write every argument by name or none (positions and names mixed)");
    const std::string key = lua_tostring(L, -1);
    bool known = key == "op";
    std::string names;
    for (const char* f : kQueryFields[kind]) {
      if (!f) break;
      known = known || key == f;
      names += (names.empty() ? "" : ", ") + std::string(f);
    }
    if (!known) Raise(L, where + ": unknown field '" + key + "' (its fields: " + names + ")");
  }
}

int CtxQuery(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  auto* q = static_cast<Query*>(lua_newuserdatauv(L, sizeof(Query), 0));
  new (q) Query();
  luaL_setmetatable(L, "plateau.query");
  const int query_idx = lua_gettop(L);
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 1));
  static const char* const kinds[] = {"count", "pairs", "touching", "distinct", "groups", "lines", "flip_touching", "each", nullptr};
  for (lua_Integer e = 1; e <= n; ++e) {
    if (lua_rawgeti(L, 1, e) != LUA_TTABLE)
      Raise(L, "query entry #" + std::to_string(e) + " must be a table {op, args...} or {op = ..., <field> = ...}");
    const int entry = lua_gettop(L);
    QueryOp op;
    // {op = "each", cards = ..., near = ...} names its arguments; {"each", ...} gives them in order.
    lua_pushliteral(L, "op");
    const bool named = lua_rawget(L, entry) != LUA_TNIL;
    if (!named) {
      lua_pop(L, 1);
      lua_rawgeti(L, entry, 1);
    }
    op.kind = static_cast<QueryOp::Kind>(luaL_checkoption(L, -1, nullptr, kinds));
    lua_pop(L, 1);
    if (named) CheckNamedEntry(L, entry, e, op.kind, kinds[op.kind]);
    int arg = 2;
    auto next = [&]() {
      if (named) {
        lua_pushstring(L, kQueryFields[op.kind][arg++ - 2]);
        lua_rawget(L, entry);
      } else {
        lua_rawgeti(L, entry, arg++);
      }
      return lua_gettop(L);
    };
    auto mask = [&]() { const int i = next(); CardMask m = CheckMask(L, i); lua_pop(L, 1); return m; };
    auto adj = [&]() { const int i = next(); ViewAdj a = CheckAdj(L, i); lua_pop(L, 1); return a; };
    auto face = [&]() { const int i = next(); int f = CheckFace(L, i); lua_pop(L, 1); return f; };
    auto integer = [&](lua_Integer def) { const int i = next(); lua_Integer v = OptIntRange(L, i, def, -limits::kScore, limits::kScore, "query argument"); lua_pop(L, 1); return v; };
    switch (op.kind) {
      case QueryOp::kCount: op.a = mask(); op.face = face(); break;
      case QueryOp::kPairs:
      case QueryOp::kTouching:
      case QueryOp::kDistinct: op.a = mask(); op.b = mask(); op.adj = adj(); op.face = face(); break;
      case QueryOp::kGroups: {
        op.a = mask();
        const int t = next();
        luaL_checktype(L, t, LUA_TTABLE);
        for (lua_Integer k = 1; k <= static_cast<lua_Integer>(lua_rawlen(L, t)); ++k) {
          lua_rawgeti(L, t, k);
          op.points.push_back(CheckIntRange(L, -1, -limits::kScore, limits::kScore, "points"));
          lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (op.points.empty()) Raise(L, "query entry #" + std::to_string(e) + ": groups needs a points list");
        op.face = face();
        break;
      }
      case QueryOp::kLines: op.a = mask(); op.face = face(); break;
      case QueryOp::kFlip: op.a = mask(); op.b = mask(); op.adj = adj(); break;
      case QueryOp::kEach:
        op.a = mask(); op.b = mask(); op.adj = adj(); op.face = face();
        op.base = integer(0); op.per = integer(1); op.floor = integer(INT32_MIN);
        break;
    }
    q->ops.push_back(std::move(op));
    lua_settop(L, entry - 1);
  }
  lua_settop(L, query_idx);
  return 1;
}

// Rows and columns holding a card of `m` (seen with `face`).
void LineCounts(const GridView& v, const CardMask& m, int face, lua_Integer* rows, lua_Integer* cols) {
  bool row[256] = {}, col[256] = {};
  *rows = *cols = 0;
  for (int i = 0; i < v.n(); ++i) {
    if (!m.Has(v.cell[i]) || !FaceOk(v, i, face)) continue;
    if (!row[i / v.cols]) { row[i / v.cols] = true; ++*rows; }
    if (!col[i % v.cols]) { col[i % v.cols] = true; ++*cols; }
  }
}

lua_Integer RunOp(GridView& v, const QueryOp& op) {
  lua_Integer n = 0;
  switch (op.kind) {
    case QueryOp::kCount:
      for (int i = 0; i < v.n(); ++i) n += op.a.Has(v.cell[i]) && FaceOk(v, i, op.face);
      return n;
    case QueryOp::kPairs:
      for (int i = 0; i < v.n(); ++i)
        if (op.a.Has(v.cell[i])) ForNeighbors(v, i, op.adj, [&](int j) { n += op.b.Has(v.cell[j]) && FaceOk(v, j, op.face); });
      return n;
    case QueryOp::kTouching:
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i])) continue;
        bool hit = false;
        ForNeighbors(v, i, op.adj, [&](int j) { hit = hit || (op.b.Has(v.cell[j]) && FaceOk(v, j, op.face)); });
        n += hit;
      }
      return n;
    case QueryOp::kDistinct:
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i])) continue;
        CardMask seen;
        ForNeighbors(v, i, op.adj, [&](int j) {
          const CardId c = v.cell[j];
          if (op.b.Has(c) && FaceOk(v, j, op.face) && !seen.Has(c)) { seen.Add(c); ++n; }
        });
      }
      return n;
    case QueryOp::kGroups:
      ForGroups(v, op.a, op.face, [&](int size) {
        n += op.points[static_cast<size_t>(std::min<int>(size, static_cast<int>(op.points.size())) - 1)];
      });
      return n;
    case QueryOp::kLines: {
      lua_Integer rows, cols;
      LineCounts(v, op.a, op.face, &rows, &cols);
      return rows + cols;
    }
    case QueryOp::kFlip: {
      bool flip[256] = {};
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i]) || v.down[i]) continue;
        ForNeighbors(v, i, op.adj, [&](int j) { flip[i] = flip[i] || (op.b.Has(v.cell[j]) && !v.down[j]); });
      }
      for (int i = 0; i < v.n(); ++i)
        if (flip[i]) { v.down[i] = true; ++n; }
      return n;
    }
    case QueryOp::kEach:
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i])) continue;
        lua_Integer around = 0;
        ForNeighbors(v, i, op.adj, [&](int j) { around += op.b.Has(v.cell[j]) && FaceOk(v, j, op.face); });
        n += std::max(op.base + op.per * around, op.floor);
      }
      return n;
  }
  return 0;
}

// The single-query view methods, the same operations as query entries run at once:
//   v:count(cards, [face]), v:pairs(a, b, [adj], [face]), v:touching(a, b, [adj], [face]),
//   v:distinct(a, b, [adj], [face]), v:lines(cards, [face]) -> rows, cols,
//   v:flip_touching(a, b, [adj]) -> how many cells turned face down.
template <QueryOp::Kind kKind>
int ViewOp(lua_State* L) {
  GridView* v = CheckView(L);
  QueryOp op;
  op.kind = kKind;
  switch (kKind) {
    case QueryOp::kCount:
    case QueryOp::kLines: op.a = CheckMask(L, 2); op.face = CheckFace(L, 3); break;
    case QueryOp::kFlip: op.a = CheckMask(L, 2); op.b = CheckMask(L, 3); op.adj = CheckAdj(L, 4); break;
    default: op.a = CheckMask(L, 2); op.b = CheckMask(L, 3); op.adj = CheckAdj(L, 4); op.face = CheckFace(L, 5); break;
  }
  if (kKind == QueryOp::kLines) {  // v:lines returns rows and columns separately
    lua_Integer rows, cols;
    LineCounts(*v, op.a, op.face, &rows, &cols);
    lua_pushinteger(L, rows);
    lua_pushinteger(L, cols);
    return 2;
  }
  lua_pushinteger(L, RunOp(*v, op));
  return 1;
}

// v:run(q) -> one number per query entry
int ViewRun(lua_State* L) {
  GridView* v = CheckView(L);
  auto* q = static_cast<Query*>(luaL_checkudata(L, 2, "plateau.query"));
  luaL_checkstack(L, static_cast<int>(q->ops.size()) + 2, "query results");
  for (const QueryOp& op : q->ops) lua_pushinteger(L, RunOp(*v, op));
  return static_cast<int>(q->ops.size());
}

// ---- zone -----------------------------------------------------------------------------

struct ZoneRef {
  int index;
};

Zone* CheckZone(lua_State* L, int arg, bool write) {
  auto* ref = static_cast<ZoneRef*>(luaL_checkudata(L, arg, "plateau.zone"));
  State* s = write ? Writable(L, StateUndo::kZones) : Readable(L);
  if (ref->index < 0 || ref->index >= static_cast<int>(s->zones.size())) Raise(L, "stale zone handle");
  return &s->zones[static_cast<size_t>(ref->index)];
}

int ZoneCards(lua_State* L) {
  Zone* z = CheckZone(L, 1, false);
  lua_createtable(L, static_cast<int>(z->cards.size()), 0);
  for (size_t i = 0; i < z->cards.size(); ++i) {
    PushCardName(L, z->cards[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

int ZoneCount(lua_State* L) {
  Zone* z = CheckZone(L, 1, false);
  if (lua_isnoneornil(L, 2)) {
    lua_pushinteger(L, static_cast<lua_Integer>(z->cards.size()));
    return 1;
  }
  const CardId card = CheckCard(L, 2);
  lua_pushinteger(L, static_cast<lua_Integer>(std::count(z->cards.begin(), z->cards.end(), card)));
  return 1;
}

// The host's account of cards: one zone holds at most kZoneCards, and all zones together
// kStateCards (summed every 65,536 cards a zone grows by, so adding stays cheap).
void CheckZoneCards(lua_State* L, const Zone& z) {
  if (static_cast<int64_t>(z.cards.size()) >= limits::kZoneCards)
    Raise(L, "zone '" + z.name + "' would hold more than " + std::to_string(limits::kZoneCards) + " cards");
  if ((z.cards.size() & 0xffff) != 0) return;
  int64_t total = 0;
  for (const Zone& other : Readable(L)->zones) total += static_cast<int64_t>(other.cards.size());
  if (total > limits::kStateCards)
    Raise(L, "the state's zones would hold more than " + std::to_string(limits::kStateCards) + " cards");
}

int ZoneAdd(lua_State* L) {
  Zone* z = CheckZone(L, 1, true);
  const CardId card = CheckCard(L, 2);
  CheckZoneCards(L, *z);
  z->cards.push_back(card);
  return 0;
}

int ZoneDel(lua_State* L) {
  Zone* z = CheckZone(L, 1, true);
  lua_pushboolean(L, RemoveCard(z, CheckCard(L, 2)));
  return 1;
}

int ZoneShuffle(lua_State* L) {
  Zone* z = CheckZone(L, 1, true);
  State* s = Writable(L);
  Shuffle(z, &s->rng);
  if (s->record) s->Log(-1, "shuffle", {{"zone", z->name}, {"cards", z->cards.size()}});
  return 0;
}

// discard:reshuffle_into(deck): every card of this zone goes into `deck`, which is shuffled.
int ZoneReshuffleInto(lua_State* L) {
  Zone* from = CheckZone(L, 1, true);
  Zone* to = CheckZone(L, 2, true);
  if (from == to) Raise(L, "cannot reshuffle a zone into itself");
  State* s = Writable(L);
  Reshuffle(from, to, &s->rng);
  if (s->record) s->Log(-1, "shuffle", {{"zone", to->name}, {"cards", to->cards.size()}});
  return 0;
}

int ZoneDraw(lua_State* L) {
  Zone* from = CheckZone(L, 1, true);
  Zone* to = CheckZone(L, 2, true);
  const lua_Integer n = OptIntRange(L, 3, 1, 0, limits::kZoneCards, "card count");
  const size_t before = to->cards.size();
  const int drawn = Draw(from, to, static_cast<int>(n));
  lua_createtable(L, drawn, 0);
  for (int i = 0; i < drawn; ++i) {
    PushCardName(L, to->cards[before + static_cast<size_t>(i)]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

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

Json* ResolveData(lua_State* L, int idx, State* s) {
  Json* node = FindDataNode(L, idx, s);
  if (!node) Raise(L, "stale data handle (the table it pointed into was replaced or removed)");
  return node;
}

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
    case Json::value_t::string: lua_pushstring(L, v.get_ref<const std::string&>().c_str()); return;
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
      lua_pushstring(L, it.key().c_str());
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

// ---- state ----------------------------------------------------------------------------

int StateGrid(lua_State* L) {
  State* s = Readable(L);
  int seat = -1;
  std::string key;
  if (lua_type(L, 2) == LUA_TSTRING && s->GridIndex(lua_tostring(L, 2)) >= 0) key = lua_tostring(L, 2);
  else {
    seat = CheckSeat(L, 2, *s);
    key = State::Key(luaL_optstring(L, 3, "grid"), seat);
  }
  const int index = s->GridIndex(key);
  if (index < 0) Raise(L, "no grid '" + key + "'");
  auto* ref = static_cast<GridRef*>(lua_newuserdatauv(L, sizeof(GridRef), 0));
  ref->index = index;
  luaL_setmetatable(L, "plateau.grid");
  return 1;
}

int StateZone(lua_State* L) {
  State* s = Readable(L);
  const char* name = luaL_checkstring(L, 2);
  const int owner = lua_isnoneornil(L, 3) ? -1 : CheckSeat(L, 3, *s);
  const int index = s->ZoneIndex(name, owner);
  if (index < 0) Raise(L, "no zone '" + State::Key(name, owner) + "'");
  auto* ref = static_cast<ZoneRef*>(lua_newuserdatauv(L, sizeof(ZoneRef), 0));
  ref->index = index;
  luaL_setmetatable(L, "plateau.zone");
  return 1;
}

// ---- counters and tracks ----------------------------------------------------------------

struct KeyRef {
  char key[64];
};

void PushKeyRef(lua_State* L, const std::string& key, const char* meta) {
  auto* ref = static_cast<KeyRef*>(lua_newuserdatauv(L, sizeof(KeyRef), 0));
  std::snprintf(ref->key, sizeof ref->key, "%s", key.c_str());
  luaL_setmetatable(L, meta);
}

Counter* CheckCounter(lua_State* L, bool write) {
  auto* ref = static_cast<KeyRef*>(luaL_checkudata(L, 1, "plateau.counter"));
  State* s = write ? Writable(L, StateUndo::kCounters) : Readable(L);
  auto it = s->counters.find(ref->key);
  if (it == s->counters.end()) Raise(L, std::string("no counter '") + ref->key + "'");
  return &it->second;
}

int CounterGet(lua_State* L) {
  lua_pushinteger(L, CheckCounter(L, false)->value);
  return 1;
}
// c:add(n) -> the amount actually added (caps clamp it), the amount lost to the cap
int CounterAdd(lua_State* L) {
  Counter* c = CheckCounter(L, true);
  const int64_t lost_before = c->lost;
  lua_pushinteger(L, c->Add(CheckIntRange(L, 2, -INT64_MAX, INT64_MAX, "counter change")));
  lua_pushinteger(L, c->lost - lost_before);
  return 2;
}
int CounterSet(lua_State* L) {
  Counter* c = CheckCounter(L, true);
  const int64_t v = CheckIntRange(L, 2, INT64_MIN, INT64_MAX, "counter value");
  c->value = std::clamp(v, c->min, c->max);
  return 0;
}
// c:limits() -> min, max (nil when uncapped), total lost to the cap so far
int CounterLimits(lua_State* L) {
  Counter* c = CheckCounter(L, false);
  lua_pushinteger(L, c->min);
  if (c->max == INT64_MAX) lua_pushnil(L);
  else lua_pushinteger(L, c->max);
  lua_pushinteger(L, c->lost);
  return 3;
}

Track* CheckTrack(lua_State* L, bool write) {
  auto* ref = static_cast<KeyRef*>(luaL_checkudata(L, 1, "plateau.track"));
  State* s = write ? Writable(L, StateUndo::kTracks) : Readable(L);
  auto it = s->tracks.find(ref->key);
  if (it == s->tracks.end()) Raise(L, std::string("no track '") + ref->key + "'");
  return &it->second;
}
// t:get() -> position (1-based), laps
int TrackGet(lua_State* L) {
  Track* t = CheckTrack(L, false);
  lua_pushinteger(L, t->position + 1);
  lua_pushinteger(L, t->laps);
  return 2;
}
// t:move(steps) -> new position (1-based), laps
int TrackMove(lua_State* L) {
  Track* t = CheckTrack(L, true);
  t->Advance(CheckIntRange(L, 2, INT64_MIN / 2, INT64_MAX / 2, "track steps"));
  lua_pushinteger(L, t->position + 1);
  lua_pushinteger(L, t->laps);
  return 2;
}
int TrackLength(lua_State* L) {
  lua_pushinteger(L, CheckTrack(L, false)->length);
  return 1;
}

std::string OwnedKey(lua_State* L, int name_arg, int seat_arg, const State& s) {
  const char* name = luaL_checkstring(L, name_arg);
  const int owner = lua_isnoneornil(L, seat_arg) ? -1 : CheckSeat(L, seat_arg, s);
  return State::Key(name, owner);
}

// Counter handles name a key, not a state, so one handle per key is reused (kept in a
// weak table: scripts look the same counters up on every call).
int StateCounter(lua_State* L) {
  State* s = Readable(L);
  const std::string key = OwnedKey(L, 2, 3, *s);
  if (!s->counters.count(key)) Raise(L, "no counter '" + key + "'");
  PushWeakRegistryTable(L, "plateau.counter_handles", "v");
  if (lua_getfield(L, -1, key.c_str()) == LUA_TUSERDATA) return 1;
  lua_pop(L, 1);
  PushKeyRef(L, key, "plateau.counter");
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, key.c_str());
  return 1;
}

int StateTrack(lua_State* L) {
  State* s = Readable(L);
  const std::string key = OwnedKey(L, 2, 3, *s);
  if (!s->tracks.count(key)) Raise(L, "no track '" + key + "'");
  PushKeyRef(L, key, "plateau.track");
  return 1;
}

// state:add_counter(name, seat|nil, {value=, min=, max=})
int StateAddCounter(lua_State* L) {
  State* s = Writable(L, StateUndo::kCounters);
  const std::string key = OwnedKey(L, 2, 3, *s);
  if (key.size() >= 63) RaiseArg(L, 2, "counter name too long");
  Counter c;
  if (lua_istable(L, 4)) {
    c.min = FieldIntRange(L, 4, "min", 0, INT64_MIN, INT64_MAX, "counter");
    c.max = FieldIntRange(L, 4, "max", INT64_MAX, INT64_MIN, INT64_MAX, "counter");
    c.value = FieldIntRange(L, 4, "value", c.min, INT64_MIN, INT64_MAX, "counter");
  }
  if (c.min > c.max || c.value < c.min || c.value > c.max) Raise(L, "counter '" + key + "': needs min <= value <= max");
  if (s->counters.count(key)) Raise(L, "counter '" + key + "' already exists");
  if (static_cast<int64_t>(s->counters.size()) >= limits::kComponents)
    Raise(L, "a state holds at most " + std::to_string(limits::kComponents) + " counters");
  s->counters[key] = c;
  PushKeyRef(L, key, "plateau.counter");
  return 1;
}

// state:add_track(name, {length=, circular=, position=})
int StateAddTrack(lua_State* L) {
  State* s = Writable(L, StateUndo::kTracks);
  const std::string key = luaL_checkstring(L, 2);
  if (key.size() >= 63) RaiseArg(L, 2, "track name too long");
  luaL_checktype(L, 3, LUA_TTABLE);
  Track t;
  lua_getfield(L, 3, "length");
  if (lua_isnil(L, -1)) Raise(L, "track '" + key + "': field 'length' is missing");
  lua_pop(L, 1);
  const std::string what = "track '" + key + "'";
  t.length = static_cast<int>(FieldIntRange(L, 3, "length", 1, 1, limits::kTrackLength, what.c_str()));
  lua_getfield(L, 3, "circular");
  t.circular = lua_toboolean(L, -1);
  lua_pop(L, 1);
  t.position = static_cast<int>(FieldIntRange(L, 3, "position", 1, 1, t.length, what.c_str())) - 1;
  if (static_cast<int64_t>(s->tracks.size()) >= limits::kComponents)
    Raise(L, "a state holds at most " + std::to_string(limits::kComponents) + " tracks");
  if (s->tracks.count(key)) Raise(L, "track '" + key + "' already exists");
  s->tracks[key] = t;
  PushKeyRef(L, key, "plateau.track");
  return 1;
}

// state:add_zone(name, seat|nil, "hidden"|"owner"|"public", [cards])
int StateAddZone(lua_State* L) {
  State* s = Writable(L, StateUndo::kZones);
  const char* name = luaL_checkstring(L, 2);
  const int owner = lua_isnoneornil(L, 3) ? -1 : CheckSeat(L, 3, *s);
  Visibility vis;
  if (!ParseVisibility(luaL_optstring(L, 4, "hidden"), &vis)) RaiseArg(L, 4, "visibility must be hidden, owner or public");
  if (s->FindZone(name, owner)) Raise(L, "zone '" + State::Key(name, owner) + "' already exists");
  if (static_cast<int64_t>(s->zones.size()) >= limits::kComponents)
    Raise(L, "a state holds at most " + std::to_string(limits::kComponents) + " zones");
  Zone* z = s->AddZone(name, owner, vis);
  if (lua_istable(L, 5)) {
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 5));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, 5, i);
      const CardId c = B(L)->cards->Find(luaL_checkstring(L, -1));
      if (c == kNoCard) Raise(L, std::string("unknown card '") + lua_tostring(L, -1) + "'");
      CheckZoneCards(L, *z);
      z->cards.push_back(c);
      lua_pop(L, 1);
    }
  }
  auto* ref = static_cast<ZoneRef*>(lua_newuserdatauv(L, sizeof(ZoneRef), 0));
  ref->index = s->ZoneIndex(name, owner);
  luaL_setmetatable(L, "plateau.zone");
  return 1;
}

// state:add_grid(name, seat|nil, {rows=, cols=, must_touch=})
int StateAddGrid(lua_State* L) {
  State* s = Writable(L, StateUndo::kGrids);
  const std::string key = OwnedKey(L, 2, 3, *s);
  GridRules rules;
  if (lua_istable(L, 4)) {
    const std::string what = "grid '" + key + "'";
    rules.max_rows = static_cast<int>(FieldIntRange(L, 4, "rows", 0, 0, 1000, what.c_str()));
    rules.max_cols = static_cast<int>(FieldIntRange(L, 4, "cols", 0, 0, 1000, what.c_str()));
    lua_getfield(L, 4, "must_touch");
    rules.must_touch = lua_isnil(L, -1) ? true : lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  if (static_cast<int64_t>(s->grids.size()) >= limits::kComponents)
    Raise(L, "a state holds at most " + std::to_string(limits::kComponents) + " grids");
  if (s->FindGrid(key)) Raise(L, "grid '" + key + "' already exists");
  s->AddGrid(key, rules);
  auto* ref = static_cast<GridRef*>(lua_newuserdatauv(L, sizeof(GridRef), 0));
  ref->index = s->GridIndex(key);
  luaL_setmetatable(L, "plateau.grid");
  return 1;
}

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

int StateIndex(lua_State* L) {
  const char* key = luaL_checkstring(L, 2);
  // Methods first (upvalue 3 is the method table).
  if (lua_getfield(L, lua_upvalueindex(3), key) != LUA_TNIL) return 1;
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

// ---- ctx services -------------------------------------------------------------------

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

int DiceRollFn(lua_State* L) {
  State* s = RandomSource(L, "ctx.dice");
  const char* notation = luaL_checkstring(L, 2);
  std::string error;
  auto spec = ParseDice(notation, &error);
  if (!spec) RaiseArg(L, 2, error);
  const DiceRoll roll = s->dice.Roll(*spec, &s->rng);
  if (s->record) s->Log(-1, "roll", {{"dice", roll.notation}, {"faces", roll.faces}, {"total", roll.total}, {"forced", roll.forced}});
  lua_pushinteger(L, roll.total);
  lua_createtable(L, static_cast<int>(roll.faces.size()), 0);
  for (size_t i = 0; i < roll.faces.size(); ++i) {
    lua_pushinteger(L, roll.faces[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 2;
}

// ctx.card_set{ids...}: an immutable set of cards for grid-view queries.
int CtxCardSet(lua_State* L) {
  const CardMask m = CheckMask(L, 1);
  auto* set = static_cast<CardMask*>(lua_newuserdatauv(L, sizeof(CardMask), 0));
  *set = m;
  luaL_setmetatable(L, "plateau.card_set");
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

// Names the metatable on the stack's top for messages ("bad argument ... (move list expected)")
// and hides it from scripts (getmetatable returns false).
void NameAndSeal(lua_State* L, const char* display) {
  lua_pushstring(L, display);
  lua_setfield(L, -2, "__name");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
}

}  // namespace

int CtxMove(lua_State* L);        // ctx.move, below with the moves' conversions
int FrozenMoveGc(lua_State* L);

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

  static const luaL_Reg grid_methods[] = {
      {"get", GridGet},         {"count", GridCount},         {"bounds", GridBounds},
      {"snapshot", GridSnapshot}, {"placeable", GridPlaceable}, {"can_place", GridCanPlace},
      {"add", GridAdd},         {"del", GridDel},             {"move", GridMove},
      {"swap", GridSwap},       {"set_face_down", GridSetFaceDown}, {"neighbors", GridNeighbors},
      {"find", GridFind},       {"groups", GridGroups},       {"distance", GridDistance},
      {"line", GridLine},       {"view", GridView_},          {"relocations", GridRelocations},
      {nullptr, nullptr}};
  RegisterHandle(L, "plateau.grid", grid_methods, up);
  luaL_newmetatable(L, "plateau.moves");
  lua_pushcfunction(L, MoveListGc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, MoveListLen);
  lua_setfield(L, -2, "__len");
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_pushcclosure(L, MoveListIndex, 2);
  lua_setfield(L, -2, "__index");
  NameAndSeal(L, "move list");
  lua_pop(L, 1);
  static const luaL_Reg view_methods[] = {
      {"size", ViewSize},   {"count", ViewOp<QueryOp::kCount>}, {"pairs", ViewOp<QueryOp::kPairs>},
      {"touching", ViewOp<QueryOp::kTouching>}, {"distinct", ViewOp<QueryOp::kDistinct>}, {"groups", ViewGroups},
      {"lines", ViewOp<QueryOp::kLines>}, {"cells", ViewCells}, {"flip_touching", ViewOp<QueryOp::kFlip>},
      {"get", ViewGet}, {"set_down", ViewSetDown}, {"around", ViewAround},
      {"cell", ViewCell},   {"index", ViewIndex}, {"run", ViewRun}, {nullptr, nullptr}};
  luaL_newmetatable(L, "plateau.query");
  lua_pushcfunction(L, QueryGc);
  lua_setfield(L, -2, "__gc");
  NameAndSeal(L, "query");
  lua_pop(L, 1);
  luaL_newmetatable(L, "plateau.view");
  const int view_meta = lua_gettop(L);
  lua_pushvalue(L, view_meta);
  lua_rawseti(L, up + 1, 0);  // grid:view() finds it here without a registry lookup
  lua_newtable(L);
  for (const luaL_Reg* r = view_methods; r->name; ++r) {
    lua_pushvalue(L, up);
    lua_pushvalue(L, up + 1);
    lua_pushvalue(L, view_meta);
    lua_pushcclosure(L, r->func, 3);
    lua_setfield(L, -2, r->name);
  }
  lua_setfield(L, view_meta, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, view_meta, "__metatable");
  lua_pop(L, 1);

  static const luaL_Reg zone_methods[] = {{"cards", ZoneCards}, {"count", ZoneCount}, {"add", ZoneAdd},
                                          {"del", ZoneDel},     {"shuffle", ZoneShuffle}, {"draw", ZoneDraw},
                                          {"reshuffle_into", ZoneReshuffleInto}, {nullptr, nullptr}};
  RegisterHandle(L, "plateau.zone", zone_methods, up);

  static const luaL_Reg counter_methods[] = {{"get", CounterGet}, {"add", CounterAdd}, {"set", CounterSet},
                                             {"limits", CounterLimits}, {nullptr, nullptr}};
  RegisterHandle(L, "plateau.counter", counter_methods, up);
  static const luaL_Reg track_methods[] = {{"get", TrackGet}, {"move", TrackMove}, {"length", TrackLength},
                                           {nullptr, nullptr}};
  RegisterHandle(L, "plateau.track", track_methods, up);
  OpenTileMapBindings(L, up);
  OpenRegionMapBindings(L, up);
  OpenScaleBindings(L, up);

  static const luaL_Reg data_meta[] = {{"__index", DataIndex},
                                       {"__newindex", DataNewindex},
                                       {"__len", DataLen},
                                       {"__pairs", DataPairs},
                                       {nullptr, nullptr}};
  luaL_newmetatable(L, "plateau.data");
  SetFuncs(L, data_meta, up);
  lua_pushstring(L, "data");
  lua_setfield(L, -2, "__name");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);

  static const luaL_Reg state_methods[] = {{"grid", StateGrid},   {"zone", StateZone},
                                           {"seats", StateSeats}, {"set_phase", StateSetPhase}, {"set_round", StateSetRound},
                                           {"ask", StateAsk},     {"kind", StateKind},
                                           {"read", StateRead},   {"counter", StateCounter},
                                           {"track", StateTrack}, {"add_counter", StateAddCounter},
                                           {"add_track", StateAddTrack}, {"add_zone", StateAddZone},
                                           {"add_grid", StateAddGrid}, {"tile_map", StateTileMap},
                                           {"add_tile_map", StateAddTileMap}, {"region_map", StateRegionMap},
                                           {"add_region_map", StateAddRegionMap}, {nullptr, nullptr}};
  luaL_newmetatable(L, "plateau.state");
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_newtable(L);
  SetFuncs(L, state_methods, up);
  lua_pushnil(L);  // the root data handle, made on first use
  lua_pushcclosure(L, StateIndex, 4);
  lua_setfield(L, -2, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  // The one state object.
  lua_newuserdatauv(L, 0, 0);
  luaL_setmetatable(L, "plateau.state");
  lua_setfield(L, LUA_REGISTRYINDEX, "plateau.state_object");

  // ctx.rng, ctx.dice and ctx.log, shared by every call.
  lua_newtable(L);
  static const luaL_Reg rng_methods[] = {{"int", RngInt}, {"pick", RngPick}, {"shuffle", RngShuffle}, {nullptr, nullptr}};
  lua_newtable(L);
  SetFuncs(L, rng_methods, up);
  MakeReadOnly(L);
  lua_setfield(L, -2, "rng");
  static const luaL_Reg dice_methods[] = {{"roll", DiceRollFn}, {nullptr, nullptr}};
  lua_newtable(L);
  SetFuncs(L, dice_methods, up);
  MakeReadOnly(L);
  lua_setfield(L, -2, "dice");
  lua_pushcfunction(L, CtxLog);
  lua_setfield(L, -2, "log");
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
  lua_pushcclosure(L, CtxScale, 2);
  lua_setfield(L, -2, "scale");
  lua_pushvalue(L, up);
  lua_pushvalue(L, up + 1);
  lua_pushcclosure(L, CtxMove, 2);
  lua_setfield(L, -2, "move");
  luaL_newmetatable(L, "plateau.frozen_move");
  lua_pushcfunction(L, FrozenMoveGc);
  lua_setfield(L, -2, "__gc");
  NameAndSeal(L, "frozen move");
  lua_pop(L, 1);
  luaL_newmetatable(L, "plateau.card_set");
  NameAndSeal(L, "card set");
  lua_pop(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, "plateau.services");
  lua_pop(L, 2);
}

void PushState(lua_State* L) { lua_getfield(L, LUA_REGISTRYINDEX, "plateau.state_object"); }

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

constexpr size_t kMaxMoveFieldBytes = 64u << 10;

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

// Pushes a JSON scalar; false (nothing pushed) for an array or object.
static inline bool PushJsonScalar(lua_State* L, const Json& j) {
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

// ---- ctx.move: immutable moves a script lists again and again -----------------------------
// ctx.move{...} converts a move once and returns it frozen (a read-only table). Listing it
// later copies the host move kept beside it instead of converting the table again. A handler
// still receives a table of its own: the same move replayed from a log is no frozen table,
// and a handler must behave the same either way. The registry's plateau.frozen_moves (weak
// keys) maps each frozen table to a userdata holding its host move.

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

// Reads the well-known fields directly; only other fields go through JSON.
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
  Json args;
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
  if (m.type.empty()) {
    *error = "move needs a string field 'type'";
    return false;
  }
  m.args = std::move(args);
  *out = std::move(m);
  return true;
}

}  // namespace plateau::scripting
