// Lua bindings of grid views and compiled queries (host/grid.h): grid:view() copies a grid into
// a dense array that scoring queries run over (count, pairs, groups, lines...), ctx.card_set
// builds the card sets they take, ctx.query compiles a list of them once and view:run answers
// it in one call.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <string>
#include <vector>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

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

// luaL_checkoption's answer, a valid option found with one string comparison: the view
// methods take their relation and face on every call, and the greedy bots make thousands of
// calls a decision. Anything else goes to luaL_checkoption, for its error.
int QuickOption(lua_State* L, int arg, const char* const lst[]) {
  if (lua_type(L, arg) == LUA_TSTRING) {
    const char* s = lua_tostring(L, arg);
    for (int i = 0; lst[i]; ++i)
      if (lst[i][0] == s[0] && std::strcmp(lst[i], s) == 0) return i;
  }
  return luaL_checkoption(L, arg, nullptr, lst);
}

ViewAdj CheckAdj(lua_State* L, int arg) {
  if (lua_isnoneornil(L, arg)) return kAdjOrth;
  static const char* const kinds[] = {"orthogonal", "diagonal", "all", "distance2", "below", "above", "row", "col", nullptr};
  return static_cast<ViewAdj>(QuickOption(L, arg, kinds));
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
    if (c == kNoCard) Raise(L, std::string("unknown card '") + lua_tostring(L, -1) + "'" + B(L)->cards->Suggest(lua_tostring(L, -1)));
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
  return QuickOption(L, arg, faces);
}
bool FaceOk(const GridView& v, int j, int face) { return face == 0 || (face == 1) != v.down[j]; }

// A new view of `n` cells on the Lua stack (rows, cols and the cells left for the caller).
GridView* NewView(lua_State* L, int n) {
  auto* v = static_cast<GridView*>(
      lua_newuserdatauv(L, sizeof(GridView) + static_cast<size_t>(n) * (sizeof(CardId) + sizeof(bool)), 0));
  v->rows = v->cols = v->min_row = v->min_col = 0;
  v->cell = reinterpret_cast<CardId*>(v + 1);
  v->down = reinterpret_cast<bool*>(v->cell + n);
  lua_rawgeti(L, lua_upvalueindex(2), 0);  // the view metatable, kept in the name table
  lua_setmetatable(L, -2);
  return v;
}

}  // namespace

// ctx.view(rows, cols, cells[, down]): a view of a layout the rules hold as dense arrays
// (cells[i] a card id, or false for an empty cell; down[i] true for a face-down card), such
// as a grid as a move would leave it, so that it is scored by the same queries as a grid.
// Its min_row and min_col are 0.
int CtxView(lua_State* L) {
  const lua_Integer rows = CheckIntRange(L, 1, 0, 256, "rows");
  const lua_Integer cols = CheckIntRange(L, 2, 0, 256, "cols");
  luaL_checktype(L, 3, LUA_TTABLE);
  const bool has_down = !lua_isnoneornil(L, 4);
  if (has_down) luaL_checktype(L, 4, LUA_TTABLE);
  if (rows * cols > 256) Raise(L, "grid views are for grids of at most 256 cells");
  const int n = static_cast<int>(rows * cols);
  GridView* v = NewView(L, n);
  v->rows = n ? static_cast<int>(rows) : 0;
  v->cols = n ? static_cast<int>(cols) : 0;
  for (int i = 0; i < n; ++i) {
    const int t = lua_rawgeti(L, 3, i + 1);
    if (t == LUA_TSTRING) {
      const CardId c = LookupCard(L, -1);
      if (c == kNoCard) Raise(L, "cells[" + std::to_string(i + 1) + "]: unknown card '" + lua_tostring(L, -1) + "'" + B(L)->cards->Suggest(lua_tostring(L, -1)));
      v->cell[i] = c;
    } else if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, -1))) {
      v->cell[i] = kNoCard;
    } else {
      Raise(L, "cells[" + std::to_string(i + 1) + "] must be a card id or false (an empty cell), not a " + luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    if (has_down) {
      lua_rawgeti(L, 4, i + 1);
      v->down[i] = v->cell[i] != kNoCard && lua_toboolean(L, -1);
      lua_pop(L, 1);
    } else {
      v->down[i] = false;
    }
  }
  return 1;
}

