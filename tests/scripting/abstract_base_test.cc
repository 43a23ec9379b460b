// Abstract bases: a game folder marked "abstract": true (the shared Écosystème base) lends its
// parameters and Lua modules to the games that extend it, but is refused as a game itself, and
// the scenario tests of a game may require() modules from its base's folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "scripting/lua_rules.h"
#include "scripting/test_runner.h"

namespace plateau::scripting {
namespace {

namespace fs = std::filesystem;

TEST(AbstractBase, IsRefusedAsAGameWithAClearMessage) {
  std::unique_ptr<LuaRules> rules;
  const Status st = LuaRules::Load("ecosysteme", {}, &rules);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("games/ecosysteme/game.json: 'ecosysteme' is an abstract base game"), std::string::npos)
      << st.message;
  EXPECT_EQ(rules, nullptr);
}

TEST(AbstractBase, GamesExtendingItLoadWithTheBaseFolderSearchedSecond) {
  std::unique_ptr<LuaRules> rules;
  const Status st = LuaRules::Load("ecosysteme-savane", {}, &rules);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_EQ(rules->files().roots.size(), 2u);
  EXPECT_EQ(rules->files().roots[1].display, "games/ecosysteme");
}

TEST(AbstractBase, ScenarioTestsRequireModulesFromTheBase) {
  char tmpl[] = "/tmp/plateau-abstract-XXXXXX";
  const fs::path root = mkdtemp(tmpl);
  const fs::path file = root / "require_test.lua";
  {
    std::ofstream out(file);
    out << "local majority = require('ecosysteme.majority')\n"
           "test('a base module answers from a test file', function()\n"
           "  expect_eq(majority.points({ 3, 3, 1 }, 3, { 5, 2 }, 'competition'), { 5, 5, 0 })\n"
           "end)\n";
  }
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load("ecosysteme-savane", {}, &rules).ok());
  std::vector<TestResult> results;
  const Status st = RunScenarioFile(*rules, file.string(), &results);
  fs::remove_all(root);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_EQ(results.size(), 1u);
  EXPECT_TRUE(results[0].passed) << results[0].message;
}

}  // namespace
}  // namespace plateau::scripting
