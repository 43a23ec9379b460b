// fuzz_data: a game's data files and `--set <data>.<path>=value` overrides, read by the host.
//
// Feeds: "#<target>\n<document>". <target> is a data file of a game copied into the scratch
// folder ("safari/tiles", "fauna/animals", "api-maps/regions"...: kTargets below) and the
// document replaces that file; or "overrides/<game>", and the document is a list of data
// overrides as a save keeps them ([{"path": "<data>.<path>", "value": ...}]). Without a known
// header line, the first byte picks the target and the whole input is the document.
// Runs: LoadGameFiles (ReadJsonFile under the JSON limits, the file's schema, duplicate card ids,
// the card set, TileSet/RegionSet/ScaleSet building, the manifest's "refs" checks),
// RulesFingerprint; for data that loads, LuaRules::Load (the data frozen into ctx.data and the
// game's real rules.lua reading it), NewGame and up to 12 random moves, and Score. For overrides:
// DataOverridesFromJson, ApplyDataOverrides (paths, ids, indices, schema validation again) on the
// game's files loaded once, DataOverridesText and DataOverridesToJson.
// Checks: no crash, no sanitizer report, no hang; every refusal is a Status; overrides that
// apply survive DataOverridesToJson/DataOverridesFromJson unchanged.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/bots.h"
#include "host/json_io.h"
#include "host/loader.h"
#include "scripting/lua_rules.h"
#include "tests/fuzz/fuzz_util.h"

namespace plateau::fuzz {
namespace {

struct Target {
  std::string name;   // "<game>/<data name>" or "overrides/<game>"
  std::string game;   // folder under the scratch folder
  std::string file;   // relative to the game folder ("" for overrides)
};

// Games copied from the tree: (folder name, path under the Plateau home).
const std::vector<std::pair<std::string, std::string>> kGames = {
    {"ecosystem", "games/ecosystem"},       {"ecosysteme-savane", "games/ecosysteme-savane"},
    {"chenilles", "games/chenilles"},       {"safari", "games/safari"},
    {"fauna", "games/fauna"},               {"api-maps", "tests/data/games/api-maps"},
    {"api-examples", "tests/data/games/api-examples"}};

const std::vector<Target>& Targets() {
  static const std::vector<Target> targets = [] {
    std::vector<Target> t;
    for (const auto& [game, home] : kGames) {
      GameFiles files;
      Status st = LoadGameFiles(PlateauHome() + "/" + home, &files);
      if (!st.ok()) SetupFailed(home + " does not load: " + st.message);
      for (const auto& [name, display] : files.data_files) {
        // display is "games/<folder>/<file>"; the file is what follows the folder.
        const std::string prefix = "games/" + std::string(std::filesystem::path(home).filename()) + "/";
        if (display.rfind(prefix, 0) != 0) continue;  // a base game's file
        t.push_back({game + "/" + name, game, display.substr(prefix.size())});
      }
    }
    for (const auto& [game, home] : kGames) t.push_back({"overrides/" + game, game, ""});
    return t;
  }();
  return targets;
}

std::vector<std::string> TargetNames() {
  std::vector<std::string> names;
  for (const auto& t : Targets()) names.push_back(t.name);
  return names;
}

struct Scratch {
  std::map<std::string, std::string> folder;             // game -> folder in the scratch folder
  std::map<std::string, std::string> original;           // path -> contents
  std::map<std::string, std::shared_ptr<const GameFiles>> files;  // game -> its files, loaded once
};

const Scratch& Setup() {
  static const Scratch s = [] {
    Scratch s;
    for (const auto& [game, home] : kGames) {
      const std::string to = TempDir() + "/data/" + game;
      CopyFromHome(home, to);
      s.folder[game] = to;
      auto files = std::make_shared<GameFiles>();
      if (!LoadGameFiles(to, files.get()).ok()) SetupFailed("the copy of " + home + " does not load");
      s.files[game] = files;
    }
    for (const auto& t : Targets())
      if (!t.file.empty()) s.original[s.folder.at(t.game) + "/" + t.file] = ReadFile(s.folder.at(t.game) + "/" + t.file);
    return s;
  }();
  return s;
}

void PlaySome(const std::string& folder) {
  std::unique_ptr<scripting::LuaRules> rules;
  if (!scripting::LuaRules::Load(folder, GameLimits(), &rules).ok()) return;
  Json params;
  if (!ResolveParams(rules->info(), Json::object(), &params).ok()) return;
  State state;
  if (!rules->NewGame(params, std::max(2, rules->info().min_players), 1, &state).ok()) return;
  std::string error;
  std::unique_ptr<Bot> bot = MakeBot("random", 1, &error);
  for (int i = 0; i < 12; ++i) {
    std::vector<int> seats;
    if (!rules->ToMove(state, &seats).ok() || seats.empty()) break;
    Move m;
    if (!bot->ChooseIn(*rules, &state, seats.front(), &m).ok()) break;
    if (!rules->Apply(&state, seats.front(), m).ok()) break;
  }
  ScoreTable table;
  (void)rules->Score(state, &table);
}

void RunOverrides(const GameFiles& base, std::string_view doc) {
  Json j;
  std::string error;
  if (!ParseJsonLimited(std::string(doc), "save.json", &j, &error)) return;
  std::vector<DataOverride> sets;
  if (!DataOverridesFromJson(j, &sets, &error)) return;
  (void)DataOverridesText(sets);
  GameFiles files = base;
  if (!ApplyDataOverrides(sets, &files).ok()) return;
  (void)RulesFingerprint(files);
  std::vector<DataOverride> back;
  if (!DataOverridesFromJson(DataOverridesToJson(sets), &back, &error) && !sets.empty())
    Finding("overrides that applied do not read back: " + error);
  if (!sets.empty() && back != sets) Finding("overrides changed through DataOverridesToJson/FromJson");
}

void Run(const uint8_t* data, size_t size) {
  const Scratch& s = Setup();
  const auto& targets = Targets();
  static const std::vector<std::string> names = TargetNames();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t index = 0;
  std::string_view doc;
  if (!SplitTarget(input, names, &index, &doc)) {
    if (size == 0) return;
    index = data[0] % targets.size();
    doc = input;
  }
  const Target& t = targets[index];
  const std::string& folder = s.folder.at(t.game);
  if (t.file.empty()) {
    RunOverrides(*s.files.at(t.game), doc);
    return;
  }
  const std::string path = folder + "/" + t.file;
  WriteFile(path, doc);
  GameFiles files;
  if (LoadGameFiles(folder, &files).ok()) {
    (void)RulesFingerprint(files);
    PlaySome(folder);
  }
  WriteFile(path, s.original.at(path));  // the next input finds the game as shipped
}

}  // namespace
}  // namespace plateau::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  plateau::fuzz::Run(data, size);
  return 0;
}
