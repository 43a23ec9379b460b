// plateau lint (see lint.h): finds a game's Lua files, runs luacheck on them with the generated
// globals of scripting/api/luacheckrc (from the Lua API spec), and names each finding the way
// the rest of plateau names a script's line: games/<id>/<file>.lua:<line>.
#include "designer/lint.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "designer/cli_common.h"
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

// Runs argv in `dir`, with stdout and stderr captured together in *output; returns the exit
// status, -1 when it could not run, -2 when it ran past `timeout_s` (it is killed then: a
// pathological file must not hang validate).
int Run(const std::vector<std::string>& argv, const std::string& dir, int timeout_s, std::string* output) {
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
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool timed_out = false;
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    const int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output->append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) return -2;
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

Status LintGame(const std::string& luacheck, const std::string& game, std::vector<std::string>* findings, int* files,
                int timeout_s) {
  const std::string folder = ResolveGameFolder(game);
  if (folder.empty()) return Status::Input(UnknownGameMessage(game));
  const std::string config = PlateauHome() + "/scripting/api/luacheckrc";
  if (!fs::is_regular_file(config))
    return Status::Input(config + " is missing: it holds the API's globals for luacheck (plateau-api-gen --write makes it)");
  // Every .lua file of the folder (a base's template included), hidden folders left out.
  std::vector<std::string> rules_files, test_files;
  const std::string display = GameFolderDisplay(folder);
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || it->path().extension() != ".lua") continue;
    const fs::path rel = it->path().lexically_relative(folder);  // the link itself, not its target
    // What the loader would not read is not handed to luacheck either: a link out of the
    // folder, a file over the scripts' size limit. Named, so nothing goes unchecked silently.
    std::string why;
    if (!ResolvesInside(folder, it->path().string(), display + "/" + rel.string(), &why)) {
      findings->push_back(display + "/" + rel.string() + ": not linted: a link out of the game's folder");
      continue;
    }
    if (it->file_size(ec) > kMaxLintBytes) {
      findings->push_back(display + "/" + rel.string() + ": not linted: over " + std::to_string(kMaxLintBytes >> 20) +
                          " MiB, the scripts' size limit");
      continue;
    }
    (IsTestFile(rel) ? test_files : rules_files).push_back(rel.string());
  }
  if (ec) return Status::Input(folder + ": " + ec.message());
  std::sort(rules_files.begin(), rules_files.end());
  std::sort(test_files.begin(), test_files.end());
  *files = static_cast<int>(rules_files.size() + test_files.size());
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
    const int rc = Run(argv, folder, timeout_s, &output);
    if (rc == -2)
      return Status::Input("luacheck ran past " + std::to_string(timeout_s) + " s on " + display + " and was stopped");
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
