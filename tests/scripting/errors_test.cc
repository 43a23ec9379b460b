// Error messages of the runtime: "games/<id>/<file>.lua:<line>: message", tracebacks, and the hook named in budget and memory errors.
#include <gtest/gtest.h>

#include <lua.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "host/rng.h"
#include "scripting/runtime.h"
#include "test_util.h"

namespace plateau::scripting {
namespace {

using testing::RunChunk;

TEST(ScriptErrors, RuntimeErrorOnLine3NamesChunkAndLine) {
  Runtime rt;
  Status st = RunChunk(rt, "local a = 1\nlocal b = 2\nerror('boom')\n");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/test/x.lua:3: boom");
}

TEST(ScriptErrors, ArithmeticOnNilOnLine3NamesChunkLineAndVariable) {
  Runtime rt;
  Status st = RunChunk(rt, "local a = 1\nlocal b\nlocal c = a + b\n");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/test/x.lua:3: attempt to perform arithmetic on a nil value (local 'b')");
}

TEST(ScriptErrors, ErrorInNestedFunctionReportsItsOwnLine) {
  Runtime rt;
  Status st = RunChunk(rt, "local function f()\n  local t = nil\n  return t.x\nend\nf()\n");
  EXPECT_EQ(st.message, "games/test/x.lua:3: attempt to index a nil value (local 't')");
}

TEST(ScriptErrors, ErrorLevel2ReportsTheCallersLine) {
  Runtime rt;
  Status st = RunChunk(rt, "local function check(x)\n  if not x then error('x is required', 2) end\nend\n\ncheck(nil)\n");
  EXPECT_EQ(st.message, "games/test/x.lua:5: x is required");
}

TEST(ScriptErrors, ErrorLevel0HasNoPosition) {
  Runtime rt;
  Status st = RunChunk(rt, "error('plain', 0)");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "plain");
}

TEST(ScriptErrors, AssertFailureNamesLine) {
  Runtime rt;
  Status st = RunChunk(rt, "\nassert(1 == 2, 'one is not two')\n");
  EXPECT_EQ(st.message, "games/test/x.lua:2: one is not two");
  st = RunChunk(rt, "\nassert(false)\n");
  EXPECT_EQ(st.message, "games/test/x.lua:2: assertion failed!");
  EXPECT_NE(st.traceback.find("games/test/x.lua:2"), std::string::npos) << st.traceback;
}

TEST(ScriptErrors, SyntaxErrorNamesFileAndLine) {
  Runtime rt;
  Status st = rt.Compile("local a = 1\nlocal b = = 2\n", testing::kChunk);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/test/x.lua:2: unexpected symbol near '='");
  EXPECT_EQ(lua_gettop(rt.L()), 0);
}

TEST(ScriptErrors, UnclosedBlockNamesFileAndEndOfFile) {
  Runtime rt;
  Status st = rt.Compile("if true then\n  local x = 1\n", testing::kChunk);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message.rfind("games/test/x.lua:", 0), 0u) << st.message;
  EXPECT_NE(st.message.find("'end' expected"), std::string::npos) << st.message;
}

TEST(ScriptErrors, GotoUndefinedLabelIsACompileError) {
  Runtime rt;
  Status st = rt.Compile("\n\ngoto nowhere\n", testing::kChunk);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message.rfind("games/test/x.lua:", 0), 0u) << st.message;
  EXPECT_NE(st.message.find("no visible label 'nowhere'"), std::string::npos) << st.message;
}

TEST(ScriptErrors, HostBindingErrorReportsLuaCallersLine) {
  Runtime rt;
  Rng rng(1);
  rt.set_rng(&rng);
  Status st = RunChunk(rt, "local a = 1\n\nlocal x = math.random(6, 1)\n");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/test/x.lua:3: bad argument #2 to 'random' (interval is empty)");
}

TEST(ScriptErrors, SandboxRefusalReportsLuaCallersLine) {
  Runtime rt;
  Status st = RunChunk(rt, "local a = 1\nmath.randomseed(42)\n");
  EXPECT_EQ(st.kind, ErrorKind::kSandbox);
  EXPECT_EQ(st.message.rfind("games/test/x.lua:2: sandbox: ", 0), 0u) << st.message;
}

TEST(ScriptErrors, WrappedStringFunctionArgumentErrorReportsLuaCallersLine) {
  Runtime rt;
  Status st = RunChunk(rt, "local a = 1\n\nlocal s = string.format('%d', 'x')\n");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/test/x.lua:3: bad argument #2 to 'format' (number expected, got string)");
}

TEST(ScriptErrors, WrappedPatternErrorReportsLuaCallersLine) {
  Runtime rt;
  Status st = RunChunk(rt, "local a = 1\nlocal i = ('abc'):find('[a')\n");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/test/x.lua:2: malformed pattern (missing ']')");
}

