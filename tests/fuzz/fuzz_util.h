// What the libFuzzer harnesses of tests/fuzz share: a scratch folder made once per process for
// the files a harness writes, file helpers, the small script limits every harness runs under,
// the input's optional "#target" header line, and Finding() for a broken promise of the host
// (a property check that failed), which aborts so libFuzzer reports and saves the input.
//
// Harness rules (tests/fuzz/README.md): deterministic for a given input, nothing kept from one
// input to the next except what is loaded once at start-up, and a clean error Status is a pass:
// only crashes, sanitizer reports, timeouts and Finding() are findings.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "host/home.h"
#include "scripting/runtime.h"

namespace plateau::fuzz {

// A property the host promises was broken: print it and abort (libFuzzer saves the input).
[[noreturn]] inline void Finding(const std::string& what) {
  std::fprintf(stderr, "\n== plateau fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Known findings (tests/fuzz/findings/README.md) that a harness's property checks skip so that
// CI stays useful while they are open; PLATEAU_FUZZ_STRICT=1 checks them too (to reproduce one,
// or to see whether it is fixed).
inline bool Strict() {
  static const bool strict = [] {
    const char* v = std::getenv("PLATEAU_FUZZ_STRICT");
    return v && *v && *v != '0';
  }();
  return strict;
}

// The harness itself cannot start (a shipped game does not load...): not a finding in the
// input, but it must fail loudly.
[[noreturn]] inline void SetupFailed(const std::string& what) {
  std::fprintf(stderr, "\n== plateau fuzz harness set-up failed: %s\n", what.c_str());
  std::fflush(stderr);
  std::_Exit(3);
}

// A folder under $TMPDIR (or /tmp), made on first use and removed when the process exits
// normally. Each process has its own, so parallel fuzzing jobs never share files.
inline const std::string& TempDir() {
  static const std::string dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/plateau-fuzz-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) SetupFailed("cannot create a folder from " + tmpl);
    std::string made(buf.data());
    static std::string to_remove;
    to_remove = made;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(to_remove, ec);
    });
    return made;
  }();
  return dir;
}

inline void WriteFile(const std::string& path, std::string_view data) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!f) SetupFailed("cannot write " + path);
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) SetupFailed("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Copies a file or a folder (recursively) from the Plateau tree (games/, tests/data/) into the
// scratch folder, replacing what is there.
inline void CopyFromHome(const std::string& relative, const std::string& to) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(to).parent_path(), ec);
  std::filesystem::copy(PlateauHome() + "/" + relative, to,
                        std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) SetupFailed("cannot copy " + PlateauHome() + "/" + relative + " to " + to + ": " + ec.message());
}

// Script limits for fuzzing: small budgets so that a looping script ends in milliseconds, not
// seconds (libFuzzer's -timeout then flags only what the budget does not see).
inline scripting::Limits FuzzLimits() {
  scripting::Limits l;
  l.call_instructions = 2'000'000;
  l.load_instructions = 5'000'000;
  l.memory_bytes = 32u << 20;
  l.wall_backstop_ms = 2'000;
  return l;
}

// Limits for the shipped games' own rules (fuzz_board, fuzz_data, fuzz_save): their hooks need
// the normal budget on states they can reach; the wall-clock backstop is shorter.
inline scripting::Limits GameLimits() {
  scripting::Limits l;
  l.wall_backstop_ms = 2'000;
  return l;
}

// An input may start with a header line "#<target>\n" naming what it is for (a data file, a
// game). Returns true and splits it off when the first line is "#" + one of `targets`.
inline bool SplitTarget(std::string_view input, const std::vector<std::string>& targets, size_t* target,
                        std::string_view* rest) {
  if (input.empty() || input[0] != '#') return false;
  const size_t nl = input.find('\n');
  if (nl == std::string_view::npos) return false;
  const std::string_view name = input.substr(1, nl - 1);
  for (size_t i = 0; i < targets.size(); ++i)
    if (name == targets[i]) {
      *target = i;
      *rest = input.substr(nl + 1);
      return true;
    }
  return false;
}

}  // namespace plateau::fuzz
