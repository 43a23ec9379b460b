// Hostile-script catalogue (reliability.md G1, G3, G4): every case ends in a classified error, never a crash or hang, and the VM stays usable.
#include <gtest/gtest.h>

#include <lua.hpp>

#include <chrono>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "scripting/runtime.h"
#include "test_util.h"

namespace plateau::scripting {
namespace {

using testing::RunChunk;
using testing::RunsHealthyChunk;
using testing::SecondsSince;

struct HostileCase {
  const char* name;
  const char* code;
  ErrorKind expected;
  const char* message_part = "";                 // expected substring of the message ("" = any)
  std::function<void(Limits&)> tweak = nullptr;  // per-case limits
};

// gtest prints the case's name, not its bytes.
void PrintTo(const HostileCase& c, std::ostream* os) { *os << c.name; }

// Small limits so that every bomb ends quickly: 2 M instructions, 8 MiB.
Limits CatalogueLimits() {
  Limits l;
  l.call_instructions = 2'000'000;
  l.memory_bytes = 8u << 20;
  return l;
}

const char kLoop[] = "while true do end";

std::vector<HostileCase> Catalogue() {
  return {
      // ---- CPU: plain infinite loops --------------------------------------------------
      {"WhileTrue", "while true do end", ErrorKind::kBudget},
      {"NumericForToMaxinteger", "local s = 0 for i = 1, math.maxinteger do s = s + i end", ErrorKind::kBudget},
      {"RepeatUntilFalse", "local x = 0 repeat x = x + 1 until false", ErrorKind::kBudget},
      {"GotoLoop", "local n = 0 ::top:: n = n + 1 goto top", ErrorKind::kBudget},
      {"InfiniteTailRecursion", "local function f(n) return f(n + 1) end f(1)", ErrorKind::kBudget},
      {"InfiniteMutualTailRecursion",
       "local a local function b(n) return a(n) end a = function(n) return b(n + 1) end a(0)", ErrorKind::kBudget},
      {"GenericForEndlessIterator", "for _ in function() return 1 end do end", ErrorKind::kBudget},
      {"LoopInGsubCallback", "local s = ('x'):gsub('x', function() while true do end end)", ErrorKind::kBudget},
      {"LoopInSortComparator", "table.sort({3, 2, 1}, function(a, b) while true do end end)", ErrorKind::kBudget},
      {"LoopInIndexMetamethod",
       "local t = setmetatable({}, {__index = function() while true do end end}) local v = t.x", ErrorKind::kBudget},
      {"LoopInTostringMetamethod",
       "local t = setmetatable({}, {__tostring = function() while true do end end}) local s = tostring(t)",
       ErrorKind::kBudget},
      {"LoopInFormatPercentS",
       "local t = setmetatable({}, {__tostring = function() while true do end end}) local s = string.format('%s', t)",
       ErrorKind::kBudget},

      // ---- CPU: trying to swallow the budget error (G3) ---------------------------------
      {"PcallInLoopCatchesBudget", "while true do pcall(function() while true do end end) end", ErrorKind::kBudget},
      {"PcallThenReturnNormally",
       "for i = 1, 1000 do pcall(function() while true do end end) end return 'escaped'", ErrorKind::kBudget},
      {"NestedPcall", "pcall(pcall, pcall, function() while true do end end) return 'escaped'", ErrorKind::kBudget},
      {"PcallOfErrorWithBudgetSentinelLoop",
       "local ok, e repeat ok, e = pcall(function() while true do end end) until false", ErrorKind::kBudget},
      {"XpcallHandlerReturnsNormally",
       "local ok = xpcall(function() while true do end end, function() return 'swallowed' end) return ok",
       ErrorKind::kBudget},
      {"XpcallHandlerLoops", "xpcall(function() error('x') end, function() while true do end end)",
       ErrorKind::kBudget},
      {"XpcallHandlerCallsPcall",
       "xpcall(function() while true do end end, function(e) pcall(function() while true do end end) return e end) "
       "return 'escaped'",
       ErrorKind::kBudget},
      {"XpcallBodyAndHandlerBothLoop",
       "xpcall(function() while true do end end, function() while true do end end) return 'escaped'",
       ErrorKind::kBudget},
      {"XpcallHandlerLoopsInsideCoroutine",
       "coroutine.wrap(function() xpcall(function() error('x') end, function() while true do end end) end)()",
       ErrorKind::kBudget},
      {"XpcallHandlerThatErrorsEndsAsErrorInErrorHandling",
       "local ok, e = xpcall(function() error('first') end, function(m) error(m) end) error(tostring(e), 0)",
       ErrorKind::kScript},
      {"ErrorObjectTostringLoopsInMessageHandler",
       "error(setmetatable({}, {__tostring = function() while true do end end}))", ErrorKind::kBudget},
      {"CoroutineThatLoops", "local ok = coroutine.resume(coroutine.create(function() while true do end end))",
       ErrorKind::kBudget},
      {"CoroutineLoopResumedInLoop",
       "while true do coroutine.resume(coroutine.create(function() while true do end end)) end", ErrorKind::kBudget},
      {"WrapInsidePcall", "pcall(coroutine.wrap(function() while true do end end)) return 'escaped'",
       ErrorKind::kBudget},
      {"PcallInsideCoroutine",
       "coroutine.resume(coroutine.create(function() while true do pcall(function() while true do end end) end end))",
       ErrorKind::kBudget},
      {"NestedCoroutines",
       "local function nest(n) if n == 0 then while true do end end "
       "coroutine.resume(coroutine.create(function() nest(n - 1) end)) end nest(50)",
       ErrorKind::kBudget},
      {"ManyShortCoroutines200k",
       "for i = 1, 200000 do local co = coroutine.create(function() end) coroutine.resume(co) end",
       ErrorKind::kBudget, "",
       // Without the coroutine cap in the way: the per-resume charge alone must stop it.
       [](Limits& l) { l.max_coroutines = 1'000'000; }},
      {"OneCoroutineYielding200kTimes",
       "local co = coroutine.wrap(function() while true do coroutine.yield() end end) for i = 1, 200000 do co() end",
       ErrorKind::kBudget, "", [](Limits& l) { l.call_instructions = 20'000'000; }},
      {"CoroutineCreationCap", "for i = 1, 1e6 do coroutine.create(function() end) end", ErrorKind::kSandbox,
       "coroutines"},

      // ---- memory bombs (G4) -----------------------------------------------------------
      {"StringDoubling", "local s = 'x' for i = 1, 64 do s = s .. s end", ErrorKind::kMemory},
      {"StringRepUnderRepCapOverMemoryCap", "local s = string.rep('x', 12 << 20)", ErrorKind::kMemory},
      {"HugeArrayGrowth", "local t = {} for i = 1, 1e9 do t[i] = i end", ErrorKind::kMemory},
      {"TableOfTables", "local t = {} for i = 1, 1e9 do t[i] = {i} end", ErrorKind::kMemory},
      {"StringKeyedTable", "local t = {} for i = 1, 1e9 do t['k' .. i] = true end", ErrorKind::kMemory},
      {"DeepNestedTables", "local t = {} for i = 1, 1e9 do t = {t} end", ErrorKind::kMemory},
      {"DistinctLongStrings", "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(1 << 14) .. i end",
       ErrorKind::kMemory},
      {"MemoryErrorNotSwallowedByPcall",
       "while true do pcall(function() local t = {} for i = 1, 1e9 do t[i] = {} end end) end", ErrorKind::kMemory},
      {"MemoryErrorNotSwallowedByCoroutine",
       "local ok = coroutine.resume(coroutine.create(function() local t = {} for i = 1, 1e9 do t[i] = {} end end)) "
       "return 'escaped'",
       ErrorKind::kMemory},
      {"TableConcatBomb",
       "local t = {} for i = 1, 64 do t[i] = ('x'):rep(1 << 16) end local s = table.concat(t) "
       "local u = {} for i = 1, 1e9 do u[i] = s .. i end",
       ErrorKind::kMemory},

      // ---- bounded C calls -------------------------------------------------------------
      {"StringRepOfEmpty2Pow50", "local s = string.rep('', 2^50)", ErrorKind::kSandbox, "string.rep"},
      {"StringRepOneGiB", "local s = string.rep('x', 1 << 30)", ErrorKind::kSandbox, "string.rep"},
      {"StringRepSeparatorOverCap", "local s = ('x'):rep(1 << 23, 'yy')", ErrorKind::kSandbox, "string.rep"},
      {"StringRepChained", "local s = ('x'):rep(1e6):rep(1e6)", ErrorKind::kSandbox, "string.rep"},
      {"PatternBombFind", "local a = ('a'):rep(3000):find('(.-)(.-)(.-)b')", ErrorKind::kSandbox, "pattern"},
      {"PatternBombMatch", "local a = ('a'):rep(3000):match('.-.-.-.-b')", ErrorKind::kSandbox, "pattern"},
      {"PatternBombGmatch", "for x in ('a'):rep(3000):gmatch('(.-)(.-)(.-)b') do end", ErrorKind::kSandbox,
       "pattern"},
      {"PatternBombGsub", "local s = ('a'):rep(3000):gsub('(.*)(.*)(.*)b', '')", ErrorKind::kSandbox, "pattern"},
      {"OverlongPattern", "local a = ('a'):find(('a'):rep(300))", ErrorKind::kSandbox, "pattern"},
      // Optional items branch: 32 of them ran for over a minute in one C call.
      {"PatternOptionalItemsExponential", "local a = ('a'):rep(32):find(('a?'):rep(32) .. ('a'):rep(32) .. 'b')",
       ErrorKind::kSandbox, "optional items"},
      // %b scans to the end from every start: quadratic (22 s on 200,000 characters).
      {"PatternBalanceQuadratic", "local a = ('('):rep(200000):find('%b()')", ErrorKind::kSandbox, "pattern"},
      // Only find's fourth argument means "plain": gsub's and match's do not skip the price.
      {"PatternGsubWithACountIsStillPriced", "local s = ('a'):rep(300):gsub('.-.-.-b', '', 1)", ErrorKind::kSandbox,
       "pattern"},
      {"PatternMatchWithATruthyFourthArgumentIsStillPriced", "local s = ('a'):rep(300):match('.-.-.-b', 1, true)",
       ErrorKind::kSandbox, "pattern"},
      // A NUL byte does not end the pattern for the price either.
      {"PatternWithANulByteIsStillPriced", "local s = ('a'):rep(300):find('\\0*.-.-.-b')", ErrorKind::kSandbox,
       "pattern"},
      // gmatch reads a leading ^ as a character, not an anchor: it is priced for every start.
      {"PatternGmatchCaretIsNotAnAnchor", "for x in ('^'):rep(360):gmatch('^.-.-.-x') do end", ErrorKind::kSandbox,
       "pattern"},
      // next scans the table on every call: a walk with next is charged per key.
      {"NextWalkIsChargedPerKey",
       "local t = {} for i = 1, 3000 do t['k' .. i] = i end local k = next(t) while k do k = next(t, k) end",
       ErrorKind::kBudget},
      // A long set is read for every subject character (7 s over 16 MB).
      {"PatternLongSetOverLongSubject", "local a = ('a'):rep(16000000):find('[' .. ('b'):rep(250) .. ']')",
       ErrorKind::kSandbox, "pattern", [](Limits& l) { l.memory_bytes = 64u << 20; }},
      {"UnpackMillionsOfResults", "local n = select('#', table.unpack({}, 1, 1e7))", ErrorKind::kScript,
       "too many results", [](Limits& l) { l.call_instructions = 20'000'000; }},
      {"UnpackHugeRangeChargedToBudget", "local n = select('#', table.unpack({}, 1, 1e15))", ErrorKind::kBudget},
      // One stock table.* call looped as often as a range or a lying __len said, with no Lua
      // instruction to charge (these hung for hours before the sandbox wrapped them).
      {"TableMoveHugeRange", "table.move({}, 1, 1e15, 2)", ErrorKind::kBudget},
      {"TableMoveHugeRangeInPcall", "pcall(table.move, {}, 1, math.maxinteger - 1, 2) return 'escaped'",
       ErrorKind::kBudget},
      {"TableConcatHugeRangeWithCIndex",
       "local s = table.concat(setmetatable({}, {__index = rawlen}), '', 1, 1e15)", ErrorKind::kBudget},
      {"TableInsertWithLyingLen",
       "local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end}) table.insert(t, 1, 0)",
       ErrorKind::kSandbox, "__len"},
      {"TableRemoveWithLyingLen",
       "local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end}) table.remove(t, 1)",
       ErrorKind::kSandbox, "__len"},
      {"TableSortWithLyingLenAndCComparator",
       "local t = setmetatable({}, {__len = function() return 2^31 - 2 end}) table.sort(t, rawequal)",
       ErrorKind::kSandbox, "__len"},
      {"TableInsertAtFrontInLoopIsCharged",
       "local t = {} for i = 1, 100000 do t[i] = i end while true do table.insert(t, 1, 0) table.remove(t, 1) end",
       ErrorKind::kBudget},
      {"HugeFormatWidth", "local s = string.format('%099999999d', 1)", ErrorKind::kScript, "invalid conversion"},

      // ---- metatables ------------------------------------------------------------------
      {"SetmetatableGcRefused", "setmetatable({}, {__gc = function() while true do end end})", ErrorKind::kSandbox,
       "__gc"},
      {"SetmetatableModeRefused", "setmetatable({}, {__mode = 'k'})", ErrorKind::kSandbox, "__mode"},
      {"SetmetatableCloseRefused", "setmetatable({}, {__close = function() end})", ErrorKind::kSandbox, "__close"},
      {"ToBeClosedVariableNeedsBannedClose", "local x <close> = setmetatable({}, {__close = function() end})",
       ErrorKind::kSandbox, "__close"},
      {"ToBeClosedNonClosableValue", "local x <close> = {}", ErrorKind::kScript, "non-closable"},
      // setmetatable checks the table it is given; fields added to it later fail the call.
      {"ModeAddedAfterSetmetatableFailsTheCall",
       "local mt = {} local t = setmetatable({}, mt) mt.__mode = 'k'", ErrorKind::kSandbox, "'__mode' is not allowed"},
      {"CloseAddedAfterSetmetatableFailsTheCall",
       "local mt = {} local t = setmetatable({}, mt) mt.__close = function() end do local x <close> = t end",
       ErrorKind::kSandbox, "'__close' is not allowed"},
      {"GcAddedAfterSetmetatableIsRefused",
       // A table serving as a metatable is guarded: a later __gc is refused where it is set.
       "local mt = {} for i = 1, 1000 do setmetatable({}, mt) end "
       "mt.__gc = function() while true do end end "
       "for i = 1, 20000 do local g = {i} end error('reached the end', 0)",
       ErrorKind::kSandbox, "'__gc' is not allowed"},
      {"BannedFieldThroughAMetatablesOwnMetatableIsRefused",
       // Classes: Derived inherits from Base, then serves as a metatable; still guarded.
       "local Base = {} Base.__index = Base local Derived = setmetatable({}, {__index = Base}) "
       "Derived.__index = Derived local obj = setmetatable({}, Derived) Derived.__mode = 'k'",
       ErrorKind::kSandbox, "'__mode' is not allowed"},
      {"StringMetatableHidden", "getmetatable('').__index = {}", ErrorKind::kScript},
      {"StringMetatableIndexUnreachable", "local mt = getmetatable('') assert(mt == false) mt.__index.upper = 1",
       ErrorKind::kScript},
      {"StringLibraryReadOnly", "string.upper = function() return 'pwned' end", ErrorKind::kSandbox, "read-only"},
      {"MathLibraryReadOnly", "math.pi = 3", ErrorKind::kSandbox, "read-only"},
      {"SetmetatableOnLibraryRefused", "setmetatable(string, {__index = {}})", ErrorKind::kScript, "protected"},
      {"SetmetatableOnGlobalsRefused", "setmetatable(_G, {})", ErrorKind::kScript, "protected"},

      // ---- escapes through the standard library ---------------------------------------
      {"StringDumpAbsent", "local d = string.dump(function() end)", ErrorKind::kScript, "dump"},
      {"LoadAbsent", "local f = load('return 1')", ErrorKind::kScript, "load"},
      {"LoadstringAbsent", "local f = loadstring('return 1')", ErrorKind::kScript, "loadstring"},
      {"DofileAbsent", "dofile('/etc/passwd')", ErrorKind::kScript, "dofile"},
      {"LoadfileAbsent", "loadfile('/etc/passwd')", ErrorKind::kScript, "loadfile"},
      {"RequireOsNotFound", "local os = require('os')", ErrorKind::kScript, "not found"},
      {"RequireParentPathRefused", "local x = require('../x')", ErrorKind::kSandbox, "bad module name"},
      {"RequireAbsolutePathRefused", "local x = require('/etc/passwd')", ErrorKind::kSandbox, "bad module name"},
      {"OsAbsent", "os.exit(1)", ErrorKind::kScript, "os"},
      {"IoAbsent", "io.open('/tmp/x', 'w')", ErrorKind::kScript, "io"},
      {"DebugAbsent", "debug.sethook()", ErrorKind::kScript, "debug"},
      {"CoroutineCloseAbsent", "coroutine.close(coroutine.create(function() end))", ErrorKind::kScript, "close"},
      {"FormatPointerRefused", "local s = string.format('%p', {})", ErrorKind::kSandbox, "%p"},
      {"FormatPointerWithFlagsRefused", "local s = string.format('%d %-20p', 1, print)", ErrorKind::kSandbox, "%p"},
      {"RawsetAbsent", "rawset(_G, 'x', 1)", ErrorKind::kScript, "rawset"},
      {"AssignGlobalRefused", "x = 1", ErrorKind::kScript, "undeclared global 'x'"},
      {"AssignThroughGRefused", "_G.y = 1", ErrorKind::kScript, "undeclared global 'y'"},
      {"ReadUndeclaredGlobal", "local v = some_undeclared_name", ErrorKind::kScript, "some_undeclared_name"},
      {"RandomseedRefused", "math.randomseed(1)", ErrorKind::kSandbox, "seed"},
      {"CollectgarbageStopRefused", "collectgarbage('stop')", ErrorKind::kSandbox, "collectgarbage"},
      {"CollectgarbageCollectRefused", "collectgarbage('collect')", ErrorKind::kSandbox, "collectgarbage"},
      {"CollectgarbageGenerationalRefused", "collectgarbage('generational')", ErrorKind::kSandbox,
       "collectgarbage"},
      {"BinaryChunkRefusedByCompile", "\x1bLua\x54\x00\x19\x93\r\n\x1a\n", ErrorKind::kSandbox, "binary"},

      // ---- stack and error objects -----------------------------------------------------
      {"DeepLuaRecursionStackOverflow", "local function f(n) return 1 + f(n + 1) end f(1)", ErrorKind::kScript,
       "stack overflow", [](Limits& l) { l.memory_bytes = 64u << 20; l.call_instructions = 50'000'000; }},
      {"MetamethodRecursionCStackOverflow",
       "local t t = setmetatable({}, {__index = function(_, k) return t[k] end}) local v = t.x", ErrorKind::kScript,
       "stack overflow"},
      {"GsubRecursionCStackOverflow", "local function f(s) return (s:gsub('.', f)) end f('ab')", ErrorKind::kScript,
       "stack overflow"},
      {"ErrorWithTable", "error({code = 1})", ErrorKind::kScript, "table value"},
      {"ErrorWithNil", "error(nil)", ErrorKind::kScript, "nil value"},
      {"ErrorWithTostringTable", "error(setmetatable({}, {__tostring = function() return 'custom object' end}))",
       ErrorKind::kScript, "custom object"},
      {"ErrorWithTostringThatErrors", "error(setmetatable({}, {__tostring = function() error('inner') end}))",
       ErrorKind::kScript},
      {"ErrorWithTostringReturningTable", "error(setmetatable({}, {__tostring = function() return {} end}))",
       ErrorKind::kScript},
  };
}

class HostileScript : public ::testing::TestWithParam<HostileCase> {};

TEST_P(HostileScript, EndsInClassifiedErrorAndVmStaysUsable) {
  const HostileCase& c = GetParam();
  Limits limits = CatalogueLimits();
  if (c.tweak) c.tweak(limits);
  Runtime rt(limits);
  const auto start = std::chrono::steady_clock::now();
  Status st = RunChunk(rt, c.code, 0, "hostile");
  EXPECT_LT(SecondsSince(start), 5.0) << c.name << " ran too long";
  EXPECT_EQ(ErrorKindName(st.kind), std::string(ErrorKindName(c.expected))) << c.name << ": " << st.ToString();
  if (*c.message_part) {
    EXPECT_NE(st.message.find(c.message_part), std::string::npos) << st.message;
  }
  EXPECT_EQ(lua_gettop(rt.L()), 0) << "stack left dirty";
  EXPECT_TRUE(RunsHealthyChunk(rt));
  EXPECT_LE(rt.memory_used(), limits.memory_bytes / 2) << "garbage kept after the failure";
}

INSTANTIATE_TEST_SUITE_P(Catalogue, HostileScript, ::testing::ValuesIn(Catalogue()),
                         [](const ::testing::TestParamInfo<HostileCase>& info) { return info.param.name; });

TEST(HostileCatalogue, HasAtLeastFortyCasesIncludingEightSwallowingVariants) {
  const auto cases = Catalogue();
  EXPECT_GE(cases.size(), 40u);
  int swallowing = 0;
  for (const auto& c : cases) {
    const std::string code = c.code;
    if (c.expected == ErrorKind::kBudget &&
        (code.find("pcall") != std::string::npos || code.find("coroutine") != std::string::npos))
      ++swallowing;
  }
  EXPECT_GE(swallowing, 8);
}

// One VM survives the whole catalogue in a row: no failure poisons the next call.
TEST(HostileCatalogue, OneRuntimeSurvivesEveryCaseInSequence) {
  Runtime rt(CatalogueLimits());
  for (const auto& c : Catalogue()) {
    if (c.tweak) {
      continue;  // those need their own limits
    }
    Status st = RunChunk(rt, c.code, 0, "hostile");
    EXPECT_EQ(ErrorKindName(st.kind), std::string(ErrorKindName(c.expected))) << c.name << ": " << st.ToString();
    ASSERT_TRUE(RunsHealthyChunk(rt)) << "after " << c.name;
  }
}

// The budget error cannot be observed by the script: nothing after pcall runs.
TEST(HostileBudget, PcallNeverReturnsTheBudgetErrorToTheScript) {
  Runtime rt(CatalogueLimits());
  std::vector<std::string> lines;
  rt.set_log([&](const std::string& l) { lines.push_back(l); });
  Status st = RunChunk(rt, "local ok, e = pcall(function() while true do end end) print('caught', ok, e)");
  EXPECT_EQ(st.kind, ErrorKind::kBudget) << st.ToString();
  EXPECT_TRUE(lines.empty()) << lines.front();
}

// A script can leave memory a few bytes under the cap when its call returns (a table it keeps).
// The host's next pushes happen outside any protected call, where a failed allocation makes Lua
// abort the process: outside calls the host has headroom over the cap, while the next call
// into Lua still meets the cap itself.
TEST(HostileMemory, MemoryLeftAtTheCapDoesNotAbortTheHostsNextPush) {
  Limits l = CatalogueLimits();
  l.memory_bytes = 4u << 20;
  Runtime rt(l);
  Status st = RunChunk(rt,
                       "local hoard = {}\n"
                       "while collectgarbage('count') * 1024 + 512 < 4 * 1024 * 1024 do hoard.chain = {hoard.chain} end\n"
                       "return hoard",
                       1);
  ASSERT_TRUE(st.ok()) << st.ToString();  // the hoard stays on the stack: alive
  lua_State* L = rt.L();
  lua_createtable(L, 0, 1000);  // about 40 KB, outside any call: aborted the process before
  lua_pop(L, 1);
  EXPECT_EQ(RunChunk(rt, "local t = {} for i = 1, 100000 do t[i] = i end").kind, ErrorKind::kMemory);
  lua_pop(L, 1);
  EXPECT_TRUE(RunsHealthyChunk(rt));
}

// Sticky exhaustion: a coroutine's loop is charged at least what it ran (G3).
TEST(HostileBudget, CoroutineYieldLoopIsChargedPerResume) {
  Limits l = CatalogueLimits();
  Runtime rt(l);
  Status st = RunChunk(rt,
                       "local co = coroutine.wrap(function() while true do coroutine.yield() end end) "
                       "for i = 1, 5000 do co() end");
  EXPECT_EQ(st.kind, ErrorKind::kBudget) << "5000 resumes charged 1000 each exceed a 2M budget: " << st.ToString();
}

// A budget kill in one call does not leak into the next: the budget is per call.
TEST(HostileBudget, ExhaustionIsNotStickyAcrossCalls) {
  Runtime rt(CatalogueLimits());
  EXPECT_EQ(RunChunk(rt, kLoop).kind, ErrorKind::kBudget);
  Status st = RunChunk(rt, "local s = 0 for i = 1, 100000 do s = s + i end assert(s == 5000050000)");
  EXPECT_TRUE(st.ok()) << st.ToString();
}

// The same bomb in a coroutine that the script keeps for later cannot run outside a call.
TEST(HostileBudget, SuspendedCoroutineFromKilledCallIsHarmless) {
  Runtime rt(CatalogueLimits());
  Status st = RunChunk(rt,
                       "local co = coroutine.create(function() coroutine.yield() while true do end end) "
                       "coroutine.resume(co) return co",
                       1);
  ASSERT_TRUE(st.ok()) << st.ToString();
  lua_State* L = rt.L();
  // Keep the coroutine and resume it from a later chunk: it must hit that call's budget.
  lua_setfield(L, LUA_REGISTRYINDEX, "test.co");
  ASSERT_TRUE(rt.Compile("local co = ... return coroutine.resume(co)", testing::kChunk).ok());
  lua_getfield(L, LUA_REGISTRYINDEX, "test.co");
  st = rt.Call(1, 0, "later");
  EXPECT_EQ(st.kind, ErrorKind::kBudget) << st.ToString();
  EXPECT_TRUE(RunsHealthyChunk(rt));
}

// The wrappers that make the library safe keep the stock results for ordinary use.
TEST(HostileWrappers, TableFunctionsKeepStockBehaviourOnPlainTables) {
  Runtime rt;
  Status st;
  const std::string got = testing::RunForString(rt, R"(
    local t = {5, 3, 9}
    table.insert(t, 1)
    table.insert(t, 1, 7)
    local removed = table.remove(t, 2)
    table.sort(t)
    table.sort(t, function(a, b) return a > b end)
    local moved = table.move(t, 1, 2, 3, {})
    local a, b = table.unpack(t, 2, 3)
    return table.concat(t, ',') .. '|' .. removed .. '|' .. table.concat(moved, ',', 3, 4) .. '|' .. a .. b
  )", &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got, "9,7,3,1|5|9,7|73");
}

TEST(HostileWrappers, StringFunctionsKeepStockBehaviour) {
  Runtime rt;
  Status st;
  const std::string got = testing::RunForString(rt, R"(
    local s, n = ('a-b-c'):gsub('-', '+')
    local words = {}
    for w in ('one two three'):gmatch('%a+') do words[#words + 1] = w end
    local i, j, cap = ('hello world'):find('(o w)')
    return s .. n .. '|' .. table.concat(words, ',') .. '|' .. i .. j .. cap .. '|' .. ('ab'):rep(3, '.') ..
           '|' .. string.format('%5.1f %s %q', 2.25, 'x', 'y')
  )", &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got, "a+b+c2|one,two,three|57o w|ab.ab.ab|  2.2 x \"y\"");
}

TEST(HostileWrappers, XpcallHandlerStillRunsForOrdinaryScriptErrors) {
  Runtime rt;
  Status st;
  const std::string got = testing::RunForString(rt, R"(
    local ok, m = xpcall(function() error('x') end, function(e) return 'handled: ' .. e end)
    return tostring(ok) .. ' ' .. m
  )", &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got, "false handled: games/test/x.lua:2: x");
}

TEST(HostileWrappers, TableFunctionsAcceptNoTableWithLenMetamethod) {
  Runtime rt;
  Status st = RunChunk(rt, "local t = setmetatable({1, 2}, {__len = function() return 2 end}) table.insert(t, 3)");
  EXPECT_EQ(st.kind, ErrorKind::kSandbox) << st.ToString();
  EXPECT_EQ(st.message, "games/test/x.lua:1: sandbox: table functions do not accept a table with a __len metamethod");
}

}  // namespace
}  // namespace plateau::scripting

