// fuzz_manifest: a game folder's manifest (game.json), read by the host loader.
//
// Feeds: the input as the game.json of a folder in the scratch folder that also holds a valid
// rules.lua and the data files of the shipped games (data/cards.json from Ecosystem; tiles,
// safari, regions, scales, animals, fauna and chenilles data), so that a manifest naming them
// loads them. "extends" may name a shipped game (the base resolves under games/) or a path.
// Runs: LoadGameFiles (host/loader.h: ReadJsonFile under the JSON limits, validation against
// schemas/game.schema.json and each data file's schema, parameters and their defaults through
// ResolveParams, bot options, score bounds, "extends" chains and cycles, the card set, tile,
// region and scale sets, data "refs"), RulesFingerprint, then for a manifest that loads:
// LuaRules::Load (parameters pushed into ctx.params, the rules script named by "rules") and
// NewGame with the smallest and the largest player count the manifest allows (capped at 16).
// Checks: no crash, no sanitizer report, no hang; every refusal is a Status.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "host/loader.h"
#include "scripting/lua_rules.h"
#include "tests/fuzz/fuzz_util.h"

namespace plateau::fuzz {
namespace {

const char* kRules = R"(-- fuzz_manifest: any manifest's rules script
local game = {api_version = 1, moves = {}}
function game.to_move(ctx, state) return {} end
function game.legal_moves(ctx, state, seat) return {} end
function game.score(ctx, state)
  local t = {}
  for i = 1, state.seat_count do t[i] = {total = 0, breakdown = {}} end
  return t
end
return game
)";

const std::string& Folder() {
  static const std::string folder = [] {
    const std::string f = TempDir() + "/manifest";
    WriteFile(f + "/rules.lua", kRules);
    CopyFromHome("games/ecosystem/data/cards.json", f + "/data/cards.json");
    for (const char* file : {"safari/data/tiles.json", "safari/data/safari.json", "fauna/data/regions.json",
                             "fauna/data/scales.json", "fauna/data/animals.json", "fauna/data/fauna.json",
                             "chenilles/data/chenilles.json"}) {
      const std::string name = std::string(file).substr(std::string(file).rfind('/') + 1);
      CopyFromHome(std::string("games/") + file, f + "/data/" + name);
    }
    return f;
  }();
  return folder;
}

void Run(const uint8_t* data, size_t size) {
  const std::string& folder = Folder();
  WriteFile(folder + "/game.json", std::string_view(reinterpret_cast<const char*>(data), size));
  GameFiles files;
  if (!LoadGameFiles(folder, &files).ok()) return;
  (void)RulesFingerprint(files);
  std::unique_ptr<scripting::LuaRules> rules;
  if (!scripting::LuaRules::Load(folder, FuzzLimits(), &rules).ok()) return;
  Json params;
  if (!ResolveParams(rules->info(), Json::object(), &params).ok()) return;
  for (int players : {rules->info().min_players, std::min(rules->info().max_players, 16)}) {
    State state;
    if (rules->NewGame(params, players, 1, &state).ok()) {
      ScoreTable table;
      (void)rules->Score(state, &table);
    }
  }
}

}  // namespace
}  // namespace plateau::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  plateau::fuzz::Run(data, size);
  return 0;
}
