// LuaRules::PositionState: a position file (schemas/position.schema.json) made into a state for
// `plateau score` and the fuzz_board harness, so both run the same steps. Kept out of
// lua_rules.cc because it touches no Lua: it drives the host's tile map, region map and zones.
#include <string>

#include "host/game.h"
#include "host/region_map.h"
#include "host/tile_map.h"
#include "scripting/lua_rules.h"

#include "host/limits.h"

namespace plateau::scripting {

Status LuaRules::PositionState(const Json& board, const std::string& path, const Json& given, State* out) {
  Json params;
  Status st = ResolveParams(info(), given, &params);
  if (!st.ok()) return st;
  const int players = static_cast<int>(board["players"].size());
  st = NewGame(params, players, 1, out);
  if (!st.ok()) return st;
  for (int i = 0; i < players; ++i)
    if (board["players"][static_cast<size_t>(i)].contains("name"))
      out->seats[static_cast<size_t>(i)].name = board["players"][static_cast<size_t>(i)]["name"];
  // The named component of a kind, or the game's only one.
  auto pick = [&](auto& components, const std::string& named, const char* what, const std::string& at, auto** found) -> Status {
    std::string name = named;
    if (name.empty()) {
      if (components.size() != 1)
        return Status::Input(path + ": at " + at + ": the game has " + std::to_string(components.size()) + " " + what + "s; name one");
      name = components.begin()->first;
    }
    auto it = components.find(name);
    if (it == components.end()) return Status::Input(path + ": at " + at + ": the game has no " + what + " '" + name + "'");
    *found = &it->second;
    return Status::Ok();
  };
  if (board.contains("tiles")) {
    TileMap* target = nullptr;
    st = pick(out->tile_maps, board.value("map", std::string()), "tile map", "/map", &target);
    if (!st.ok()) return st;
    TileMap map;
    std::string why;
    if (!TileMap::FromJson({{"tiles", board["tiles"]}, {"closing_ends", target->closing_ends()},
                            {"filled_inside", target->filled_inside()}},
                           out->tiles, &map, &why))
      return Status::Input(path + ": at /" + why);
    const Json no_pieces = Json::array();
    const Json& pieces = board.contains("pieces") ? board["pieces"] : no_pieces;
    for (size_t i = 0; i < pieces.size(); ++i) {
      const Json& p = pieces[i];
      const std::string at = path + ": at /pieces/" + std::to_string(i);
      // The schema bounds these (schemas/position.schema.json); read without narrowing all the same.
      const int seat = static_cast<int>(limits::JsonInt(p["player"], 1, limits::kSeats, "player")) - 1;
      if (seat >= players) return Status::Input(at + "/player: there are " + std::to_string(players) + " players");
      const int row = static_cast<int>(limits::JsonInt(p["cell"][0], -limits::kCoord, limits::kCoord, "row"));
      const int col = static_cast<int>(limits::JsonInt(p["cell"][1], -limits::kCoord, limits::kCoord, "column"));
      if (!map.At(row, col)) return Status::Input(at + "/cell: no tile at [" + std::to_string(row) + ", " + std::to_string(col) + "]");
      const int seg = map.Segment(row, col, static_cast<int>(limits::JsonInt(p["segment"], 1, 64, "segment")) - 1);
      if (seg < 0)
        return Status::Input(at + "/segment: the tile at [" + std::to_string(row) + ", " + std::to_string(col) + "] has " +
                             std::to_string(map.SegmentCount(row, col)) + " segment(s)");
      map.Occupy(seg, seat, static_cast<int>(limits::JsonIntField(p, "count", 1, 1, 100, "count")));
    }
    *target = std::move(map);
  }
  if (board.contains("regions")) {
    RegionMap* target = nullptr;
    st = pick(out->region_maps, board["regions"].value("map", std::string()), "region map", "/regions/map", &target);
    if (!st.ok()) return st;
    target->Clear();
    for (auto it = board["regions"]["marks"].begin(); it != board["regions"]["marks"].end(); ++it) {
      const int r = target->set().Find(it.key());
      if (r < 0) return Status::Input(path + ": at /regions/marks/" + it.key() + ": unknown region");
      for (const auto& p : *it) {
        const int64_t who = limits::JsonInt(p, 1, limits::kSeats, "player");
        if (who > players) return Status::Input(path + ": at /regions/marks/" + it.key() + ": there are " + std::to_string(players) + " players");
        target->Mark(r, static_cast<int>(who) - 1);
      }
    }
  }
  if (board.contains("zones"))
    for (auto it = board["zones"].begin(); it != board["zones"].end(); ++it) {
      Zone* z = out->FindZone(it.key(), -1);
      if (!z) return Status::Input(path + ": at /zones/" + it.key() + ": the game has no shared zone '" + it.key() + "'");
      z->cards.clear();
      for (size_t i = 0; i < it->size(); ++i) {
        const CardId c = out->cards->Find((*it)[i].get<std::string>());
        if (c == kNoCard) return Status::Input(path + ": at /zones/" + it.key() + "/" + std::to_string(i) + ": unknown card '" + (*it)[i].get<std::string>() + "'");
        z->cards.push_back(c);
      }
    }
  if (board.contains("data"))
    for (auto d = board["data"].begin(); d != board["data"].end(); ++d) out->data[d.key()] = *d;
  if (board.contains("phase")) out->flow.phase = board["phase"];
  out->Touch();
  return Status::Ok();
}

}  // namespace plateau::scripting
