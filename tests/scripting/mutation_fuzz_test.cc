// Seeded mutation fuzzing of what modders hand the host: game data files and rules scripts
// with bytes flipped, inserted, deleted or duplicated, and numbers blown up. Whatever the
// mutation, loading and playing ends in a status (an error names the file), never a crash or
// a hang. The seeds are fixed, so a failure here replays exactly.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "host/bots.h"
#include "host/loader.h"
#include "host/rng.h"
#include "scripting/lua_rules.h"

namespace plateau::scripting {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One random edit of `text`.
std::string Mutate(std::string text, Rng* rng) {
  if (text.empty()) return "x";
  const size_t at = rng->Below(static_cast<uint32_t>(text.size()));
  switch (rng->Below(7)) {
    case 0: text[at] = static_cast<char>(rng->Below(256)); break;                          // any byte
    case 1: text.insert(at, 1, "{}[]\",:\\0-e9.\n'\"()=<>~#%"[rng->Below(24)]); break;     // syntax
    case 2: text.erase(at, 1 + rng->Below(16)); break;                                     // cut
    case 3: text.insert(at, text.substr(at, 1 + rng->Below(64))); break;                   // repeat
    case 4: text.insert(at, "1e400"); break;                                               // huge number
    case 5: text.insert(at, "\xff\xfe"); break;                                            // not UTF-8
    default: text.insert(at, std::string(1 + rng->Below(40), '[')); break;                 // nesting
  }
  return text;
}

// A copy of a shipped game in a temporary folder named like it (its base still resolves by id).
struct GameCopy {
  explicit GameCopy(const std::string& id) {
    char tmpl[] = "/tmp/plateau_fuzz_XXXXXX";
    root = mkdtemp(tmpl);
    folder = root / id;
    fs::copy(fs::path(PLATEAU_SOURCE_DIR_STR) / "games" / id, folder, fs::copy_options::recursive);
  }
  ~GameCopy() { fs::remove_all(root); }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(folder / name, std::ios::binary | std::ios::trunc) << text;
  }
  fs::path root, folder;
};

TEST(MutationFuzz, MutatedDataFilesLoadOrFailNamingTheFile) {
  GameCopy g("ecosysteme-savane");
  const std::string cards = ReadAll(g.folder / "data" / "cards.json");
  const std::string manifest = ReadAll(g.folder / "game.json");
  Rng rng(20261121);
  int refused = 0;
  for (int i = 0; i < 1000; ++i) {
    const bool data = i % 3 != 0;
    std::string text = data ? cards : manifest;
    const int edits = 1 + static_cast<int>(rng.Below(3));
    for (int e = 0; e < edits; ++e) text = Mutate(text, &rng);
    g.Write(data ? "data/cards.json" : "game.json", text);
    GameFiles files;
    const Status st = LoadGameFiles(g.folder.string(), &files);
    if (!st.ok()) {
      ++refused;
      EXPECT_NE(st.message.find("ecosysteme-savane/"), std::string::npos) << "mutation " << i << ": " << st.message;
    }
    g.Write("data/cards.json", cards);
    g.Write("game.json", manifest);
  }
  EXPECT_GT(refused, 500);  // most mutations break the file; the test proves they are refused cleanly
}

TEST(MutationFuzz, MutatedRulesScriptsLoadAndPlayOrFailWithAStatus) {
  GameCopy g("ecosysteme-savane");
  const std::string rules_lua = ReadAll(g.folder / "rules.lua");
  Rng rng(7);
  Limits vm_limits;
  vm_limits.call_instructions = 2'000'000;
  vm_limits.memory_bytes = 16u << 20;
  int played = 0;
  for (int i = 0; i < 500; ++i) {
    std::string text = rules_lua;
    const int edits = 1 + static_cast<int>(rng.Below(2));
    for (int e = 0; e < edits; ++e) text = Mutate(text, &rng);
    g.Write("rules.lua", text);
    std::unique_ptr<LuaRules> rules;
    Status st = LuaRules::Load(g.folder.string(), vm_limits, &rules);
    if (!st.ok()) {
      EXPECT_NE(st.ToString().find("ecosysteme-savane/"), std::string::npos) << "mutation " << i << ": " << st.ToString();
      continue;
    }
    Json params;
    ResolveParams(rules->info(), Json::object(), &params);
    State state;
    st = rules->NewGame(params, 2, static_cast<uint64_t>(i), &state);
    if (!st.ok()) continue;
    state.record = false;
    std::vector<std::unique_ptr<Bot>> owned;
    std::vector<Bot*> bots;
    std::string error;
    for (int s = 0; s < 2; ++s) {
      owned.push_back(MakeBot("random", static_cast<uint64_t>(s), &error));
      bots.push_back(owned.back().get());
    }
    PlayResult result;
    PlayLimits limits;
    limits.max_moves = 2000;  // a mutation may ask the same question forever
    limits.max_moves_per_round = 500;
    if (PlayOut(*rules, &state, bots, &result, limits).ok()) ++played;
  }
  g.Write("rules.lua", rules_lua);
  EXPECT_GT(played, 0);  // some mutations (comments, strings) leave a playable game
}

}  // namespace
}  // namespace plateau::scripting
