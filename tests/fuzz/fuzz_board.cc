// fuzz_board: the boards and positions `plateau score <game> <file>` reads (designer/cli/main.cc,
// CmdScore and LuaRules::PositionState).
//
// Feeds: the input as the board or position file. Its "game" field picks one of the games
// loaded once at start-up (Ecosystem, Écosystème Savane and Océan read boards of card grids,
// schemas/board.schema.json; Safari and Fauna read positions, schemas/position.schema.json);
// without a known "game", the first byte picks.
// Runs what CmdScore runs: ParseJsonLimited (as ReadJsonFile does), schema validation, the
// "game" check, the player count against the game's range, the names and grids; for a board, LuaRules::BoardState with a full frame (the
// CLI) and without (the scenario tests' corners); for a position, LuaRules::PositionState, the
// function the CLI calls (NewGame with the file's players and names, its tiles placed again in
// order, its pieces, region marks, shared zones' cards, state.data values and the phase). Then
// Score, RenderScores, the JSON output and Evaluate and View on the state.
// Checks: no crash, no sanitizer report, no hang; every refusal is a Status.
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
    if (rules.PositionState(board, path, Json::object(), &state).ok()) ScoreAndLook(rules, state);
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