TEST(ScriptErrors, ReadOnlyLibraryErrorReportsLine) {
  Runtime rt;
  Status st = RunChunk(rt, "\n\n\ntable.insert = nil\n");
  EXPECT_EQ(st.kind, ErrorKind::kSandbox);
  EXPECT_EQ(st.message, "games/test/x.lua:4: sandbox: attempt to modify read-only table (field 'insert')");
}

TEST(ScriptErrors, TracebackIsFilledForScriptErrors) {
  Runtime rt;
  Status st = RunChunk(rt, "local function inner()\n  error('deep')\nend\nlocal function outer() inner() end\nouter()\n");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/test/x.lua:2: deep");
  EXPECT_NE(st.traceback.find("stack traceback"), std::string::npos) << st.traceback;
  EXPECT_NE(st.traceback.find("games/test/x.lua:2"), std::string::npos) << st.traceback;
  EXPECT_NE(st.traceback.find("games/test/x.lua:4"), std::string::npos) << st.traceback;
  EXPECT_NE(st.traceback.find("inner"), std::string::npos) << st.traceback;
}

TEST(ScriptErrors, TracebackOfOneCallDoesNotLeakIntoTheNext) {
  Runtime rt;
  ASSERT_FALSE(RunChunk(rt, "error('first')").ok());
  Status st = RunChunk(rt, "local x = 1 + nil");
  EXPECT_EQ(st.traceback.find("first"), std::string::npos);
  EXPECT_TRUE(RunChunk(rt, "return 1").ok());
}

TEST(ScriptErrors, ContextNamesTheHook) {
  Runtime rt;
  Status st = RunChunk(rt, "error('x')", 0, "legal_moves");
  EXPECT_NE(st.context.find("hook 'legal_moves'"), std::string::npos) << st.context;
  rt.set_context("move 7, seed 3");
  st = RunChunk(rt, "error('x')", 0, "score");
  EXPECT_NE(st.context.find("hook 'score'"), std::string::npos) << st.context;
  EXPECT_NE(st.context.find("move 7, seed 3"), std::string::npos) << st.context;
}

TEST(ScriptErrors, BudgetErrorNamesTheHookAndTheBudget) {
  Limits limits;
  limits.call_instructions = 1'000'000;
  Runtime rt(limits);
  Status st = RunChunk(rt, "while true do end", 0, "moves.place");
  EXPECT_EQ(st.kind, ErrorKind::kBudget);
  EXPECT_EQ(st.message, "games/test/x.lua:1: instruction budget of 1000000 exceeded in hook 'moves.place'");
  EXPECT_TRUE(st.script_failure());
}

TEST(ScriptErrors, MemoryErrorNamesTheHookAndTheCap) {
  Limits limits;
  limits.memory_bytes = 8u << 20;
  Runtime rt(limits);
  Status st = RunChunk(rt, "local t = {} for i = 1, 1e9 do t[i] = {} end", 0, "setup");
  EXPECT_EQ(st.kind, ErrorKind::kMemory);
  EXPECT_EQ(st.message, "memory cap of 8 MiB exceeded in hook 'setup'");
  EXPECT_TRUE(st.script_failure());
}

// A host object with a finalizer, as the host's move lists are (scripts cannot set __gc): 64 KiB.
int NewFinalizable(lua_State* L) {
  lua_newuserdatauv(L, 64 * 1024, 0);
  if (luaL_newmetatable(L, "test.finalizable")) {
    lua_pushcfunction(L, [](lua_State*) { return 0; });
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  return 1;
}

// Garbage that needs a finalizer survives the full collection Lua makes when an allocation
// fails: calls that each leave some (an octopus's relocations at every placement of a bot's
// playouts) must not add up to a memory error while little of the heap is alive. Paced as the
// rules' VM is (lua_rules.cc).
TEST(ScriptErrors, GarbageWithFinalizersLeftByManyCallsNeverReachesTheCap) {
  Limits limits;
  limits.memory_bytes = 8u << 20;
  Runtime rt(limits);
  lua_State* L = rt.L();
  lua_gc(L, LUA_GCINC, 1000, 400, 0);
  rt.PushEnv();  // read-only to scripts: set raw
  lua_pushstring(L, "finalizable");
  lua_pushcfunction(L, NewFinalizable);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  // A live heap as a game's data makes one (1.5 MiB): the collector's next cycle is then due
  // past the cap.
  lua_createtable(L, 20000, 0);
  for (int i = 1; i <= 20000; ++i) {
    lua_createtable(L, 1, 0);
    lua_rawseti(L, -2, i);
  }
  luaL_ref(L, LUA_REGISTRYINDEX);
  lua_gc(L, LUA_GCCOLLECT);
  for (int call = 0; call < 400; ++call) {
    Status st = RunChunk(rt, "for i = 1, 8 do local t = finalizable() end", 0, "on_place");
    ASSERT_TRUE(st.ok()) << "call " << call << ": " << st.message;
  }
  EXPECT_LT(rt.memory_used(), limits.memory_bytes);
}

TEST(ScriptErrors, LoadPhaseUsesTheLoadBudget) {
  Limits limits;
  limits.call_instructions = 100;  // would kill almost anything
  limits.load_instructions = 1'000'000;
  Runtime rt(limits);
  ASSERT_TRUE(rt.Compile("while true do end", testing::kChunk).ok());
  Status st = rt.Call(0, 0, "load rules.lua", /*load_phase=*/true);
  EXPECT_EQ(st.kind, ErrorKind::kBudget);
  EXPECT_EQ(st.message, "games/test/x.lua:1: instruction budget of 1000000 exceeded in hook 'load rules.lua'");
}

TEST(ScriptErrors, ErrorObjectsThatAreNotStringsAreDescribed) {
  Runtime rt;
  EXPECT_EQ(RunChunk(rt, "error({})").message, "(error object is a table value)");
  EXPECT_EQ(RunChunk(rt, "error()").message, "(error object is a nil value)");
  EXPECT_EQ(RunChunk(rt, "error(true)").message, "(error object is a boolean value)");
  EXPECT_EQ(RunChunk(rt, "error(42)").message, "42");
  EXPECT_EQ(RunChunk(rt, "error(setmetatable({}, {__tostring = function() return 'mine' end}))").message, "mine");
}

TEST(ScriptErrors, SandboxKindOnlyForSandboxRefusals) {
  Runtime rt;
  // A script that merely mentions the word in its own message is still a script error.
  Status st = RunChunk(rt, "error('sandbox is a nice word', 0)");
  EXPECT_EQ(st.kind, ErrorKind::kScript) << "message: " << st.message;
}

}  // namespace
}  // namespace plateau::scripting

