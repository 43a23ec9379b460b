// fuzz_board: the boards and positions `plateau score <game> <file>` reads (designer/main.cc,
// CmdScore and PositionState).
//
// Feeds: the input as the board or position file. Its "game" field picks one of the games
// loaded once at start-up (Ecosystem, Écosystème Savane and Océan read boards of card grids,
// schemas/board.schema.json; Safari and Fauna read positions, schemas/position.schema.json);
// without a known "game", the first byte picks.
// Runs what CmdScore runs: ParseJsonLimited (as ReadJsonFile does), schema validation, the
// "game" check, the player count against the game's range, the names and grids; for a board, LuaRules::BoardState with a full frame (the
// CLI) and without (the scenario tests' corners); for a position, the steps of PositionState,
// which is not a library function (designer/main.cc keeps it in an unnamed namespace): NewGame
// with the file's players and names, TileMap::FromJson for its tiles (placed again in order),
// its pieces through TileMap::Segment and Occupy, RegionMap marks, shared zones' cards through
// the card set, state.data values and the phase. Then Score, RenderScores, the JSON output and
// Evaluate and View on the state.
// Checks: no crash, no sanitizer report, no hang; every refusal is a Status.
// Keep the position steps in step with designer/main.cc PositionState when it changes.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/json_io.h"
#include "host/render.h"
#include "host/schema.h"
#include "scripting/lua_rules.h"
#include "tests/fuzz/fuzz_util.h"

namespace plateau::fuzz {
namespace {

using scripting::LuaRules;

const std::vector<std::string> kGames = {"ecosystem", "ecosysteme-savane", "ecosysteme-ocean", "safari", "fauna"};

std::vector<std::unique_ptr<LuaRules>>& Rules() {
  static std::vector<std::unique_ptr<LuaRules>> rules = [] {
    std::vector<std::unique_ptr<LuaRules>> r;
    for (const auto& g : kGames) {
      std::unique_ptr<LuaRules> one;
      Status st = LuaRules::Load(g, GameLimits(), &one);
      if (!st.ok()) SetupFailed(g + " does not load: " + st.message);
      r.push_back(std::move(one));
    }
    return r;
  }();
  return rules;
}

// designer/main.cc PositionState, step for step.
Status PositionState(LuaRules& rules, const Json& board, const std::string& path, State* out) {
  Json params;
  Status st = ResolveParams(rules.info(), Json::object(), &params);
  if (!st.ok()) return st;
  const int players = static_cast<int>(board["players"].size());
  st = rules.NewGame(params, players, 1, out);
  if (!st.ok()) return st;
  for (int i = 0; i < players; ++i)
    if (board["players"][static_cast<size_t>(i)].contains("name"))
      out->seats[static_cast<size_t>(i)].name = board["players"][static_cast<size_t>(i)]["name"];
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
    if (!TileMap::FromJson({{"tiles", board["tiles"]}, {"closing_ends", target->closing_ends()}}, out->tiles, &map, &why))
      return Status::Input(path + ": at /" + why);
    const Json no_pieces = Json::array();
    const Json& pieces = board.contains("pieces") ? board["pieces"] : no_pieces;
    for (size_t i = 0; i < pieces.size(); ++i) {
      const Json& p = pieces[i];
      const int seat = p["player"].get<int>() - 1;
      if (seat >= players) return Status::Input("player out of range");
      const int row = p["cell"][0], col = p["cell"][1];
      if (!map.At(row, col)) return Status::Input("no tile");
      const int seg = map.Segment(row, col, p["segment"].get<int>() - 1);
      if (seg < 0) return Status::Input("no segment");
      map.Occupy(seg, seat, p.value("count", 1));
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
      if (r < 0) return Status::Input("unknown region");
      for (const auto& p : *it) {
        if (p.get<int>() > players) return Status::Input("player out of range");
        target->Mark(r, p.get<int>() - 1);
      }
    }
  }
  if (board.contains("zones"))
    for (auto it = board["zones"].begin(); it != board["zones"].end(); ++it) {
      Zone* z = out->FindZone(it.key(), -1);
      if (!z) return Status::Input("no shared zone");
      z->cards.clear();
      for (size_t i = 0; i < it->size(); ++i) {
        const CardId c = out->cards->Find((*it)[i].get<std::string>());
        if (c == kNoCard) return Status::Input("unknown card");
        z->cards.push_back(c);
      }
    }
  if (board.contains("data"))
    for (auto d = board["data"].begin(); d != board["data"].end(); ++d) out->data[d.key()] = *d;
  if (board.contains("phase")) out->flow.phase = board["phase"];
  out->Touch();
  return Status::Ok();
}

void ScoreAndLook(LuaRules& rules, const State& state) {
  ScoreTable scores;
  if (rules.Score(state, &scores).ok()) {
    (void)RenderScores(scores);
    nlohmann::ordered_json out;
    for (const auto& line : scores.lines) out["players"].push_back({{"name", line.name}, {"total", line.total}});
    if (!scores.extra.empty()) out["extra"] = nlohmann::ordered_json::parse(scores.extra.dump());
    (void)out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  }
  double v = 0;
  (void)rules.Evaluate(state, 0, &v);
  (void)rules.View(state, -1);
}

void Run(const uint8_t* data, size_t size) {
  auto& all = Rules();
  if (size == 0) return;
  const std::string path = "board.json";
  Json board;
  std::string error;
  if (!ParseJsonLimited(std::string(reinterpret_cast<const char*>(data), size), path, &board, &error)) return;
  size_t which = data[0] % all.size();
  if (board.is_object() && board.contains("game") && board["game"].is_string())
    for (size_t i = 0; i < kGames.size(); ++i)
      if (board["game"] == kGames[i]) which = i;
  LuaRules& rules = *all[which];
  const bool position = rules.files().tiles != nullptr || rules.files().regions != nullptr;
  std::vector<std::string> errors;
  if (!Schemas(&error).Validate(position ? "position" : "board", board, path, &errors)) return;
  if (board.contains("game") && board["game"] != rules.info().id) return;
  const int board_players = static_cast<int>(board["players"].size());
  if (board_players < rules.info().min_players || board_players > rules.info().max_players) return;
  std::vector<std::string> names;
  std::vector<std::vector<std::vector<std::string>>> grids;
  for (size_t i = 0; i < board["players"].size(); ++i) {
    const Json& p = board["players"][i];
    names.push_back(p.value("name", "P" + std::to_string(i + 1)));
    if (!position) grids.push_back(p["grid"].get<std::vector<std::vector<std::string>>>());
  }
  if (position) {
    State state;
    if (PositionState(rules, board, path, &state).ok()) ScoreAndLook(rules, state);
    return;
  }
  for (bool full : {true, false}) {
    State state;
    if (rules.BoardState(names, grids, board.value("neutral", Json::object()), &state, Json::object(), full).ok())
      ScoreAndLook(rules, state);
  }
}

}  // namespace
}  // namespace plateau::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  plateau::fuzz::Run(data, size);
  return 0;
}