int GridView_(lua_State* L) {
  Grid* g = CheckGrid(L, false);
  // grid:view(r, c, card): the view as the grid would be with the card placed face up at an
  // empty (r, c), the grid left as it is (a bot valuing candidate placements without trying
  // each). The arguments read as grid:add's.
  const bool with = !lua_isnoneornil(L, 2) || !lua_isnoneornil(L, 3) || !lua_isnoneornil(L, 4);
  int add_r = 0, add_c = 0;
  CardId add = kNoCard;
  Bounds b = g->bounds();
  int count = g->count();
  if (with) {
    add_r = CheckCoordArg(L, 2);
    add_c = CheckCoordArg(L, 3);
    add = CheckCard(L, 4);
    if (g->Occupied(add_r, add_c)) Raise(L, "cell [" + std::to_string(add_r) + ", " + std::to_string(add_c) + "] is occupied");
    if (count == 0) {
      b = {add_r, add_r, add_c, add_c};
    } else {
      b.min_row = std::min(b.min_row, add_r);
      b.max_row = std::max(b.max_row, add_r);
      b.min_col = std::min(b.min_col, add_c);
      b.max_col = std::max(b.max_col, add_c);
    }
    ++count;
  }
  const int64_t cells = count ? int64_t{b.rows()} * b.cols() : 0;
  if (cells > 256) Raise(L, "grid views are for grids of at most 256 cells");
  const int n = static_cast<int>(cells);
  GridView* v = NewView(L, n);
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
  if (with) {
    const int i = (add_r - b.min_row) * v->cols + (add_c - b.min_col);
    v->cell[i] = add;
    v->down[i] = false;
  }
  return 1;
}

