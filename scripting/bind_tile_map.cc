// Lua bindings of tile maps (host/tile_map.h): state:add_tile_map, state:tile_map and the
// map handle's methods. Every value that crosses is checked here: tile ids against the game's
// tile set, cells within -4096..4096, rotations in degrees (0/90/180/270), segments and
// features against the map, seats against the table. Segment and feature ids are 1-based in
// Lua, like seats.
#include <cstring>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

constexpr size_t kMaxName = limits::kNameBytes;

struct TileMapRef {
  char name[kMaxName + 1];
};

const char* const kCornerNames[] = {"NE", "SE", "SW", "NW", nullptr};

// With `journal`, the map is about to change: *journal gets the undo journal's record for it
// (null when no journal is open, or it copied the maps whole), which each change must be given.
TileMap* CheckMap(lua_State* L, TileMap::Journal** journal = nullptr) {
  auto* ref = static_cast<TileMapRef*>(luaL_checkudata(L, 1, "plateau.tile_map"));
  State* s = journal ? Writable(L) : Readable(L);
  auto it = s->tile_maps.find(ref->name);
  if (it == s->tile_maps.end()) Raise(L, std::string("stale tile map handle '") + ref->name + "'");
  if (journal) {
    StateUndo* undo = B(L)->undo;
    *journal = undo ? undo->EditTileMap(it->first) : nullptr;
  }
  return &it->second;
}

int CheckTile(lua_State* L, int arg, const TileMap& m) {
  const char* id = luaL_checkstring(L, arg);
  const int t = m.set().Find(id);
  if (t < 0) RaiseArg(L, arg, std::string("unknown tile '") + id + "'");
  return t;
}

int CheckRotation(lua_State* L, int arg) {
  const lua_Integer deg = lua_isnoneornil(L, arg) ? 0 : CheckIntRange(L, arg, 0, 270, "rotation");
  if (deg != 0 && deg != 90 && deg != 180 && deg != 270)
    RaiseArg(L, arg, "rotation " + std::to_string(deg) + " is not 0, 90, 180 or 270");
  return static_cast<int>(deg / 90);
}

// A segment id (1-based) of this map; a wrong one is the script's error at its own line.
int CheckSegment(lua_State* L, int arg, const TileMap& m) {
  const lua_Integer id = CheckIntRange(L, arg, INT64_MIN, INT64_MAX, "segment");
  if (id < 1 || id > m.segment_count())
    RaiseArg(L, arg, "no segment " + std::to_string(id) + " on this map (it has " + std::to_string(m.segment_count()) + ")");
  return static_cast<int>(id - 1);
}

