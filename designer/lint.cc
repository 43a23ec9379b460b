// plateau lint (see lint.h): finds a game's Lua files, runs luacheck on them with the generated
// globals of scripting/api/luacheckrc (from the Lua API spec), and names each finding the way
// the rest of plateau names a script's line: games/<id>/<file>.lua:<line>.
#include "designer/lint.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "designer/cli_common.h"
#include "host/home.h"

namespace plateau {
namespace {

namespace fs = std::filesystem;

// A file the scenario-test globals apply to: under a tests/ folder, or a test helper module that
// scenario files require (chenilles/testing.lua, chenilles/test_numbers.lua).
bool IsTestFile(const fs::path& rel) {
  for (const auto& part : rel.parent_path())
    if (part == "tests") return true;
  return rel.filename().string().rfind("test", 0) == 0;
}

// Runs argv in `dir`, with stdout and stderr captured together in *output; returns the exit
// status (-1 when it could not run).
int Run(const std::vector<std::string>& argv, const std::string& dir, std::string* output) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {  // only async-signal-safe calls between fork and exec
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    if (chdir(dir.c_str()) != 0) _exit(127);
    execv(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    output->append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

Status LintGame(const std::string& luacheck, const std::string& game, std::vector<std::string>* findings, int* files) {
  const std::string folder = ResolveGameFolder(game);
  if (folder.empty()) return Status::Input(UnknownGameMessage(game));
  const std::string config = PlateauHome() + "/scripting/api/luacheckrc";
  if (!fs::is_regular_file(config))
    return Status::Input(config + " is missing: it holds the API's globals for luacheck (plateau-api-gen --write makes it)");
  // Every .lua file of the folder (a base's template included), hidden folders left out.
  std::vector<std::string> rules_files, test_files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || it->path().extension() != ".lua") continue;
    const fs::path rel = fs::relative(it->path(), folder);
    (IsTestFile(rel) ? test_files : rules_files).push_back(rel.string());
  }
  if (ec) return Status::Input(folder + ": " + ec.message());
  std::sort(rules_files.begin(), rules_files.end());
  std::sort(test_files.begin(), test_files.end());
  *files = static_cast<int>(rules_files.size() + test_files.size());
  const std::string display = GameFolderDisplay(folder);
  // luacheck prints "<file>:<line>:<col>: (W211) message" with the paths it was given, here
  // relative to the game's folder.
  static const std::regex kFinding(R"(^(.+?):(\d+):(\d+): (.*)$)");
  for (const auto* list : {&rules_files, &test_files}) {
    if (list->empty()) continue;
    std::vector<std::string> argv = {luacheck,   "--config",  config,       "--std",
                                     list == &test_files ? "plateau+plateau_tests" : "plateau",
                                     "--formatter", "plain", "--codes", "--no-color", "--no-cache", "--"};
    argv.insert(argv.end(), list->begin(), list->end());
    std::string output;
    const int rc = Run(argv, folder, &output);
    // 0: clean, 1: warnings, 2: errors (a syntax error is a finding too); anything else is
    // luacheck itself failing.
    if (rc < 0 || rc > 2)
      return Status::Input("luacheck failed on " + display + " (exit " + std::to_string(rc) + "): " + output);
    size_t start = 0;
    while (start < output.size()) {
      const size_t end = std::min(output.find('\n', start), output.size());
      const std::string line = output.substr(start, end - start);
      start = end + 1;
      std::smatch m;
      if (line.empty()) continue;
      if (!std::regex_match(line, m, kFinding))
        return Status::Input("luacheck said something plateau lint does not understand on " + display + ": " + line);
      findings->push_back(display + "/" + m[1].str() + ":" + m[2].str() + ":" + m[3].str() + ": " + m[4].str());
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
    Status st = LintGame(luacheck, game, &findings, &files);
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
