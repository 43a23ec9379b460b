// Shared helpers for the scripting tests: run a chunk in a Runtime, read its results.
#pragma once

#include <gtest/gtest.h>

#include <lua.hpp>

#include <chrono>
#include <fstream>
#include <string>

#include "host/game.h"
#include "scripting/runtime.h"

namespace plateau::scripting::testing {

#ifdef PLATEAU_TEST_DATA
// The folder of a test game under tests/data/games.
inline std::string GamePath(const std::string& name) { return std::string(PLATEAU_TEST_DATA) + "/games/" + name; }

// 1-based line of the first line of that game's rules.lua containing `needle` (0: none), for
// expected messages that name the line.
inline int LineOf(const std::string& name, const std::string& needle) {
  std::ifstream in(GamePath(name) + "/rules.lua");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  return 0;
}
#endif

// The chunk name every test uses, so messages read "games/test/x.lua:<line>: ...".
inline constexpr const char* kChunk = "games/test/x.lua";

// Compiles `code` as games/test/x.lua and calls it under hook name `hook`, keeping
// `nresults` results on the stack (the caller pops them).
inline Status RunChunk(Runtime& rt, const std::string& code, int nresults = 0, const std::string& hook = "test") {
  Status st = rt.Compile(code, kChunk);
  if (!st.ok()) return st;
  return rt.Call(0, nresults, hook);
}

// Runs a chunk that returns one string and gives it back ("" on error, with *st set).
inline std::string RunForString(Runtime& rt, const std::string& code, Status* st = nullptr) {
  Status s = RunChunk(rt, code, 1);
  if (st) *st = s;
  if (!s.ok()) return "";
  size_t len = 0;
  const char* text = lua_tolstring(rt.L(), -1, &len);
  std::string out = text ? std::string(text, len) : std::string("<not a string>");
  lua_pop(rt.L(), 1);
  return out;
}

// A chunk any healthy VM runs: it allocates, loops, uses pcall, coroutines and strings.
inline constexpr const char* kHealthyChunk = R"(
  local t = {}
  for i = 1, 100 do t[i] = i * 2 end
  local ok, v = pcall(function() return #t end)
  local co = coroutine.wrap(function(a) coroutine.yield(a + 1) end)
  local s = string.format('%d-%d-%s', v, co(41), ('ab'):rep(2))
  return s
)";
inline constexpr const char* kHealthyResult = "100-42-abab";

// Asserts that `rt` still runs kHealthyChunk correctly.
inline ::testing::AssertionResult RunsHealthyChunk(Runtime& rt) {
  Status st;
  const std::string got = RunForString(rt, kHealthyChunk, &st);
  if (!st.ok()) return ::testing::AssertionFailure() << "healthy chunk failed: " << st.ToString();
  if (got != kHealthyResult) return ::testing::AssertionFailure() << "healthy chunk returned '" << got << "'";
  if (lua_gettop(rt.L()) != 0) return ::testing::AssertionFailure() << "stack not empty: " << lua_gettop(rt.L());
  return ::testing::AssertionSuccess();
}

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace plateau::scripting::testing