void PushIntList(lua_State* L, const std::vector<int>& v, int offset) {
  lua_createtable(L, static_cast<int>(v.size()), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    lua_pushinteger(L, v[i] + offset);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

void PushCounts(lua_State* L, const std::map<std::string, int>& m) {
  lua_createtable(L, 0, static_cast<int>(m.size()));
  for (const auto& [k, n] : m) {
    lua_pushinteger(L, n);
    lua_setfield(L, -2, k.c_str());
  }
}

void PushOccupants(lua_State* L, const std::map<int, int>& occ) {
  lua_createtable(L, 0, static_cast<int>(occ.size()));
  for (const auto& [owner, n] : occ) {
    if (n == 0) continue;
    lua_pushinteger(L, n);
    lua_rawseti(L, -2, LuaSeat(owner));
  }
}

// Owners holding the most pieces (every tied owner), ascending; empty when nobody is there.
std::vector<int> MajorityOf(const std::map<int, int>& occ) {
  int best = 0;
  for (const auto& [owner, n] : occ) best = std::max(best, n);
  std::vector<int> out;
  if (best > 0)
    for (const auto& [owner, n] : occ)
      if (n == best) out.push_back(owner);
  return out;
}

void PushMapHandle(lua_State* L, const std::string& name) {
  auto* ref = static_cast<TileMapRef*>(lua_newuserdatauv(L, sizeof(TileMapRef), 0));
  std::memset(ref->name, 0, sizeof ref->name);
  std::memcpy(ref->name, name.data(), std::min(name.size(), kMaxName));
  luaL_setmetatable(L, "plateau.tile_map");
}

// m:place(tile, row, col, [rotation]) -> the features this placement completed (a list of ids)
int MapPlace(lua_State* L) {
  TileMap::Journal* journal = nullptr;
  TileMap* m = CheckMap(L, &journal);
  const int tile = CheckTile(L, 2, *m);
  const int row = CheckCoordArg(L, 3), col = CheckCoordArg(L, 4);
  const int rot = CheckRotation(L, 5);
  std::vector<int> completed;
  std::string why;
  if (!m->Place(tile, row, col, rot, &completed, &why, journal))
    Raise(L, "cannot place " + m->set().tiles[static_cast<size_t>(tile)].id + " at [" + std::to_string(row) + ", " +
                 std::to_string(col) + "]: " + why);
  PushIntList(L, completed, 1);
  return 1;
}

// m:fits(tile, row, col, [rotation]) -> true, or false and why
int MapFits(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int tile = CheckTile(L, 2, *m);
  const int row = CheckCoordArg(L, 3), col = CheckCoordArg(L, 4);
  std::string why;
  const bool ok = m->Fits(tile, row, col, CheckRotation(L, 5), &why);
  lua_pushboolean(L, ok);
  if (ok) return 1;
  lua_pushstring(L, why.c_str());
  return 2;
}

// m:placements(tile, [move type]) -> {{cell = {r, c}, rotation = deg[, type = t]}, ...}:
// every cell and distinct rotation where the tile fits; with a type, the list is a list of moves.
void PushPlacement(lua_State* L, const TilePlacement& p, int type_arg) {
  lua_createtable(L, 0, type_arg ? 3 : 2);
  if (type_arg) {
    lua_pushvalue(L, type_arg);
    lua_setfield(L, -2, "type");
  }
  PushCoord(L, p.cell);
  lua_setfield(L, -2, "cell");
  lua_pushinteger(L, p.rotation * 90);
  lua_setfield(L, -2, "rotation");
}

int MapPlacements(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int tile = CheckTile(L, 2, *m);
  const bool typed = !lua_isnoneornil(L, 3);
  if (typed) luaL_checkstring(L, 3);
  std::vector<TilePlacement> out;
  m->Placements(tile, &out);
  lua_createtable(L, static_cast<int>(out.size()), 0);
  for (size_t i = 0; i < out.size(); ++i) {
    PushPlacement(L, out[i], typed ? 3 : 0);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

// m:pick_placement(tile, type, pick, after) -> the move placements(tile, type) lists at the
// draw k = pick(n + after), n being how many it lists and `after` (default 0) how many moves the
// legal list holds after them; past the placements, nil and k - n. Nothing (and no draw) when
// there is nothing to draw from. A random player's placement without a table for each of the
// others (random_move).
int MapPickPlacement(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int tile = CheckTile(L, 2, *m);
  luaL_checkstring(L, 3);
  luaL_checktype(L, 4, LUA_TFUNCTION);
  const lua_Integer after = luaL_optinteger(L, 5, 0);
  if (after < 0 || after > (lua_Integer{1} << 30)) RaiseArg(L, 5, "after is how many moves follow the placements (0 or more)");
  std::vector<TilePlacement> out;
  m->Placements(tile, &out);  // a copy: pick is any function and may change the map
  const lua_Integer n = static_cast<lua_Integer>(out.size());
  if (n + after == 0) return 0;
  lua_pushvalue(L, 4);
  lua_pushinteger(L, n + after);
  lua_call(L, 1, 1);
  int exact = 0;
  const lua_Integer k = lua_tointegerx(L, -1, &exact);
  if (!exact || k < 1 || k > n + after)
    Raise(L, "pick_placement: pick(" + std::to_string(n + after) + ") gave " +
                 (lua_isnumber(L, -1) ? std::string(lua_tostring(L, -1)) : std::string(luaL_typename(L, -1))) +
                 ", not a place in 1.." + std::to_string(n + after));
  lua_pop(L, 1);
  if (k > n) {
    lua_pushnil(L);
    lua_pushinteger(L, k - n);
    return 2;
  }
  PushPlacement(L, out[static_cast<size_t>(k - 1)], 3);
  return 1;
}

int MapCanPlace(lua_State* L) {
  TileMap* m = CheckMap(L);
  lua_pushboolean(L, m->CanPlaceAnywhere(CheckTile(L, 2, *m)));
  return 1;
}

int MapFrontier(lua_State* L) {
  TileMap* m = CheckMap(L);
  const std::vector<Coord> cells = m->Frontier();
  lua_createtable(L, static_cast<int>(cells.size()), 0);
  for (size_t i = 0; i < cells.size(); ++i) {
    PushCoord(L, cells[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

int MapFrontierSize(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(CheckMap(L)->FrontierSize()));
  return 1;
}

// m:frontier_cell(k) -> r, c: frontier()[k] without a table for each cell (a random player
// drawing a space among a hundred).
int MapFrontierCell(lua_State* L) {
  TileMap* m = CheckMap(L);
  const lua_Integer k = luaL_checkinteger(L, 2);
  const lua_Integer n = static_cast<lua_Integer>(m->FrontierSize());
  if (k < 1 || k > n) RaiseArg(L, 2, "the frontier has " + std::to_string(n) + " cells: k is 1.." + std::to_string(n));
  const Coord c = m->FrontierCell(static_cast<size_t>(k - 1));
  lua_pushinteger(L, c.row);
  lua_pushinteger(L, c.col);
  return 2;
}

int MapOnFrontier(lua_State* L) {
  TileMap* m = CheckMap(L);
  lua_pushboolean(L, m->OnFrontier(CheckCoordArg(L, 2), CheckCoordArg(L, 3)));
  return 1;
}

// m:tile(row, col) -> tile id, rotation (degrees); nothing for an empty cell
int MapTile(lua_State* L) {
  TileMap* m = CheckMap(L);
  const TileMap::Placed* p = m->At(CheckCoordArg(L, 2), CheckCoordArg(L, 3));
  if (!p) return 0;
  lua_pushstring(L, m->set().tiles[static_cast<size_t>(p->tile)].id.c_str());
  lua_pushinteger(L, p->rotation * 90);
  return 2;
}

// m:tiles() -> {{row, col, tile, rotation}, ...} in placement order
int MapTiles(lua_State* L) {
  TileMap* m = CheckMap(L);
  lua_createtable(L, m->size(), 0);
  for (int i = 0; i < m->size(); ++i) {
    const Coord c = m->order()[static_cast<size_t>(i)];
    const TileMap::Placed* p = m->At(c.row, c.col);
    lua_createtable(L, 4, 0);
    lua_pushinteger(L, c.row);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, c.col);
    lua_rawseti(L, -2, 2);
    lua_pushstring(L, m->set().tiles[static_cast<size_t>(p->tile)].id.c_str());
    lua_rawseti(L, -2, 3);
    lua_pushinteger(L, p->rotation * 90);
    lua_rawseti(L, -2, 4);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

// map:version(): changes with every change of the map (host/tile_map.h); what a script works
// out from the map and keeps by this number holds exactly as long as the map does.
int MapVersion(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(CheckMap(L)->version()));
  return 1;
}

// m:feature_version(seg): see TileMap::FeatureVersion.
int MapFeatureVersion(lua_State* L) {
  TileMap* m = CheckMap(L);
  lua_pushinteger(L, static_cast<lua_Integer>(m->FeatureVersion(CheckSegment(L, 2, *m))));
  return 1;
}

int MapSize(lua_State* L) {
  lua_pushinteger(L, CheckMap(L)->size());
  return 1;
}

// m:bounds() -> min_row, max_row, min_col, max_col; nothing on an empty map
int MapBounds(lua_State* L) {
  TileMap* m = CheckMap(L);
  if (m->size() == 0) return 0;
  Coord lo = m->order()[0], hi = lo;
  for (const Coord& c : m->order()) {
    lo.row = std::min(lo.row, c.row), lo.col = std::min(lo.col, c.col);
    hi.row = std::max(hi.row, c.row), hi.col = std::max(hi.col, c.col);
  }
  lua_pushinteger(L, lo.row);
  lua_pushinteger(L, hi.row);
  lua_pushinteger(L, lo.col);
  lua_pushinteger(L, hi.col);
  return 4;
}

// m:neighbors8(row, col) -> the 8 cells around, N first and clockwise, placed or not;
// m:filled_around(row, col) -> how many of them hold a tile
int MapNeighbors8(lua_State* L) {
  CheckMap(L);
  const int row = CheckCoordArg(L, 2), col = CheckCoordArg(L, 3);
  static constexpr int kAround[8][2] = {{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}};
  lua_createtable(L, 8, 0);
  for (int i = 0; i < 8; ++i) {
    PushCoord(L, {row + kAround[i][0], col + kAround[i][1]});
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

int MapFilledAround(lua_State* L) {
  TileMap* m = CheckMap(L);
  lua_pushinteger(L, m->FilledAround(CheckCoordArg(L, 2), CheckCoordArg(L, 3)));
  return 1;
}

// m:corner(row, col, "NE"|"SE"|"SW"|"NW") -> the kind the placed tile shows at that corner
int MapCorner(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int row = CheckCoordArg(L, 2), col = CheckCoordArg(L, 3);
  const int corner = luaL_checkoption(L, 4, nullptr, kCornerNames);
  const int k = m->CornerKind(row, col, corner);
  if (k < 0) Raise(L, "no tile at [" + std::to_string(row) + ", " + std::to_string(col) + "]");
  lua_pushstring(L, m->set().kinds[static_cast<size_t>(k)].c_str());
  return 1;
}

// m:tile_corner(tile, rotation, corner) -> the kind a tile would show at that corner once placed
// with that rotation (whether a placement would cover a watering hole's point, say)
int MapTileCorner(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int tile = CheckTile(L, 2, *m);
  const int rot = CheckRotation(L, 3);
  const int corner = luaL_checkoption(L, 4, nullptr, kCornerNames);
  const TileDef& t = m->set().tiles[static_cast<size_t>(tile)];
  lua_pushstring(L, m->set().kinds[static_cast<size_t>(t.corner_kind[static_cast<size_t>(((corner - rot) % 4 + 4) % 4)])].c_str());
  return 1;
}

// m:corners(kind or {kinds}) -> {{row, col, corner}, ...}: every corner of a placed tile that
// shows `kind` (or one of the kinds: a corner free for a watering hole shows savanna, or the
// inside of a trail curve), tiles in placement order, corners NE, SE, SW, NW
int MapCorners(lua_State* L) {
  TileMap* m = CheckMap(L);
  std::vector<bool> wanted(m->set().kinds.size(), false);
  auto want = [&](int arg) {
    const char* name = lua_tostring(L, -1);
    const int kind = name ? m->set().FindKind(name) : -1;
    if (kind < 0) RaiseArg(L, arg, std::string("unknown kind '") + (name ? name : luaL_typename(L, -1)) + "'");
    wanted[static_cast<size_t>(kind)] = true;
  };
  if (lua_istable(L, 2)) {
    const lua_Integer n = luaL_len(L, 2);
    if (n < 1 || n > 32) RaiseArg(L, 2, "a list of 1 to 32 kinds");
    for (lua_Integer i = 1; i <= n; ++i) {
      if (lua_rawgeti(L, 2, i) != LUA_TSTRING) RaiseArg(L, 2, "a list of kinds (strings)");
      want(2);
      lua_pop(L, 1);
    }
  } else {
    luaL_checkstring(L, 2);
    lua_pushvalue(L, 2);
    want(2);
    lua_pop(L, 1);
  }
  lua_createtable(L, m->size(), 0);
  int n = 0;
  for (const Coord& c : m->order())
    for (int k = 0; k < 4; ++k) {
      const int shown = m->CornerKind(c.row, c.col, k);
      if (shown < 0 || !wanted[static_cast<size_t>(shown)]) continue;
      lua_createtable(L, 3, 0);
      lua_pushinteger(L, c.row);
      lua_rawseti(L, -2, 1);
      lua_pushinteger(L, c.col);
      lua_rawseti(L, -2, 2);
      lua_pushstring(L, kCornerNames[k]);
      lua_rawseti(L, -2, 3);
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}

// m:segments(row, col) -> the segment ids of the tile there, in its data order ({} when empty)
int MapSegments(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int row = CheckCoordArg(L, 2), col = CheckCoordArg(L, 3);
  const int n = m->SegmentCount(row, col);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; ++i) {
    lua_pushinteger(L, m->Segment(row, col, i) + 1);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

// m:segment(row, col, index) -> segment id of the tile's index-th segment (1-based)
int MapSegment(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int row = CheckCoordArg(L, 2), col = CheckCoordArg(L, 3);
  const lua_Integer index = CheckIntRange(L, 4, INT64_MIN, INT64_MAX, "segment index");
  if (!m->At(row, col)) RaiseArg(L, 2, "no tile at [" + std::to_string(row) + ", " + std::to_string(col) + "]");
  const int n = m->SegmentCount(row, col);
  if (index < 1 || index > n)
    RaiseArg(L, 4, "the tile at [" + std::to_string(row) + ", " + std::to_string(col) + "] has " + std::to_string(n) +
                       " segment(s), not " + std::to_string(index));
  lua_pushinteger(L, m->Segment(row, col, static_cast<int>(index - 1)) + 1);
  return 1;
}

// m:sides(segment) -> the sides ("N", "E", "S", "W") the segment touches, after rotation
int MapSides(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int seg = CheckSegment(L, 2, *m);
  const Coord c = [&] {
    for (const Coord& at : m->order()) {
      const int first = m->Segment(at.row, at.col, 0);
      if (first >= 0 && seg >= first && seg < first + m->SegmentCount(at.row, at.col)) return at;
    }
    return Coord{};
  }();
  const uint8_t sides = m->SegmentSides(c.row, c.col, seg - m->Segment(c.row, c.col, 0));
  lua_newtable(L);
  int n = 0;
  for (int s = 0; s < 4; ++s)
    if (sides & (1 << s)) {
      lua_pushlstring(L, &"NESW"[s], 1);
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}

// m:feature_of(segment) -> the feature's id (its root segment): equal ids, same feature
int MapFeatureOf(lua_State* L) {
  TileMap* m = CheckMap(L);
  lua_pushinteger(L, m->FeatureOf(CheckSegment(L, 2, *m)) + 1);
  return 1;
}

// m:feature(segment or feature) -> {id, kind, open_edges, ends, open_ends, empty_inside,
// complete, tally, occupants, majority, tiles, segments}
// m:feature(segment) -> the whole description; m:feature_summary(segment) -> the same without
// `tiles`, `segments` and `ends`, the lists that cost most to build, for code that weighs
// features many times a decision (a bot's evaluate) and never reads where they lie.
void PushFeatureInfo(lua_State* L, const TileMap::FeatureInfo& f, bool whole) {
  lua_createtable(L, 0, 12);
  lua_pushinteger(L, f.id + 1);
  lua_setfield(L, -2, "id");
  lua_pushstring(L, f.kind.c_str());
  lua_setfield(L, -2, "kind");
  lua_pushinteger(L, f.open_edges);
  lua_setfield(L, -2, "open_edges");
  if (whole) {
    PushCounts(L, f.ends);
    lua_setfield(L, -2, "ends");
  }
  lua_pushinteger(L, f.open_ends);
  lua_setfield(L, -2, "open_ends");
  lua_pushinteger(L, f.empty_inside);
  lua_setfield(L, -2, "empty_inside");
  lua_pushboolean(L, f.complete);
  lua_setfield(L, -2, "complete");
  PushCounts(L, f.tally);
  lua_setfield(L, -2, "tally");
  PushOccupants(L, f.occupants);
  lua_setfield(L, -2, "occupants");
  PushIntList(L, MajorityOf(f.occupants), 1);
  lua_setfield(L, -2, "majority");
  if (!whole) return;
  lua_createtable(L, static_cast<int>(f.tiles.size()), 0);
  for (size_t i = 0; i < f.tiles.size(); ++i) {
    PushCoord(L, f.tiles[i]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "tiles");
  PushIntList(L, f.segments, 1);
  lua_setfield(L, -2, "segments");
}

int PushFeature(lua_State* L, bool whole) {
  TileMap* m = CheckMap(L);
  PushFeatureInfo(L, m->Feature(CheckSegment(L, 2, *m), whole), whole);
  return 1;
}
int MapFeature(lua_State* L) { return PushFeature(L, true); }
int MapFeatureSummary(lua_State* L) { return PushFeature(L, false); }

// m:placement_changes(tile, row, col, [rotation], [{occupied = true}]) -> what the placement
// would make of the features it changes, without placing the tile: {{<feature_summary
// fields>, joined = {ids before}}, ...}, only those holding a piece with `occupied`; or nil and
// why when the tile does not fit there. The map is placed on and put back within the call
// (versions too), so any hook may ask, a read-only one included.
int MapPlacementChanges(lua_State* L) {
  TileMap* m = CheckMap(L);
  const int tile = CheckTile(L, 2, *m);
  const int row = CheckCoordArg(L, 3), col = CheckCoordArg(L, 4);
  const int rot = CheckRotation(L, 5);
  bool occupied = false;
  if (!lua_isnoneornil(L, 6)) {
    luaL_checktype(L, 6, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, 6) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING || std::strcmp(lua_tostring(L, -2), "occupied") != 0)
        RaiseArg(L, 6, "unknown option (the one option is occupied = true|false)");
      if (!lua_isboolean(L, -1)) RaiseArg(L, 6, "occupied must be true or false");
      occupied = lua_toboolean(L, -1);
      lua_pop(L, 1);
    }
  }
  // A placement made and taken back: charged like the Lua that would try it, so a loop of
  // these ends with the instruction budget as any loop does.
  Runtime::From(L)->Charge(L, 200);
  std::vector<TileMap::FeatureChange> changes;
  std::string why;
  if (!m->PlacementChanges(tile, row, col, rot, &changes, &why, occupied)) {
    lua_pushnil(L);
    lua_pushstring(L, why.c_str());
    return 2;
  }
  lua_createtable(L, static_cast<int>(changes.size()), 0);
  for (size_t i = 0; i < changes.size(); ++i) {
    PushFeatureInfo(L, changes[i].after, false);
    PushIntList(L, changes[i].joined, 1);
    lua_setfield(L, -2, "joined");
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

int MapComplete(lua_State* L) {
  TileMap* m = CheckMap(L);
  lua_pushboolean(L, m->Complete(CheckSegment(L, 2, *m)));
  return 1;
}

// m:features([kind]) -> ids of every feature (of that kind), ascending;
// m:occupied_features([kind]) -> only those holding a piece (what end-of-game scoring reads,
// without describing every empty feature).
int PushFeatureIds(lua_State* L, bool occupied) {
  TileMap* m = CheckMap(L);
  int kind = -1;
  if (!lua_isnoneornil(L, 2)) {
    const char* name = luaL_checkstring(L, 2);
    kind = m->set().FindKind(name);
    if (kind < 0) RaiseArg(L, 2, std::string("unknown kind '") + name + "'");
  }
  PushIntList(L, m->Features(kind, occupied), 1);
  return 1;
}
int MapFeatures(lua_State* L) { return PushFeatureIds(L, false); }
int MapOccupiedFeatures(lua_State* L) { return PushFeatureIds(L, true); }

// m:occupants(feature) -> {[seat] = pieces}; m:majority(feature) -> seats with the most, tied
int MapOccupants(lua_State* L) {
  TileMap* m = CheckMap(L);
  PushOccupants(L, m->Feature(CheckSegment(L, 2, *m)).occupants);
  return 1;
}

int MapMajority(lua_State* L) {
  TileMap* m = CheckMap(L);
  PushIntList(L, MajorityOf(m->graph().Describe(CheckSegment(L, 2, *m)).occupants), 1);
  return 1;
}

// m:occupy(segment, seat, [pieces = 1])
int MapOccupy(lua_State* L) {
  TileMap::Journal* journal = nullptr;
  TileMap* m = CheckMap(L, &journal);
  const int seg = CheckSegment(L, 2, *m);
  const int seat = CheckSeat(L, 3, *Readable(L));
  const int pieces = static_cast<int>(lua_isnoneornil(L, 4) ? 1 : CheckIntRange(L, 4, 1, limits::kPiecesPerCall, "pieces"));
  // The host keeps counts in ints: a feature holds at most 1,000,000 pieces of one owner.
  const auto occ = m->graph().Describe(seg).occupants;
  const auto it = occ.find(seat);
  if ((it == occ.end() ? 0 : it->second) + pieces > limits::kFeaturePieces)
    Raise(L, "a feature holds at most " + std::to_string(limits::kFeaturePieces) + " pieces of one seat");
  m->Occupy(seg, seat, pieces, journal);
  return 0;
}

// m:vacate(feature) -> {[seat] = pieces} taken off it
int MapVacate(lua_State* L) {
  TileMap::Journal* journal = nullptr;
  TileMap* m = CheckMap(L, &journal);
  PushOccupants(L, m->Vacate(CheckSegment(L, 2, *m), journal));
  return 1;
}

// m:add_tally(segment, key, amount)
int MapAddTally(lua_State* L) {
  TileMap::Journal* journal = nullptr;
  TileMap* m = CheckMap(L, &journal);
  const int seg = CheckSegment(L, 2, *m);
  size_t len = 0;
  const char* key = luaL_checklstring(L, 3, &len);
  if (len == 0 || len > limits::kTallyKeyBytes || std::strncmp(key, "end:", 4) == 0)
    RaiseArg(L, 3, "a tally key is 1 to " + std::to_string(limits::kTallyKeyBytes) + " characters and does not start with 'end:'");
  const int amount = static_cast<int>(CheckIntRange(L, 4, -limits::kTallyStep, limits::kTallyStep, "amount"));
  // Tallies are ints, and each addition is kept for the save: both stay bounded.
  const auto& tally = m->graph().Tally(seg);
  const auto it = tally.find(std::string(key, len));
  const int64_t total = (it == tally.end() ? 0 : it->second) + static_cast<int64_t>(amount);
  if (total > limits::kTally || total < -limits::kTally)
    Raise(L, "a tally stays within " + std::to_string(-limits::kTally) + ".." + std::to_string(limits::kTally));
  if (static_cast<int64_t>(m->added_tallies()) >= limits::kAddedTallies)
    Raise(L, "a tile map keeps at most " + std::to_string(limits::kAddedTallies) + " added tallies");
  m->AddTally(seg, std::string(key, len), amount, journal);
  return 0;
}

}  // namespace

// state:tile_map(name) -> the map's handle
int StateTileMap(lua_State* L) {
  State* s = Readable(L);
  const char* name = luaL_checkstring(L, 2);
  if (!s->tile_maps.count(name)) Raise(L, std::string("no tile map '") + name + "'");
  PushMapHandle(L, name);
  return 1;
}

// state:add_tile_map(name, [{closing_ends = {...}, filled_inside = {...}}]) -> the new, empty map's handle
int StateAddTileMap(lua_State* L) {
  State* s = Writable(L, StateUndo::kTileMaps);
  size_t len = 0;
  const char* name = luaL_checklstring(L, 2, &len);
  if (len == 0 || len > kMaxName || std::memchr(name, 0, len)) RaiseArg(L, 2, "a tile map's name is 1 to 63 characters");
  if (!s->tiles) Raise(L, "this game has no tiles data file (a data entry with \"schema\": \"tiles\" in game.json)");
  if (s->tile_maps.count(name)) Raise(L, std::string("tile map '") + name + "' already exists");
  if (static_cast<int64_t>(s->tile_maps.size()) >= limits::kMaps)
    Raise(L, "a game has at most " + std::to_string(limits::kMaps) + " tile maps");
  std::vector<std::string> closing, filled;
  if (!lua_isnoneornil(L, 3)) {
    luaL_checktype(L, 3, LUA_TTABLE);
    if (lua_getfield(L, 3, "closing_ends") != LUA_TNIL) {
      if (!lua_istable(L, -1)) RaiseArg(L, 3, "closing_ends must be a list of strings");
      const lua_Integer n = luaL_len(L, -1);
      if (static_cast<int64_t>(n) > limits::kClosingEnds)
        RaiseArg(L, 3, "closing_ends lists at most " + std::to_string(limits::kClosingEnds) + " kinds of end");
      for (lua_Integer i = 1; i <= n; ++i) {
        if (lua_rawgeti(L, -1, i) != LUA_TSTRING) RaiseArg(L, 3, "closing_ends must be a list of strings");
        size_t len = 0;
        const char* end = lua_tolstring(L, -1, &len);
        if (len == 0 || len > limits::kTallyKeyBytes)
          RaiseArg(L, 3, "a closing end is 1 to " + std::to_string(limits::kTallyKeyBytes) + " characters");
        closing.emplace_back(end, len);
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    if (lua_getfield(L, 3, "filled_inside") != LUA_TNIL) {
      if (!lua_istable(L, -1)) RaiseArg(L, 3, "filled_inside must be a list of kinds");
      const lua_Integer n = luaL_len(L, -1);
      if (n > 32) RaiseArg(L, 3, "filled_inside lists at most 32 kinds");
      for (lua_Integer i = 1; i <= n; ++i) {
        if (lua_rawgeti(L, -1, i) != LUA_TSTRING) RaiseArg(L, 3, "filled_inside must be a list of kinds");
        filled.emplace_back(lua_tostring(L, -1));
        lua_pop(L, 1);
      }
      const std::string bad = TileMap::KindsError(*s->tiles, filled);
      if (!bad.empty()) RaiseArg(L, 3, "filled_inside: " + bad);
    }
    lua_pop(L, 1);
  }
  s->tile_maps.emplace(name, TileMap(s->tiles, std::move(closing), std::move(filled)));
  PushMapHandle(L, std::string(name, len));
  return 1;
}

void OpenTileMapBindings(lua_State* L, int up) {
  static const luaL_Reg methods[] = {
      {"place", MapPlace},           {"fits", MapFits},           {"placements", MapPlacements},
      {"pick_placement", MapPickPlacement},
      {"frontier_size", MapFrontierSize},
      {"frontier_cell", MapFrontierCell},
      {"can_place", MapCanPlace},    {"frontier", MapFrontier},   {"on_frontier", MapOnFrontier},
      {"tile", MapTile},             {"tiles", MapTiles},         {"size", MapSize},           {"version", MapVersion},
      {"bounds", MapBounds},         {"neighbors8", MapNeighbors8}, {"filled_around", MapFilledAround},
      {"corner", MapCorner},         {"corners", MapCorners},
      {"tile_corner", MapTileCorner},         {"segments", MapSegments},   {"segment", MapSegment},
      {"sides", MapSides},           {"feature_of", MapFeatureOf}, {"feature", MapFeature},
      {"complete", MapComplete},     {"features", MapFeatures},   {"occupants", MapOccupants},
      {"occupied_features", MapOccupiedFeatures}, {"feature_summary", MapFeatureSummary},
      {"feature_version", MapFeatureVersion}, {"placement_changes", MapPlacementChanges},
      {"majority", MapMajority},     {"occupy", MapOccupy},       {"vacate", MapVacate},
      {"add_tally", MapAddTally},    {nullptr, nullptr}};
  RegisterHandle(L, "plateau.tile_map", methods, up);
}

}  // namespace plateau::scripting