namespace plateau::scripting {
namespace {

// One instruction or one library call can do megabytes of work. Library calls are charged by
// the bytes they walk, so a cheap loop of them runs out of budget; operators of the VM
// (comparing, concatenating megabyte strings) cannot be charged, and the wall-clock backstop
// ends those: once it passes, the watchdog makes the very next instruction fail.
TEST(HostileBackstop, CheapLoopsOverExpensiveOperationsEndAtTheWallClockBackstop) {
  const struct { const char* code; const char* ends_by; } bombs[] = {
      {"local s = ('x'):rep(1 << 23) local t = ('x'):rep(1 << 23) while true do local b = (s == t) end", "backstop"},
      {"local s = ('x'):rep(1 << 22) while true do local u = s .. 'y' end", "backstop"},
      {"local s = ('x'):rep(1 << 23) while true do local n = s:find('y', 1, true) end", nullptr},
      {"local s = ('x'):rep(1 << 22) while true do local u = s:upper() end", nullptr},
  };
  for (const auto& bomb : bombs) {
    Limits limits;
    limits.wall_backstop_ms = 300;
    Runtime rt(limits);
    const auto start = std::chrono::steady_clock::now();
    Status st = RunChunk(rt, bomb.code);
    EXPECT_EQ(st.kind, ErrorKind::kBudget) << bomb.code << ": " << st.ToString();
    // A charged call may still meet the backstop first on a slow machine: either is a budget kill.
    if (bomb.ends_by) EXPECT_NE(st.message.find(bomb.ends_by), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("x.lua:1:"), std::string::npos) << "names the line: " << st.message;
    EXPECT_LT(SecondsSince(start), 5.0) << bomb.code;
    EXPECT_TRUE(RunChunk(rt, "local x = 1 + 1").ok()) << "the runtime still works after the kill";
  }
}

}  // namespace
}  // namespace plateau::scripting