namespace {

// v:size() -> rows, cols, min_row, min_col
int ViewSize(lua_State* L) {
  GridView* v = CheckView(L);
  lua_pushinteger(L, v->rows);
  lua_pushinteger(L, v->cols);
  lua_pushinteger(L, v->min_row);
  lua_pushinteger(L, v->min_col);
  return 4;
}

// Calls on_group(size, first) for each orthogonally connected group of cells in `m` (seen with
// `face`), in row-major order of the groups' first cells. With `label`, each cell's group
// number (0, 1, ... in that order) is written there, -1 for a cell in none.
template <typename F>
void ForGroups(const GridView& v, const CardMask& m, int face, F&& on_group, int* label = nullptr) {
  int own[256];
  if (!label) label = own;
  for (int i = 0; i < v.n(); ++i) label[i] = -1;
  int stack[256], groups = 0;
  for (int i = 0; i < v.n(); ++i) {
    if (label[i] >= 0 || !m.Has(v.cell[i]) || !FaceOk(v, i, face)) continue;
    int top = 0, size = 0;
    stack[top++] = i;
    label[i] = groups;
    while (top) {
      const int x = stack[--top];
      ++size;
      ForNeighbors(v, x, kAdjOrth, [&](int j) {
        if (label[j] < 0 && m.Has(v.cell[j]) && FaceOk(v, j, face)) {
          label[j] = groups;
          stack[top++] = j;
        }
      });
    }
    ++groups;
    on_group(size, i);
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
  ForGroups(*v, m, face, [&](int size, int /*first*/) {
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
// arguments are the view methods': count(cards, face), pairs(a, b, adj, face, cards_face),
// touching(a, b, adj, face, cards_face), distinct(a, b, adj, face, cards_face),
// groups(cards, points, face), lines(cards, face) -> rows + columns, flip_touching(a, b, adj),
// and each(a, b, adj, face, base, per, floor, cards_face): the sum over cells of `a` of
// max(base + per * (neighbours in b), floor). `face` filters the neighbours (b), `cards_face`
// the cells of `a` (a face-down card that scores nothing).

struct QueryOp {
  enum Kind { kCount, kPairs, kTouching, kDistinct, kGroups, kLines, kFlip, kEach, kLargest, kTouchingGroups } kind;
  CardMask a, b;
  ViewAdj adj = kAdjOrth;
  int face = 0;        // which neighbours (b) count
  int cards_face = 0;  // which cells of a score (pairs, touching, distinct, each)
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
const char* const kQueryFields[][9] = {
    {"cards", "face"},                                                   // count
    {"cards", "near", "adj", "face", "cards_face"},                      // pairs
    {"cards", "near", "adj", "face", "cards_face"},                      // touching
    {"cards", "near", "adj", "face", "cards_face"},                      // distinct
    {"cards", "points", "face"},                                         // groups
    {"cards", "face"},                                                   // lines
    {"cards", "near", "adj"},                                            // flip_touching
    {"cards", "near", "adj", "face", "base", "per", "floor", "cards_face"},  // each
    {"cards", "face"},                                                   // largest
    {"cards", "near", "adj", "face", "cards_face"},                      // touching_groups
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

}  // namespace

int CtxQuery(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  auto* q = static_cast<Query*>(lua_newuserdatauv(L, sizeof(Query), 0));
  new (q) Query();
  luaL_setmetatable(L, "plateau.query");
  const int query_idx = lua_gettop(L);
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 1));
  static const char* const kinds[] = {"count", "pairs", "touching", "distinct", "groups", "lines",
                                      "flip_touching", "each", "largest", "touching_groups", nullptr};
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
      case QueryOp::kDistinct: op.a = mask(); op.b = mask(); op.adj = adj(); op.face = face(); op.cards_face = face(); break;
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
        op.cards_face = face();
        break;
      case QueryOp::kLargest: op.a = mask(); op.face = face(); break;
      case QueryOp::kTouchingGroups:
        op.a = mask(); op.b = mask(); op.adj = adj(); op.face = face(); op.cards_face = face();
        break;
    }
    q->ops.push_back(std::move(op));
    lua_settop(L, entry - 1);
  }
  lua_settop(L, query_idx);
  return 1;
}

namespace {

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

// What an entry counted, item by item, for v:explain; RunOp's hot path (v:run) takes NoNote,
// whose calls compile to nothing.
struct NoNote {
  static constexpr bool kOn = false;
  void Cell(int, lua_Integer) {}
  void Group(int, int, lua_Integer) {}
  void Line(bool, int) {}
};

template <typename Note = NoNote>
lua_Integer RunOp(GridView& v, const QueryOp& op, Note&& note = Note{}) {
  lua_Integer n = 0;
  switch (op.kind) {
    case QueryOp::kCount:
      for (int i = 0; i < v.n(); ++i) {
        const bool hit = op.a.Has(v.cell[i]) && FaceOk(v, i, op.face);
        n += hit;
        if (hit) note.Cell(i, 1);
      }
      return n;
    case QueryOp::kPairs:
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i]) || !FaceOk(v, i, op.cards_face)) continue;
        lua_Integer here = 0;
        ForNeighbors(v, i, op.adj, [&](int j) { here += op.b.Has(v.cell[j]) && FaceOk(v, j, op.face); });
        n += here;
        note.Cell(i, here);
      }
      return n;
    case QueryOp::kTouching:
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i]) || !FaceOk(v, i, op.cards_face)) continue;
        bool hit = false;
        ForNeighbors(v, i, op.adj, [&](int j) { hit = hit || (op.b.Has(v.cell[j]) && FaceOk(v, j, op.face)); });
        n += hit;
        note.Cell(i, hit);
      }
      return n;
    case QueryOp::kDistinct:
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i]) || !FaceOk(v, i, op.cards_face)) continue;
        CardMask seen;
        lua_Integer here = 0;
        ForNeighbors(v, i, op.adj, [&](int j) {
          const CardId c = v.cell[j];
          if (op.b.Has(c) && FaceOk(v, j, op.face) && !seen.Has(c)) { seen.Add(c); ++here; }
        });
        n += here;
        note.Cell(i, here);
      }
      return n;
    case QueryOp::kGroups:
      ForGroups(v, op.a, op.face, [&](int size, int first) {
        const lua_Integer p = op.points[static_cast<size_t>(std::min<int>(size, static_cast<int>(op.points.size())) - 1)];
        n += p;
        note.Group(first, size, p);
      });
      return n;
    case QueryOp::kLines: {
      lua_Integer rows, cols;
      LineCounts(v, op.a, op.face, &rows, &cols);
      if constexpr (std::decay_t<Note>::kOn) {
        for (int r = 0; r < v.rows; ++r)
          for (int c = 0; c < v.cols; ++c)
            if (op.a.Has(v.cell[r * v.cols + c]) && FaceOk(v, r * v.cols + c, op.face)) { note.Line(true, r); break; }
        for (int c = 0; c < v.cols; ++c)
          for (int r = 0; r < v.rows; ++r)
            if (op.a.Has(v.cell[r * v.cols + c]) && FaceOk(v, r * v.cols + c, op.face)) { note.Line(false, c); break; }
      }
      return rows + cols;
    }
    case QueryOp::kFlip: {
      bool flip[256] = {};
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i]) || v.down[i]) continue;
        ForNeighbors(v, i, op.adj, [&](int j) { flip[i] = flip[i] || (op.b.Has(v.cell[j]) && !v.down[j]); });
      }
      for (int i = 0; i < v.n(); ++i)
        if (flip[i]) { v.down[i] = true; ++n; note.Cell(i, 1); }
      return n;
    }
    case QueryOp::kEach:
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i]) || !FaceOk(v, i, op.cards_face)) continue;
        lua_Integer around = 0;
        ForNeighbors(v, i, op.adj, [&](int j) { around += op.b.Has(v.cell[j]) && FaceOk(v, j, op.face); });
        const lua_Integer here = std::max(op.base + op.per * around, op.floor);
        n += here;
        note.Cell(i, here);
      }
      return n;
    case QueryOp::kLargest: {
      int best = 0, at = -1;
      ForGroups(v, op.a, op.face, [&](int size, int first) {
        if (size > best) { best = size; at = first; }
      });
      if (at >= 0) note.Group(at, best, best);
      return best;
    }
    case QueryOp::kTouchingGroups: {
      // The groups of b, labelled; then each cell of a adds the size of every distinct group
      // among its neighbours.
      int label[256], size[256], groups = 0;
      ForGroups(v, op.b, op.face, [&](int s, int) { size[groups++] = s; }, label);
      for (int i = 0; i < v.n(); ++i) {
        if (!op.a.Has(v.cell[i]) || !FaceOk(v, i, op.cards_face)) continue;
        int seen[256], nseen = 0;
        lua_Integer here = 0;
        ForNeighbors(v, i, op.adj, [&](int j) {
          const int g = label[j];
          if (g < 0 || std::find(seen, seen + nseen, g) != seen + nseen) return;
          seen[nseen++] = g;
          here += size[g];
        });
        n += here;
        note.Cell(i, here);
      }
      return n;
    }
  }
  return 0;
}

