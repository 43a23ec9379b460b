// Lua bindings of grids (host/grid.h): state:grid, state:add_grid and the grid handle's
// methods (get, add, move, neighbors, groups, relocations...), and the move lists grid:relocations
// hands to state:ask. Cells are {row, col} within host/limits.h's coordinate range; cards are
// checked by name. grid:view() lives with the views (bind_view.cc).
#include <algorithm>
#include <new>
#include <string>
#include <vector>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

// ---- grid ----------------------------------------------------------------------------

struct GridRef {
  int index;
};

}  // namespace

Grid* CheckGrid(lua_State* L, bool write) {
  // A grid handle is known by its metatable's address (luaL_checkudata looks the metatable up
  // by name on every call: a third of a cheap method's cost); anything else gets its message.
  GridRef* ref = nullptr;
  if (lua_getmetatable(L, 1)) {
    if (lua_topointer(L, -1) == B(L)->grid_meta) ref = static_cast<GridRef*>(lua_touserdata(L, 1));
    lua_pop(L, 1);
  }
  if (!ref) ref = static_cast<GridRef*>(luaL_checkudata(L, 1, "plateau.grid"));
  State* s = write ? Writable(L, StateUndo::kGrids) : Readable(L);
  if (ref->index < 0 || ref->index >= static_cast<int>(s->grids.size())) Raise(L, "stale grid handle");
  return &s->grids[static_cast<size_t>(ref->index)].second;
}

namespace {

int GridGet(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  const Cell* c = g->Get(CheckCoordArg(L, 2), CheckCoordArg(L, 3));
  if (!c || c->empty()) return 0;
  PushCardName(L, c->item);
  lua_pushboolean(L, c->face_down);
  lua_pushinteger(L, c->rotation);
  return 3;
}

// grid:version(): changes with every change of a cell (host/grid.h); a script's cache of this
// grid's scores keyed by it holds exactly as long as the cells do.
int GridVersion(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(CheckGrid(L, false)->version()));
  return 1;
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

}  // namespace

// Pushes the handle of the grid at `index` of the state's grids. A handle names an index
// and nothing else, so one per index serves every call (the bots' totals ask for every
// seat's grid at every candidate move; a new userdata each time was a fifth of that).
static void PushGridHandle(lua_State* L, int index) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, B(L)->grid_handles);  // made by OpenGridBindings
  if (lua_rawgeti(L, -1, index + 1) != LUA_TUSERDATA) {
    lua_pop(L, 1);
    auto* ref = static_cast<GridRef*>(lua_newuserdatauv(L, sizeof(GridRef), 0));
    ref->index = index;
    luaL_setmetatable(L, "plateau.grid");
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, index + 1);
  }
  lua_remove(L, -2);
}

int StateGrid(lua_State* L) {
  State* s = Readable(L);
  // state:grid(seat), the common call: the seat's grid from the state's index, no key built.
  if (lua_isinteger(L, 2) && lua_isnone(L, 3)) {
    const lua_Integer k = lua_tointeger(L, 2);
    if (k >= 1 && k <= static_cast<lua_Integer>(s->seats.size())) {
      const int index = s->index().grid[static_cast<size_t>(k - 1)];
      if (index >= 0) {
        PushGridHandle(L, index);
        return 1;
      }
    }
  }
  int seat = -1;
  std::string key;
  if (lua_type(L, 2) == LUA_TSTRING && s->GridIndex(lua_tostring(L, 2)) >= 0) key = lua_tostring(L, 2);
  else {
    seat = CheckSeat(L, 2, *s);
    key = State::Key(luaL_optstring(L, 3, "grid"), seat);
  }
  const int index = s->GridIndex(key);
  if (index < 0) Raise(L, "no grid '" + key + "'");
  PushGridHandle(L, index);
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
  PushGridHandle(L, s->GridIndex(key));
  return 1;
}

void OpenGridBindings(lua_State* L, int up) {
  static const luaL_Reg grid_methods[] = {
      {"get", GridGet},         {"count", GridCount}, {"version", GridVersion},         {"bounds", GridBounds},
      {"snapshot", GridSnapshot}, {"placeable", GridPlaceable}, {"can_place", GridCanPlace},
      {"add", GridAdd},         {"del", GridDel},             {"move", GridMove},
      {"swap", GridSwap},       {"set_face_down", GridSetFaceDown}, {"neighbors", GridNeighbors},
      {"find", GridFind},       {"groups", GridGroups},       {"distance", GridDistance},
      {"line", GridLine},       {"view", GridView_},          {"relocations", GridRelocations},
      {nullptr, nullptr}};
  RegisterHandle(L, "plateau.grid", grid_methods, up);
  luaL_getmetatable(L, "plateau.grid");
  static_cast<Binding*>(lua_touserdata(L, up))->grid_meta = lua_topointer(L, -1);
  lua_pop(L, 1);
  lua_newtable(L);
  static_cast<Binding*>(lua_touserdata(L, up))->grid_handles = luaL_ref(L, LUA_REGISTRYINDEX);
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
}

}  // namespace plateau::scripting
