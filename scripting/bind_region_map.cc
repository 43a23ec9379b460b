// Lua bindings of region maps (host/region_map.h): state:add_region_map, state:region_map and
// the handle's methods over the game's regions data file. Region ids are checked against the
// data, seats against the table; an unknown region is the calling script's error at its line.
#include <algorithm>
#include <cstring>

#include "scripting/binding_util.h"

namespace plateau::scripting {

namespace {

constexpr size_t kMaxName = limits::kNameBytes;

struct RegionMapRef {
  char name[kMaxName + 1];
};

RegionMap* CheckRegionMap(lua_State* L, bool write) {
  auto* ref = static_cast<RegionMapRef*>(luaL_checkudata(L, 1, "plateau.region_map"));
  State* s = write ? Writable(L, StateUndo::kRegionMaps) : Readable(L);
  auto it = s->region_maps.find(ref->name);
  if (it == s->region_maps.end()) Raise(L, std::string("stale region map handle '") + ref->name + "'");
  return &it->second;
}

int CheckRegion(lua_State* L, int arg, const RegionMap& m) {
  const char* id = luaL_checkstring(L, arg);
  const int r = m.set().Find(id);
  if (r < 0) RaiseArg(L, arg, std::string("unknown region '") + id + "'");
  return r;
}

void PushRegionList(lua_State* L, const RegionMap& m, const std::vector<int>& regions) {
  lua_createtable(L, static_cast<int>(regions.size()), 0);
  for (size_t i = 0; i < regions.size(); ++i) {
    lua_pushstring(L, m.set().regions[static_cast<size_t>(regions[i])].id.c_str());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

void PushHandle(lua_State* L, const std::string& name) {
  auto* ref = static_cast<RegionMapRef*>(lua_newuserdatauv(L, sizeof(RegionMapRef), 0));
  std::memset(ref->name, 0, sizeof ref->name);
  std::memcpy(ref->name, name.data(), std::min(name.size(), kMaxName));
  luaL_setmetatable(L, "plateau.region_map");
}

// m:regions([kind or group]) -> region ids in data order (those of that kind or group)
int RmRegions(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, false);
  const char* filter = luaL_optstring(L, 2, nullptr);
  std::vector<int> out;
  for (int r = 0; r < m->set().size(); ++r) {
    const RegionInfo& info = m->set().regions[static_cast<size_t>(r)];
    if (!filter || info.kind == filter || info.group == filter) out.push_back(r);
  }
  PushRegionList(L, *m, out);
  return 1;
}

// m:region(id) -> {id, kind, group}
int RmRegion(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, false);
  const RegionInfo& info = m->set().regions[static_cast<size_t>(CheckRegion(L, 2, *m))];
  lua_createtable(L, 0, 3);
  lua_pushstring(L, info.id.c_str());
  lua_setfield(L, -2, "id");
  lua_pushstring(L, info.kind.c_str());
  lua_setfield(L, -2, "kind");
  lua_pushstring(L, info.group.c_str());
  lua_setfield(L, -2, "group");
  return 1;
}

int RmNeighbors(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, false);
  PushRegionList(L, *m, m->set().graph.Neighbors(CheckRegion(L, 2, *m)));
  return 1;
}

int RmAdjacent(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, false);
  lua_pushboolean(L, m->set().graph.Adjacent(CheckRegion(L, 2, *m), CheckRegion(L, 3, *m)));
  return 1;
}

// m:distance(a, b) -> borders crossed on the shortest way, or nil when unreachable
int RmDistance(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, false);
  const int d = m->set().graph.Distance(CheckRegion(L, 2, *m), CheckRegion(L, 3, *m));
  if (d < 0) return 0;
  lua_pushinteger(L, d);
  return 1;
}

// m:covers(answer) -> {[region] = "correct" | "neighbour"}: the regions of the answer, and the
// regions that border one of them (and are not in it)
int RmCovers(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, false);
  luaL_checktype(L, 2, LUA_TTABLE);
  const lua_Integer n = luaL_len(L, 2);
  if (n > m->set().size()) RaiseArg(L, 2, "more regions than the map has");
  std::vector<int> status(static_cast<size_t>(m->set().size()), 0);  // 2 correct, 1 neighbour
  std::vector<int> answer;
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 2, i);
    answer.push_back(CheckRegion(L, -1, *m));
    lua_pop(L, 1);
  }
  for (int r : answer) status[static_cast<size_t>(r)] = 2;
  for (int r : answer)
    for (int nb : m->set().graph.Neighbors(r))
      if (status[static_cast<size_t>(nb)] == 0) status[static_cast<size_t>(nb)] = 1;
  lua_newtable(L);
  for (int r = 0; r < m->set().size(); ++r) {
    if (!status[static_cast<size_t>(r)]) continue;
    lua_pushstring(L, status[static_cast<size_t>(r)] == 2 ? "correct" : "neighbour");
    lua_setfield(L, -2, m->set().regions[static_cast<size_t>(r)].id.c_str());
  }
  return 1;
}