// Builds v:explain's item list on the Lua stack: each item {r =, c =, n =} in grid coordinates
// (a group adds size = s, at its first cell in reading order), or {row = r, n = 1} /
// {col = c, n = 1} for a line. Keyed fields only, so a score's extra can carry them as JSON.
struct LuaNote {
  static constexpr bool kOn = true;
  lua_State* L;
  const GridView& v;
  lua_Integer count = 0;
  void Field(const char* key, lua_Integer x) {
    lua_pushinteger(L, x);
    lua_setfield(L, -2, key);
  }
  void Item(int i, lua_Integer n, int size) {
    lua_createtable(L, 0, size ? 4 : 3);
    Field("r", v.min_row + i / v.cols);
    Field("c", v.min_col + i % v.cols);
    Field("n", n);
    if (size) Field("size", size);
    lua_rawseti(L, -2, ++count);
  }
  void Cell(int i, lua_Integer n) { Item(i, n, 0); }
  void Group(int first, int size, lua_Integer points) { Item(first, points, size); }
  void Line(bool row, int k) {
    lua_createtable(L, 0, 2);
    Field(row ? "row" : "col", row ? v.min_row + k : v.min_col + k);
    Field("n", 1);
    lua_rawseti(L, -2, ++count);
  }
};

// The single-query view methods, the same operations as query entries run at once:
//   v:count(cards, [face]), v:pairs(a, b, [adj], [face], [cards_face]),
//   v:touching(a, b, [adj], [face], [cards_face]), v:distinct(a, b, [adj], [face], [cards_face]),
//   v:lines(cards, [face]) -> rows, cols,
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
    default:
      op.a = CheckMask(L, 2); op.b = CheckMask(L, 3); op.adj = CheckAdj(L, 4); op.face = CheckFace(L, 5);
      op.cards_face = CheckFace(L, 6);
      break;
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

