// Determinism of the sandbox (reliability.md section 8): sorted pairs, no addresses, host RNG, print to the log.
#include <gtest/gtest.h>

#include <lua.hpp>

#include <string>
#include <vector>

#include "host/rng.h"
#include "scripting/runtime.h"
#include "test_util.h"

namespace plateau::scripting {
namespace {

using testing::RunChunk;
using testing::RunForString;

// Builds a table with keys inserted in a scrambled order and lists pairs() as text.
constexpr const char* kPairsOrder = R"(
  local t = {}
  t.zebra = 1; t[10] = 1; t.apple = 1; t[3] = 1; t[-2] = 1; t.Mango = 1; t[1] = 1
  t[2.5] = 1; t.banana = 1; t[2] = 1; t[100] = 1; t['10'] = 1; t[true] = 1
  local out = {}
  for k in pairs(t) do out[#out + 1] = type(k) .. ':' .. tostring(k) end
  return table.concat(out, ' ')
)";

TEST(SandboxDeterminism, PairsVisitsIntegersAscendingThenStringsSorted) {
  Runtime rt;
  Status st;
  const std::string got = RunForString(rt, kPairsOrder, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got,
            "number:-2 number:1 number:2 number:2.5 number:3 number:10 number:100 "
            "string:10 string:Mango string:apple string:banana string:zebra boolean:true");
}

TEST(SandboxDeterminism, PairsOrderIsIdenticalAcrossTwoVms) {
  // Many string keys: the raw hash order would differ with the per-VM string seed.
  const std::string code = R"(
    local t = {}
    for i = 1, 500 do t['key' .. ((i * 7919) % 1000)] = i; t[(i * 31) % 997] = i end
    local out = {}
    for k, v in pairs(t) do out[#out + 1] = tostring(k) .. '=' .. v end
    return table.concat(out, ',')
  )";
  Runtime a, b;
  Status sa, sb;
  const std::string ra = RunForString(a, code, &sa);
  const std::string rb = RunForString(b, code, &sb);
  ASSERT_TRUE(sa.ok()) << sa.ToString();
  ASSERT_TRUE(sb.ok()) << sb.ToString();
  EXPECT_EQ(ra, rb);
  // And within one VM, twice (a fresh table each time).
  EXPECT_EQ(RunForString(a, code), ra);
}

TEST(SandboxDeterminism, PairsSkipsKeysRemovedDuringIteration) {
  Runtime rt;
  Status st;
  const std::string got = RunForString(rt, R"(
    local t = {a = 1, b = 2, c = 3, d = 4}
    local seen = {}
    for k in pairs(t) do seen[#seen + 1] = k; t.c = nil end
    return table.concat(seen, '')
  )", &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got, "abd");
}

TEST(SandboxDeterminism, PairsOnReadOnlyLibraryIsSorted) {
  Runtime rt;
  Status st;
  const std::string got = RunForString(rt, R"(
    local names = {}
    for k in pairs(table) do names[#names + 1] = k end
    return table.concat(names, ',')
  )", &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got, "concat,insert,move,pack,remove,sort,unpack");
}

TEST(SandboxDeterminism, TostringOfTablesFunctionsAndThreadsShowsNoAddress) {
  Runtime rt;
  Status st;
  const std::string got = RunForString(rt, R"(
    local parts = {
      tostring({}), tostring(function() end), tostring(print), tostring(coroutine.create(function() end)),
      string.format('%s|%s', {}, print), tostring(setmetatable({}, {__name = 'Piece'})),
      tostring(setmetatable({}, {__tostring = function() return 'custom' end})),
    }
    return table.concat(parts, ' ')
  )", &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got, "table function function thread table|function Piece custom");
  EXPECT_EQ(got.find("0x"), std::string::npos);
}

TEST(SandboxDeterminism, PrintedTablesShowNoAddress) {
  Runtime rt;
  std::vector<std::string> lines;
  rt.set_log([&](const std::string& l) { lines.push_back(l); });
  ASSERT_TRUE(RunChunk(rt, "print({}, print, (coroutine.running()))").ok());
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "table\tfunction\tthread");
}

TEST(SandboxDeterminism, ErrorMessageOfTableErrorShowsNoAddress) {
  Runtime rt;
  Status st = RunChunk(rt, "error({})");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message.find("0x"), std::string::npos) << st.message;
}

TEST(SandboxDeterminism, ReadOnlyTableErrorNamesTheKeyWithoutAnAddress) {
  Runtime rt;
  Status st = RunChunk(rt, "string[{}] = 1");
  EXPECT_EQ(st.kind, ErrorKind::kSandbox);
  EXPECT_NE(st.message.find("(field 'a table')"), std::string::npos) << st.message;
  EXPECT_EQ(st.message.find("0x"), std::string::npos) << st.message;
  st = RunChunk(rt, "string[setmetatable({}, {__tostring = function() return 'mine' end})] = 1");
  EXPECT_EQ(st.message.find("mine"), std::string::npos) << st.message;  // the script's __tostring is not run
}

TEST(SandboxDeterminism, AViolationTheScriptCaughtDoesNotMarkALaterError) {
  Runtime rt;
  Status st = RunChunk(rt, "pcall(function() string.x = 1 end) error('my own error')");
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.message;
  st = RunChunk(rt, "local ok, e = pcall(function() string.x = 1 end) error(e, 0)");
  EXPECT_EQ(st.kind, ErrorKind::kSandbox) << st.message;  // passed on: still the violation
}

TEST(SandboxDeterminism, NextOrdersIntegerAndFloatKeysExactly) {
  Runtime rt;
  Status st;
  const std::string keys = RunForString(rt, R"(
    local t = {[1] = 1, [1.5] = 1, [2] = 1, [math.maxinteger] = 1, [2^63] = 1, [math.huge] = 1, [-math.huge] = 1,
               [math.mininteger] = 1, [-2^63 - 2^11] = 1}
    local out, k = {}, next(t)
    while k ~= nil do out[#out + 1] = string.format('%s', math.type(k) == 'integer' and k or ('f' .. k)) k = next(t, k) end
    local n = 0
    for _ in pairs(t) do n = n + 1 end
    assert(n == #out, n .. ' keys, next walked ' .. #out)
    return table.concat(out, ' ')
  )", &st);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(keys, "f-inf f-9.2233720368548e+18 -9223372036854775808 1 f1.5 2 9223372036854775807 f9.2233720368548e+18 finf");
}

TEST(SandboxDeterminism, PatternsGamesUseStillPass) {
  Runtime rt;
  Status st = RunChunk(rt, R"(
    local s = ('word '):rep(200)
    assert(select(2, s:gsub('[A-Za-z0-9]+', 'x')) == 200)
    assert(('a+b*c?'):rep(60):find('[*+?]') == 2)
    assert(('games/x/rules.lua:12: cell [1, -2] is occupied'):find('^games/x/rules%.lua:%d+: cell %[%-?%d+, %-?%d+%] is occupied$'))
    local n = 0 for w in ('one two three'):gmatch('%a+') do n = n + 1 end assert(n == 3)
  )");
  EXPECT_TRUE(st.ok()) << st.message;
}

TEST(SandboxDeterminism, NextFollowsThePairsOrder) {
  const char* code = R"(
    local t = {zeta = 1, alpha = 2, [3] = 'c', [1] = 'a', mid = 3, [2] = 'b', [true] = 't'}
    local keys, k = {}, next(t)
    while k ~= nil do keys[#keys + 1] = tostring(k) k = next(t, k) end
    local via_pairs = {}
    for key in pairs(t) do via_pairs[#via_pairs + 1] = tostring(key) end
    assert(table.concat(keys, ',') == table.concat(via_pairs, ','), table.concat(keys, ','))
    assert(next({}) == nil)
    return table.concat(keys, ',')
  )";
  Runtime a, b;
  Status sa, sb;
  const std::string ra = RunForString(a, code, &sa), rb = RunForString(b, code, &sb);
  ASSERT_TRUE(sa.ok()) << sa.message;
  ASSERT_TRUE(sb.ok()) << sb.message;
  EXPECT_EQ(ra, "1,2,3,alpha,mid,zeta,true");
  EXPECT_EQ(ra, rb);
}

constexpr const char* kDraws = R"(
  local out = {}
  for i = 1, 20 do out[#out + 1] = math.random(1, 1000) end
  out[#out + 1] = math.random(6)
  local u = math.random()
  assert(u >= 0 and u < 1)
  return table.concat(out, ',')
)";

TEST(SandboxDeterminism, MathRandomDrawsFromTheHostRng) {
  Runtime rt;
  Rng rng(42);
  rt.set_rng(&rng);
  Status st;
  const std::string got = RunForString(rt, kDraws, &st);
  ASSERT_TRUE(st.ok()) << st.ToString();
  // The same draws made by the host directly.
  Rng expected(42);
  std::string want;
  for (int i = 0; i < 20; ++i) want += (i ? "," : "") + std::to_string(expected.Int(1, 1000));
  want += "," + std::to_string(expected.Int(1, 6));
  expected.Unit();
  EXPECT_EQ(got, want);
  // The script advanced the host RNG exactly as the host would have.
  EXPECT_TRUE(rng == expected);
}

TEST(SandboxDeterminism, TwoRuntimesWithTheSameSeedDrawTheSameNumbers) {
  Runtime a, b;
  Rng ra(7), rb(7);
  a.set_rng(&ra);
  b.set_rng(&rb);
  const std::string da = RunForString(a, kDraws);
  const std::string db = RunForString(b, kDraws);
  ASSERT_FALSE(da.empty());
  EXPECT_EQ(da, db);
  Runtime c;
  Rng rc(8);
  c.set_rng(&rc);
  EXPECT_NE(RunForString(c, kDraws), da) << "a different seed should give different draws";
}

TEST(SandboxDeterminism, MathRandomWithoutHostRngIsAnError) {
  Runtime rt;
  Status st = RunChunk(rt, "local x = math.random(1, 6)");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_NE(st.message.find("math.random is not available"), std::string::npos) << st.message;
}

TEST(SandboxDeterminism, MathRandomEmptyIntervalIsAnError) {
  Runtime rt;
  Rng rng(1);
  rt.set_rng(&rng);
  Status st = RunChunk(rt, "local x = math.random(6, 1)");
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_NE(st.message.find("interval is empty"), std::string::npos) << st.message;
}

TEST(SandboxDeterminism, PrintGoesToTheLogCallback) {
  Runtime rt;
  std::vector<std::string> lines;
  rt.set_log([&](const std::string& l) { lines.push_back(l); });
  Status st = RunChunk(rt, "print('hello', 1, 2.5, nil, true) print()");
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "hello\t1\t2.5\tnil\ttrue");
  EXPECT_EQ(lines[1], "");
}

TEST(SandboxDeterminism, PrintIsRateLimitedPerCall) {
  Limits limits;
  limits.max_log_lines = 5;
  Runtime rt(limits);
  std::vector<std::string> lines;
  rt.set_log([&](const std::string& l) { lines.push_back(l); });
  ASSERT_TRUE(RunChunk(rt, "for i = 1, 1000 do print(i) end").ok());
  EXPECT_EQ(lines.size(), 5u);
  // The limit is per call: the next call may log again.
  ASSERT_TRUE(RunChunk(rt, "print('again')").ok());
  EXPECT_EQ(lines.back(), "again");
}

TEST(SandboxDeterminism, PrintWithoutLogCallbackIsHarmless) {
  Runtime rt;
  Status st = RunChunk(rt, "print('nobody listens')");
  EXPECT_TRUE(st.ok()) << st.ToString();
}

}  // namespace
}  // namespace plateau::scripting