// m:mark(region, seat), m:unmark(region, [seat]) -> pieces taken, m:marks(region) -> seats
int RmMark(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, true);
  const int r = CheckRegion(L, 2, *m);
  const int seat = CheckSeat(L, 3, *Readable(L));
  if (static_cast<int64_t>(m->Marks(r).size()) >= limits::kRegionPieces)
    Raise(L, "a region holds at most " + std::to_string(limits::kRegionPieces) + " pieces");
  m->Mark(r, seat);
  return 0;
}

int RmUnmark(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, true);
  const int r = CheckRegion(L, 2, *m);
  const int seat = lua_isnoneornil(L, 3) ? -1 : CheckSeat(L, 3, *Readable(L));
  lua_pushinteger(L, m->Unmark(r, seat));
  return 1;
}

int RmMarks(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, false);
  const std::vector<int>& marks = m->Marks(CheckRegion(L, 2, *m));
  lua_createtable(L, static_cast<int>(marks.size()), 0);
  for (size_t i = 0; i < marks.size(); ++i) {
    lua_pushinteger(L, LuaSeat(marks[i]));
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

// m:marked() -> {[region] = {seats}} for every region holding pieces
int RmMarked(lua_State* L) {
  RegionMap* m = CheckRegionMap(L, false);
  lua_newtable(L);
  for (int r = 0; r < m->set().size(); ++r) {
    const std::vector<int>& marks = m->Marks(r);
    if (marks.empty()) continue;
    lua_createtable(L, static_cast<int>(marks.size()), 0);
    for (size_t i = 0; i < marks.size(); ++i) {
      lua_pushinteger(L, LuaSeat(marks[i]));
      lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
    lua_setfield(L, -2, m->set().regions[static_cast<size_t>(r)].id.c_str());
  }
  return 1;
}

int RmClear(lua_State* L) {
  CheckRegionMap(L, true)->Clear();
  return 0;
}

}  // namespace

int StateRegionMap(lua_State* L) {
  State* s = Readable(L);
  const char* name = luaL_checkstring(L, 2);
  if (!s->region_maps.count(name)) Raise(L, std::string("no region map '") + name + "'");
  PushHandle(L, name);
  return 1;
}

// state:add_region_map(name) -> a map of the game's regions with no pieces on it
int StateAddRegionMap(lua_State* L) {
  State* s = Writable(L, StateUndo::kRegionMaps);
  size_t len = 0;
  const char* name = luaL_checklstring(L, 2, &len);
  if (len == 0 || len > kMaxName || std::memchr(name, 0, len)) RaiseArg(L, 2, "a region map's name is 1 to 63 characters");
  if (!s->regions) Raise(L, "this game has no regions data file (a data entry with \"schema\": \"regions\" in game.json)");
  if (s->region_maps.count(name)) Raise(L, std::string("region map '") + name + "' already exists");
  if (static_cast<int64_t>(s->region_maps.size()) >= limits::kMaps)
    Raise(L, "a game has at most " + std::to_string(limits::kMaps) + " region maps");
  s->region_maps.emplace(name, RegionMap(s->regions));
  PushHandle(L, std::string(name, len));
  return 1;
}

void OpenRegionMapBindings(lua_State* L, int up) {
  static const luaL_Reg methods[] = {
      {"regions", RmRegions}, {"region", RmRegion},   {"neighbors", RmNeighbors}, {"adjacent", RmAdjacent},
      {"distance", RmDistance}, {"covers", RmCovers}, {"mark", RmMark},           {"unmark", RmUnmark},
      {"marks", RmMarks},     {"marked", RmMarked},   {"clear", RmClear},         {nullptr, nullptr}};
  RegisterHandle(L, "plateau.region_map", methods, up);
}

}  // namespace plateau::scripting