// ---- v:run on bit boards ----------------------------------------------------------------
//
// A view of at most 64 cells (every Écosystème grid, with room) answers v:run's entries on
// 64-bit sets of cells (bit i = dense index i): a neighbour relation is a few shifts of a whole
// set instead of a walk around each cell, and a card's cells are found once per run. The
// greedy bots run a query per candidate placement, so this is most of their time in the
// Écosystème games. RunOp stays the reference (v:explain and the one-entry methods use it); the
// api-draft-example tests hold the two to the same answers on every entry, relation and face.
class Boards {
 public:
  explicit Boards(GridView& v) : v_(v), rows_(v.rows), cols_(v.cols) {
    const int n = v.n();
    all_ = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    std::memset(slot_, 0xff, sizeof slot_);
    for (int i = 0; i < n; ++i) {
      const uint64_t bit = uint64_t{1} << i;
      if (v.down[i]) down_ |= bit;
      const CardId c = v.cell[i];
      if (c < 0 || c >= 256) continue;
      if (slot_[c] < 0) {
        slot_[c] = static_cast<int16_t>(ncards_);
        present_.Add(c);
        card_[ncards_] = c;
        cells_[ncards_++] = 0;
      }
      cells_[slot_[c]] |= bit;
    }
    // cols_below_[k]: the cells of columns 0..k-1.
    uint64_t col0 = 0;
    for (int r = 0; r < rows_; ++r) col0 |= uint64_t{1} << (r * cols_);
    cols_below_[0] = 0;
    for (int k = 1; k <= cols_; ++k) cols_below_[k] = cols_below_[k - 1] | (col0 << (k - 1));
    for (int dc = -2; dc <= 2; ++dc) source_[dc + 2] = SourceColumns(dc);
    while (nwords_ > 1 && !present_.bits[nwords_ - 1]) --nwords_;
  }

