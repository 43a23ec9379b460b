// fuzz_save: saved games, read the way `plateau play --load`, `watch --load` and `replay` read
// them (designer/cli/cli_common.cc LoadRulesAndSave), then played on.
//
// Feeds: the input as a save file (State::ToJson output plus "engine" and "rules", as
// `plateau play --save` writes it). Its "game" field picks one of the games loaded once at
// start-up (Écosystème Savane: a draft; Chenilles: zones, counters, tracks; Safari: a tile map;
// Fauna: a region map and scales; api-examples: questions, simultaneous moves); without a known
// "game", the first byte picks.
// Runs: ParseJsonLimited (as ReadJsonFile does), the save's data overrides
// (DataOverridesFromJson, ApplyDataOverrides on a copy of the game's files), the "game" check,
// State::FromJson with the game's card, tile and region sets; for a save that loads: ToJson and
// FromJson again, then CheckSave (host/replay.h; rebuilding it from seed and moves when its
// rules fingerprint is the game's), and for a save that passes, what `play --load` does next:
// up to 6 moves (ToMove, LegalMoves, the random bot, Apply), Score and RenderScores, Evaluate,
// View for everyone and for seat 1; and, for a log of at most 40 entries, what `replay` does:
// MovesOfLog and Replay from the seed.
// Checks (Finding() aborts): a save that loads saves again to the same hash and loads back;
// otherwise no crash, no sanitizer report, no hang, and every refusal is a Status.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/bots.h"
#include "host/json_io.h"
#include "host/render.h"
#include "host/replay.h"
#include "scripting/lua_rules.h"
#include "tests/fuzz/fuzz_util.h"

namespace plateau::fuzz {
namespace {

using scripting::LuaRules;

const std::vector<std::string> kGames = {"ecosysteme-savane", "chenilles", "safari", "fauna",
                                         "tests/data/games/api-examples"};

std::vector<std::unique_ptr<LuaRules>>& Rules() {
  static std::vector<std::unique_ptr<LuaRules>> rules = [] {
    std::vector<std::unique_ptr<LuaRules>> r;
    for (const auto& g : kGames) {
      std::unique_ptr<LuaRules> one;
      const std::string where = g.find('/') == std::string::npos ? g : PlateauHome() + "/" + g;
      Status st = LuaRules::Load(where, GameLimits(), &one);
      if (!st.ok()) SetupFailed(g + " does not load: " + st.message);
      r.push_back(std::move(one));
    }
    return r;
  }();
  return rules;
}

void Run(const uint8_t* data, size_t size) {
  auto& all = Rules();
  if (size == 0) return;
  const std::string path = "save.json";
  Json j;
  std::string error;
  if (!ParseJsonLimited(std::string(reinterpret_cast<const char*>(data), size), path, &j, &error)) return;
  size_t which = data[0] % all.size();
  if (j.is_object() && j.contains("game") && j["game"].is_string())
    for (size_t i = 0; i < all.size(); ++i)
      if (j["game"] == all[i]->info().id) which = i;
  LuaRules& rules = *all[which];

  std::vector<DataOverride> saved;
  if (j.is_object() && j.contains("data_overrides") && !DataOverridesFromJson(j["data_overrides"], &saved, &error)) return;
  if (!saved.empty()) {
    GameFiles files = rules.files();
    (void)ApplyDataOverrides(saved, &files);
  }
  if (j.is_object() && j.contains("game") && j["game"].is_string() && j["game"] != rules.info().id) return;

  State state;
  if (!State::FromJson(j, rules.files().cards, &state, &error, rules.files().tiles, rules.files().regions)) return;
  if (state.game_id != rules.info().id) return;
  {
    const Json again = state.ToJson();
    (void)DumpJson(again);
    State back;
    if (!State::FromJson(again, rules.files().cards, &back, &error, rules.files().tiles, rules.files().regions))
      Finding("a loaded save does not load again after ToJson: " + error);
    if (back.Hash() != state.Hash()) Finding("a loaded save saved and loaded again changed its hash");
  }

  // The save checked in full, rebuilt from its seed and moves when these very rules played it
  // without a reload (LoadRulesAndSave); only a save that passes is played on.
  const Json& saved_by = j.contains("rules") && j["rules"].is_object() && j["rules"].contains("fingerprint")
                             ? j["rules"]["fingerprint"]
                             : Json();
  bool reloaded = false;
  for (const auto& e : state.log) reloaded = reloaded || e.kind == "reload";
  const bool rebuild = saved_by.is_string() && saved_by == rules.fingerprint() && !reloaded;
  if (!CheckSave(rules, state, rebuild).ok()) return;

  // What `play --load` does with it.
  State played = state;
  std::unique_ptr<Bot> bot = MakeBot("random", 3, &error);
  for (int i = 0; i < 6; ++i) {
    std::vector<int> seats;
    if (!rules.ToMove(played, &seats).ok() || seats.empty()) break;
    std::vector<Move> legal;
    if (!rules.LegalMoves(played, seats.front(), &legal).ok() || legal.empty()) break;
    Move m;
    if (!bot->ChooseIn(rules, &played, seats.front(), &m).ok()) break;
    if (!rules.Apply(&played, seats.front(), m).ok()) break;
  }
  ScoreTable scores;
  if (rules.Score(played, &scores).ok()) (void)RenderScores(scores);
  double v = 0;
  (void)rules.Evaluate(played, 0, &v);
  (void)rules.View(played, -1);
  (void)rules.View(played, 0);

  // What `replay` does with it.
  if (state.log.size() <= 40) {
    std::vector<LoggedMove> moves;
    State replayed;
    if (MovesOfLog(state, &moves).ok()) (void)Replay(rules, state, moves, &replayed);
  }
}

}  // namespace
}  // namespace plateau::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  plateau::fuzz::Run(data, size);
  return 0;
}