namespace plateau::scripting {
namespace {

// The error kind comes from who raised the error, not from its text.
TEST(ErrorKinds, AScriptCannotPassItsOwnErrorOffAsASandboxViolation) {
  Runtime rt;
  Status st = rt.Compile("error('sandbox: not really')", "games/test/fake.lua");
  ASSERT_TRUE(st.ok()) << st.message;
  st = rt.Call(0, 0, "fake");
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.message;
  st = rt.Compile("setmetatable({}, { __gc = function() end })", "games/test/real.lua");
  ASSERT_TRUE(st.ok()) << st.message;
  st = rt.Call(0, 0, "real");
  EXPECT_EQ(st.kind, ErrorKind::kSandbox) << st.message;
  EXPECT_NE(st.message.find("games/test/real.lua:1:"), std::string::npos) << st.message;
}

// Runtime::TableEntryLine (ctx.entry_line): a score sheet's entry named at its own line. The
// scan skips strings, long strings and comments, counts only positional entries, and says
// nothing (0) rather than guess: a list not written in the call, a file outside the roots.
class EntryLine : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/plateau-entry-line-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    rt_.set_source_roots({{dir_, "games/v"}});
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& text) { std::ofstream(dir_ + "/rules.lua") << text; }
  std::string dir_;
  Runtime rt_;
};

TEST_F(EntryLine, NamesEachPositionalEntrysFirstLine) {
  Write("local x = 1\n"
        "SHEET = scoring.sheet(ctx, {   -- a comment { with } brackets\n"
        "  { score = 'a', query = { 'count', 'a' } },\n"
        "  -- { score = 'commented', query = {} },\n"
        "  { score = \"b}\", per = 2,\n"
        "    query = { 'pairs', 'b', 'c' } },\n"
        "  --[[ a long\n comment { ]]\n"
        "  [[a long string {]], name = 'keyed', [5] = 'keyed too',\n"
        "  { score = 'd' },\n"
        "}, game.categories)\n");
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:2: ", 1), 3);
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:2: ", 2), 5);
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:2: ", 3), 9);   // the long string
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:2: ", 4), 10);  // keyed fields do not count
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:2: ", 5), 0);   // the table closes first
}

TEST_F(EntryLine, ATableCallAndAnIndexBeforeTheCall) {
  Write("t[1] = f{\n  {1},\n  {2} }\nu = g(h(1), {\n  'x',\n  'y' })\n");
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:1: ", 2), 3);
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:4: ", 2), 6);
}

TEST_F(EntryLine, SaysNothingWhereItCannotKnow) {
  Write("local entries = { {1}, {2} }\nSHEET = scoring.sheet(ctx, entries)\n");
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:2: ", 1), 0);             // not written in the call
  EXPECT_EQ(rt_.TableEntryLine("games/v/rules.lua:99: ", 1), 0);            // past the end
  EXPECT_EQ(rt_.TableEntryLine("games/v/other.lua:1: ", 1), 0);             // no such file
  EXPECT_EQ(rt_.TableEntryLine("games/v/../../etc/passwd.lua:1: ", 1), 0);  // outside the folder
  EXPECT_EQ(rt_.TableEntryLine("games/w/rules.lua:1: ", 1), 0);             // another game
  EXPECT_EQ(rt_.TableEntryLine("no position", 1), 0);
}

}  // namespace
}  // namespace plateau::scripting