  lua_Integer Run(const QueryOp& op) {
    switch (op.kind) {
      case QueryOp::kCount: return Pop(Of(op.a, op.face));
      case QueryOp::kPairs: {
        const uint64_t a = Of(op.a, op.cards_face), b = Of(op.b, op.face);
        lua_Integer n = 0;
        if (a && b) ForOffsets(op.adj, [&](int dr, int dc) { n += Pop(a & Shift(b, dr, dc)); });
        return n;
      }
      case QueryOp::kTouching: {
        const uint64_t a = Of(op.a, op.cards_face);
        return a ? Pop(a & Around(Of(op.b, op.face), op.adj)) : 0;
      }
      case QueryOp::kDistinct: {
        // Each cell of a counts the kinds around it: summed kind by kind, the cells of a next
        // to a card of that kind.
        const uint64_t a = Of(op.a, op.cards_face);
        lua_Integer n = 0;
        if (!a) return 0;
        for (int k = 0; k < ncards_; ++k)
          if (op.b.Has(card_[k])) n += Pop(a & Around(Face(cells_[k], op.face), op.adj));
        return n;
      }
      case QueryOp::kGroups: {
        uint64_t left = Of(op.a, op.face);
        lua_Integer n = 0;
        const int last = static_cast<int>(op.points.size());
        while (left) {
          const uint64_t group = FirstGroup(left);
          left &= ~group;
          n += op.points[static_cast<size_t>(std::min(Pop(group), last) - 1)];
        }
        return n;
      }
      case QueryOp::kLargest: {
        uint64_t left = Of(op.a, op.face);
        int best = 0;
        while (left) {
          const uint64_t group = FirstGroup(left);
          left &= ~group;
          best = std::max(best, Pop(group));
        }
        return best;
      }
      case QueryOp::kTouchingGroups: {
        // Summed group by group: its size times the cells of a that have it around them.
        const uint64_t a = Of(op.a, op.cards_face);
        if (!a) return 0;
        uint64_t left = Of(op.b, op.face);
        lua_Integer n = 0;
        while (left) {
          const uint64_t group = FirstGroup(left);
          left &= ~group;
          n += lua_Integer{Pop(group)} * Pop(a & Around(group, op.adj));
        }
        return n;
      }
      case QueryOp::kLines: {
        const uint64_t a = Of(op.a, op.face);
        if (!a) return 0;
        lua_Integer n = 0;
        const uint64_t row0 = cols_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << cols_) - 1;
        for (int r = 0; r < rows_; ++r) n += (a & (row0 << (r * cols_))) != 0;
        for (int c = 0; c < cols_; ++c) n += (a & (cols_below_[c + 1] & ~cols_below_[c])) != 0;
        return n;
      }
      case QueryOp::kFlip: {
        const uint64_t a = Of(op.a, 1);
        if (!a) return 0;
        const uint64_t flip = a & Around(Of(op.b, 1), op.adj);
        down_ |= flip;
        for (uint64_t f = flip; f; f &= f - 1) v_.down[__builtin_ctzll(f)] = true;
        return Pop(flip);
      }
      case QueryOp::kEach: {
        const uint64_t a = Of(op.a, op.cards_face);
        if (!a) return 0;
        const uint64_t b = Of(op.b, op.face);
        int around[64] = {};
        ForOffsets(op.adj, [&](int dr, int dc) {
          for (uint64_t x = a & Shift(b, dr, dc); x; x &= x - 1) ++around[__builtin_ctzll(x)];
        });
        lua_Integer n = 0;
        for (uint64_t x = a; x; x &= x - 1)
          n += std::max(op.base + op.per * around[__builtin_ctzll(x)], op.floor);
        return n;
      }
    }
    return 0;
  }

 private:
  // The orthogonally connected group of `cells` holding its lowest cell.
  uint64_t FirstGroup(uint64_t cells) const {
    uint64_t group = cells & (~cells + 1), grown = 0;
    while (grown != group) {
      grown = group;
      group = (group | Around(group, kAdjOrth)) & cells;
    }
    return group;
  }
  static int Pop(uint64_t x) {
    // The SWAR count: the baseline x86-64 target has no popcnt instruction, and libgcc's is a call.
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
  }
  uint64_t Face(uint64_t cells, int face) const { return face == 0 ? cells : face == 1 ? cells & ~down_ : cells & down_; }
  // The cells holding a card of m, seen with `face`.
  uint64_t Of(const CardMask& m, int face) const {
    uint64_t s = 0;
    for (int w = 0; w < nwords_; ++w)
      for (uint64_t x = m.bits[w] & present_.bits[w]; x; x &= x - 1)
        s |= cells_[slot_[w * 64 + __builtin_ctzll(x)]];
    return Face(s, face);
  }
  // The cells whose neighbour (r + dr, c + dc) is in b.
  [[gnu::always_inline]] uint64_t Shift(uint64_t b, int dr, int dc) const {
    const int off = dr * cols_ + dc;
    if (off >= 64 || off <= -64) return 0;
    // Only the cells of b whose column minus dc is a column: the others have no such neighbour.
    b &= dc >= -2 && dc <= 2 ? source_[dc + 2] : SourceColumns(dc);
    return (off >= 0 ? b >> off : b << -off) & all_;
  }
  uint64_t SourceColumns(int dc) const {
    const int hi = std::max(0, std::min(cols_, cols_ + dc)), lo = std::max(0, std::min(cols_, dc));
    return cols_below_[hi] & ~cols_below_[lo];
  }
  // The cells with at least one neighbour in b.
  [[gnu::always_inline]] uint64_t Around(uint64_t b, ViewAdj adj) const {
    uint64_t s = 0;
    if (b) ForOffsets(adj, [&](int dr, int dc) { s |= Shift(b, dr, dc); });
    return s;
  }
  // The offsets (dr, dc) of a relation, as ForNeighbors walks them.
  template <typename F>
  [[gnu::always_inline]] void ForOffsets(ViewAdj adj, F&& f) const {
    switch (adj) {
      case kAdjOrth: f(-1, 0); f(0, 1); f(1, 0); f(0, -1); break;
      case kAdjDiag: f(-1, -1); f(-1, 1); f(1, 1); f(1, -1); break;
      case kAdjAll:
        for (int dr = -1; dr <= 1; ++dr)
          for (int dc = -1; dc <= 1; ++dc)
            if (dr || dc) f(dr, dc);
        break;
      case kAdjDist2: f(-2, 0); f(0, 2); f(2, 0); f(0, -2); break;
      case kAdjBelow: for (int k = 1; k < rows_; ++k) f(k, 0); break;
      case kAdjAbove: for (int k = 1; k < rows_; ++k) f(-k, 0); break;
      case kAdjRow: for (int k = 1; k < cols_; ++k) { f(0, k); f(0, -k); } break;
      case kAdjCol: for (int k = 1; k < rows_; ++k) { f(k, 0); f(-k, 0); } break;
    }
  }

  GridView& v_;
  int rows_, cols_;
  uint64_t all_ = 0, down_ = 0;
  uint64_t cols_below_[65];
  uint64_t source_[5];   // SourceColumns(dc) for dc = -2..2, the relations' usual steps
  int nwords_ = 4;       // the words of a card mask that can hold a card of the view
  int ncards_ = 0;
  CardMask present_;
  int16_t slot_[256];
  CardId card_[64];
  uint64_t cells_[64];
};

