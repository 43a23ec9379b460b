// Census of the sandbox taken from inside the built VM: what a script can reach.
#include <gtest/gtest.h>

#include <lua.hpp>

#include "scripting/runtime.h"

namespace plateau::scripting {
namespace {

// Runs `code` as a chunk named games/test/census.lua and returns its status.
Status RunChunk(Runtime& rt, const std::string& code) {
  Status st = rt.Compile(code, "games/test/census.lua");
  if (!st.ok()) return st;
  return rt.Call(0, 0, "census");
}

TEST(SandboxCensus, DangerousGlobalsAreAbsent) {
  Runtime rt;
  for (const char* name : {"io", "os", "package", "debug", "dofile", "loadfile", "load", "loadstring", "rawset",
                           "collectgarbage_full", "warn"}) {
    const std::string code = std::string("assert(rawget(_G, '") + name + "') == nil, '" + name + " is reachable')";
    Status st = RunChunk(rt, code);
    EXPECT_TRUE(st.ok()) << name << ": " << st.message;
  }
  EXPECT_TRUE(RunChunk(rt, "assert(string.dump == nil)").ok());
  EXPECT_TRUE(RunChunk(rt, "assert(coroutine.close == nil)").ok());
}

TEST(SandboxCensus, AllowedLibrariesArePresent) {
  Runtime rt;
  Status st = RunChunk(rt, R"(
    assert(type(string.format) == 'function' and type(table.insert) == 'function')
    assert(type(math.floor) == 'function' and type(utf8.char) == 'function')
    assert(type(coroutine.wrap) == 'function' and type(pcall) == 'function')
  )");
  EXPECT_TRUE(st.ok()) << st.message;
}

}  // namespace
}  // namespace plateau::scripting
