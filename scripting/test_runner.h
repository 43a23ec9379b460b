// Scenario tests written by designers: games/<id>/tests/*.lua run in their own sandboxed
// VM with a small assertion API (test, expect_eq, expect_score, expect_illegal, new_game,
// board, forced dice and deck order...) and drive the game through its LuaRules. A failure
// names the test file and line, with the expected and actual values.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "scripting/lua_rules.h"

namespace plateau::scripting {

struct TestResult {
  std::string file;     // games/<id>/tests/x.lua
  std::string name;     // the test's name
  bool passed = false;
  std::string message;  // failure: "games/<id>/tests/x.lua:12: expected 86, got 84"
  bool skipped = false;  // not run to its end: a hook it needed had run past the backstop
};

// Runs every test of one scenario file against `rules`. Returns a non-ok Status only when
// the file itself cannot run (syntax error, missing file); failing tests are in *results.
// `inspect`, when set, is called with the test VM once its API is installed, before the file
// runs: the API census test walks the globals and game methods a test file sees.
Status RunScenarioFile(LuaRules& rules, const std::string& path, std::vector<TestResult>* results,
                       const std::function<void(Runtime&)>& inspect = {});

// The scenario files of a game folder, sorted.
std::vector<std::string> ScenarioFiles(const std::string& game_folder);

}  // namespace plateau::scripting