// v:run(q) -> one number per query entry
int ViewRun(lua_State* L) {
  GridView* v = CheckView(L);
  auto* q = static_cast<Query*>(luaL_checkudata(L, 2, "plateau.query"));
  luaL_checkstack(L, static_cast<int>(q->ops.size()) + 2, "query results");
  if (v->n() <= 64) {
    Boards boards(*v);
    for (const QueryOp& op : q->ops) lua_pushinteger(L, boards.Run(op));
  } else {
    for (const QueryOp& op : q->ops) lua_pushinteger(L, RunOp(*v, op));
  }
  return static_cast<int>(q->ops.size());
}

// v:explain(q) -> one table per entry, in order: {n = answer, items = {...}}, the items what
// the entry counted (LuaNote). The entries run as v:run runs them, flips included. For
// `plateau score --explain` (the Écosystème base's sheets): the cells behind a row's points,
// so a modder checks a scenario test's numbers instead of working them out by hand.
int ViewExplain(lua_State* L) {
  GridView* v = CheckView(L);
  auto* q = static_cast<Query*>(luaL_checkudata(L, 2, "plateau.query"));
  lua_createtable(L, static_cast<int>(q->ops.size()), 0);
  lua_Integer e = 0;
  for (const QueryOp& op : q->ops) {
    luaL_checkstack(L, 6, "query explanation");
    lua_createtable(L, 0, 2);
    lua_newtable(L);
    LuaNote note{L, *v};
    const lua_Integer n = RunOp(*v, op, note);
    lua_setfield(L, -2, "items");
    lua_pushinteger(L, n);
    lua_setfield(L, -2, "n");
    lua_rawseti(L, -2, ++e);
  }
  return 1;
}

}  // namespace

// ctx.card_set{ids...}: an immutable set of cards for grid-view queries.
int CtxCardSet(lua_State* L) {
  const CardMask m = CheckMask(L, 1);
  auto* set = static_cast<CardMask*>(lua_newuserdatauv(L, sizeof(CardMask), 0));
  *set = m;
  luaL_setmetatable(L, "plateau.card_set");
  return 1;
}

void OpenViewBindings(lua_State* L, int up) {
  static const luaL_Reg view_methods[] = {
      {"size", ViewSize},   {"count", ViewOp<QueryOp::kCount>}, {"pairs", ViewOp<QueryOp::kPairs>},
      {"touching", ViewOp<QueryOp::kTouching>}, {"distinct", ViewOp<QueryOp::kDistinct>}, {"groups", ViewGroups},
      {"lines", ViewOp<QueryOp::kLines>}, {"cells", ViewCells}, {"flip_touching", ViewOp<QueryOp::kFlip>},
      {"get", ViewGet}, {"set_down", ViewSetDown}, {"around", ViewAround},
      {"cell", ViewCell},   {"index", ViewIndex}, {"run", ViewRun}, {"explain", ViewExplain}, {nullptr, nullptr}};
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
  luaL_newmetatable(L, "plateau.card_set");
  NameAndSeal(L, "card set");
  lua_pop(L, 1);
}

}  // namespace plateau::scripting
