// plateau lint (see lint.h): finds a game's Lua files, runs luacheck on them with the generated
// globals of scripting/api/luacheckrc (from the Lua API spec), and names each finding the way
// the rest of plateau names a script's line: games/<id>/<file>.lua:<line>.
#include "designer/cli/lint.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "designer/cli/cli_common.h"
#include "designer/cli/process.h"
#include "host/files.h"
#include "host/text.h"
#include "host/home.h"
#include "host/json_io.h"

namespace plateau {
namespace {

namespace fs = std::filesystem;

// The loader's limit for a script (scripting/runtime.h, kMaxScriptBytes): 1 MiB.
constexpr uintmax_t kMaxLintBytes = 1u << 20;

// A file the scenario-test globals apply to: under a tests/ folder, or a test helper module that
// scenario files require (chenilles/testing.lua, chenilles/test_numbers.lua).
bool IsTestFile(const fs::path& rel) {
  for (const auto& part : rel.parent_path())
    if (part == "tests") return true;
  return rel.filename().string().rfind("test", 0) == 0;
}

// A luacheck line "<file>:<line>:<col>: <message>", split without a regex (a line is input of
// any length); false when the line is not of that form.
bool SplitFinding(const std::string& line, std::string* file, std::string* ln, std::string* col, std::string* msg) {
  // The file name is the part before the first ":<digits>:<digits>: ".
  for (size_t at = line.find(':'); at != std::string::npos; at = line.find(':', at + 1)) {
    size_t i = at + 1, a = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
    if (i == a || i >= line.size() || line[i] != ':') continue;
    size_t b = ++i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
    if (i == b || i + 1 >= line.size() || line[i] != ':' || line[i + 1] != ' ' || at == 0) continue;
    *file = line.substr(0, at);
    *ln = line.substr(a, b - 1 - a);
    *col = line.substr(b, i - b);
    *msg = line.substr(i + 2);
    return true;
  }
  return false;
}

}  // namespace

std::string FindLuacheck() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (size_t start = 0; start <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/luacheck";
    if (!dir.empty() && access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

Status LintGame(const std::string& luacheck, const std::string& game, std::vector<std::string>* findings, int* files,
                int timeout_s) {
  const std::string folder = ResolveGameFolder(game);
  if (folder.empty()) return Status::Input(UnknownGameMessage(game));
  const std::string config = PlateauHome() + "/scripting/api/luacheckrc";
  if (!fs::is_regular_file(config))
    return Status::Input(config + " is missing: it holds the API's globals for luacheck (plateau-api-gen --write makes it)");
  // Every .lua file of the folder (a base's template included), hidden folders left out,
  // listed as the loader reads the folder (host/files.h).
  std::vector<std::string> rules_files, test_files;
  const std::string display = GameFolderDisplay(folder);
  std::vector<FolderEntry> entries;
  Status listed = ListGameFiles(folder, display, ListOptions{}, &entries);
  if (!listed.ok()) return listed;
  for (const auto& e : entries) {
    if (e.rel.size() < 5 || e.rel.compare(e.rel.size() - 4, 4, ".lua") != 0) continue;
    // What the loader would not read is not handed to luacheck either: a link, a FIFO, a file
    // over the scripts' size limit. Named, so nothing goes unchecked silently.
    if (!e.regular) {
      findings->push_back(display + "/" + e.rel + ": not linted: " + e.refused + " (the loader reads regular files only)");
      continue;
    }
    if (static_cast<uintmax_t>(e.size) > kMaxLintBytes) {
      findings->push_back(display + "/" + e.rel + ": not linted: over " + std::to_string(kMaxLintBytes >> 20) +
                          " MiB, the scripts' size limit");
      continue;
    }
    (IsTestFile(fs::path(e.rel)) ? test_files : rules_files).push_back(e.rel);
  }
  std::sort(rules_files.begin(), rules_files.end());
  std::sort(test_files.begin(), test_files.end());
  *files = static_cast<int>(rules_files.size() + test_files.size());
  // luacheck prints "<file>:<line>:<col>: (W211) message" with the paths it was given, here
  // relative to the game's folder.
  for (const auto* list : {&rules_files, &test_files}) {
    if (list->empty()) continue;
    std::vector<std::string> argv = {luacheck,   "--config",  config,       "--std",
                                     list == &test_files ? "plateau+plateau_tests" : "plateau",
                                     "--formatter", "plain", "--codes", "--no-color", "--no-cache", "--"};
    argv.insert(argv.end(), list->begin(), list->end());
    ProcessOptions po;
    po.cwd = folder;
    po.timeout_s = timeout_s;
    po.merge_stderr = true;
    po.max_output = 16u << 20;
    const ProcessResult run = RunProcess(argv, po);
    const std::string& output = run.out;
    if (run.timed_out)
      return Status::Input("luacheck ran past " + std::to_string(timeout_s) + " s on " + display + " and was stopped");
    // 0: clean, 1: warnings, 2: errors (a syntax error is a finding too); anything else is
    // luacheck itself failing.
    if (!run.started || run.signal || run.exit_code > 2)
      return Status::Input("luacheck failed on " + display + " (" + run.Describe() + "): " + TerminalText(output.substr(0, 2000), true));
    size_t start = 0;
    while (start < output.size()) {
      const size_t end = std::min(output.find('\n', start), output.size());
      const std::string line = output.substr(start, end - start);
      start = end + 1;
      if (line.empty()) continue;
      std::string file, ln, col, msg;
      if (!SplitFinding(line, &file, &ln, &col, &msg))
        return Status::Input("luacheck said something plateau lint does not understand on " + display + ": " +
                             TerminalText(line.substr(0, 300)));
      // The names given were listed from the folder, checked to be text without control bytes.
      findings->push_back(display + "/" + file + ":" + ln + ":" + col + ": " + TerminalText(msg));
    }
  }
  return Status::Ok();
}

int RunLint(const std::vector<std::string>& games_arg) {
  const std::string luacheck = FindLuacheck();
  if (luacheck.empty()) {
    std::fprintf(stderr,
                 "plateau: bad input: luacheck is not installed (plateau lint runs it): apt-get install lua-check\n");
    return 2;
  }
  const std::vector<std::string> games = games_arg.empty() ? ListGames() : games_arg;
  int total = 0;
  for (const std::string& game : games) {
    std::vector<std::string> findings;
    int files = 0;
    Status st = LintGame(luacheck, game, &findings, &files, 300);
    if (!st.ok()) return Fail(st);
    for (const std::string& f : findings) std::printf("%s\n", f.c_str());
    const std::string display = GameFolderDisplay(ResolveGameFolder(game));
    if (findings.empty()) std::printf("%s: clean (%d Lua files)\n", display.c_str(), files);
    else std::printf("%s: %zu finding%s in %d Lua files\n", display.c_str(), findings.size(), findings.size() == 1 ? "" : "s", files);
    total += static_cast<int>(findings.size());
  }
  return total ? 1 : 0;
}

}  // namespace plateau
