// Hostile rules scripts and game folders through LuaRules (the sandbox audit's cases): values
// the host reads after a call ends are read raw, so their metamethods never run unbudgeted;
// strings that are not UTF-8 are refused where they would enter the state; game data too big
// for the scripts' memory fails to load as a memory error; files that are links out of the
// folder, FIFOs or directories are refused. None of them crashes or hangs the host.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <lua.hpp>

#include "host/bots.h"
#include "scripting/bindings.h"
#include "scripting/lua_rules.h"
#include "scripting/runtime.h"
#include "test_util.h"

namespace plateau::scripting {
namespace {

namespace fs = std::filesystem;
using testing::SecondsSince;

constexpr const char* kCards =
    R"({"cards": [{"id": "token", "count": 4, "kind": "marker", "name": {"en": "Token"}}]})";

// A one-player game where each "bump" move counts to 3. `extra` is spliced into the rules
// before `return game`; `bump` is the body of the move.
std::string Rules(const std::string& extra, const std::string& bump = "") {
  return "local game = {api_version = 1, moves = {}, categories = {'bumps'}}\n"
         "function game.setup(ctx, state) state.data.count = 0 end\n"
         "function game.to_move(ctx, state) if state.data.count >= 3 then return {} end return {1} end\n"
         "function game.legal_moves(ctx, state, seat) return {{type = 'bump'}} end\n"
         "function game.moves.bump(ctx, state, seat, move)\n"
         "  state.data.count = state.data.count + 1\n" +
         bump +
         "\nend\n"
         "function game.score(ctx, state)\n"
         "  local out = {} for s = 1, state.player_count do out[s] = {breakdown = {bumps = state.data.count}} end\n"
         "  return out\n"
         "end\n" +
         extra + "\nreturn game\n";
}

// A game folder in a temporary directory, removed afterwards.
struct TempGame {
  explicit TempGame(const std::string& rules, const std::string& cards = kCards) {
    char tmpl[] = "/tmp/plateau_hostile_XXXXXX";
    root = mkdtemp(tmpl);
    folder = root / "hostile";
    fs::create_directories(folder / "data");
    Write("game.json",
          R"({"id": "hostile", "api_version": 1, "version": 1, "name": {"en": "Hostile"},
              "players": {"min": 1, "max": 2}, "rules": "rules.lua",
              "data": {"cards": {"file": "data/cards.json", "schema": "cards"}}})");
    Write("data/cards.json", cards);
    Write("rules.lua", rules);
  }
  ~TempGame() { fs::remove_all(root); }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(folder / name, std::ios::binary) << text;
  }
  Status Load(std::unique_ptr<LuaRules>* out, const Limits& limits = {}) const {
    return LuaRules::Load(folder.string(), limits, out);
  }
  // Loads the rules and starts a one-player game with seed 1.
  ::testing::AssertionResult Start(std::unique_ptr<LuaRules>* rules, State* s, const Limits& limits = {}) const {
    Status st = Load(rules, limits);
    if (st.ok()) st = (*rules)->NewGame(Json::object(), 1, 1, s);
    if (!st.ok()) return ::testing::AssertionFailure() << st.ToString();
    return ::testing::AssertionSuccess();
  }
  fs::path root, folder;
};

Move Bump() {
  Move m;
  m.type = "bump";
  return m;
}

TEST(HostileRules, AScoreLineWhoseIndexRaisesIsReadRawNotRun) {
  TempGame g(Rules("function game.score(ctx, state)\n"
                   "  return {setmetatable({}, {__index = function() error('boom') end})}\n"
                   "end"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  ScoreTable table;
  ASSERT_TRUE(rules->Score(s, &table).ok());  // the line has no fields of its own
  ASSERT_EQ(table.lines.size(), 1u);
  EXPECT_EQ(table.lines[0].total, 0);
}

TEST(HostileRules, AScoreLineWhoseIndexLoopsDoesNotHangTheHost) {
  TempGame g(Rules("function game.score(ctx, state)\n"
                   "  return {setmetatable({}, {__index = function() while true do end end})}\n"
                   "end"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  const auto t0 = std::chrono::steady_clock::now();
  ScoreTable table;
  EXPECT_TRUE(rules->Score(s, &table).ok());
  EXPECT_LT(SecondsSince(t0), 5.0);
}

// describe's second value groups a move for plateau play: read raw and bounded, and anything
// but a label or a list of 1 to 4 one-line labels fails the call naming it.
TEST(HostileRules, DescribeGroupsAreReadRawAndABadOneIsNamed) {
  auto group_of = [](const std::string& value, std::vector<std::string>* group) {
    TempGame g(Rules("function game.describe(ctx, state, seat, move) return 'bump it', " + value + " end"));
    std::unique_ptr<LuaRules> rules;
    State s;
    EXPECT_TRUE(g.Start(&rules, &s));
    std::string text;
    const Status st = rules->Describe(s, 0, Bump(), &text, group);
    if (st.ok()) {
      EXPECT_EQ(text, "bump it");
    }
    return st;
  };
  std::vector<std::string> group;
  ASSERT_TRUE(group_of("{'bumps', 'the first bump'}", &group).ok());
  EXPECT_EQ(group, (std::vector<std::string>{"bumps", "the first bump"}));
  ASSERT_TRUE(group_of("'bumps'", &group).ok());
  EXPECT_EQ(group, std::vector<std::string>{"bumps"});
  ASSERT_TRUE(group_of("nil", &group).ok());
  EXPECT_TRUE(group.empty());
  // A metatable on the list is not run: its raw length is 0, so it is an empty list.
  Status st = group_of("setmetatable({}, {__len = function() while true do end end, __index = function() return 'x' end})",
                       &group);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("describe's second value (the move's group) must be a string or a list of 1 to 4 strings"),
            std::string::npos)
      << st.message;
  EXPECT_NE(st.message.find("got a list of 0"), std::string::npos) << st.message;
  st = group_of("{'a', 'b', 'c', 'd', 'e'}", &group);
  EXPECT_NE(st.message.find("got a list of 5"), std::string::npos) << st.message;
  st = group_of("{'one\\ntwo'}", &group);
  EXPECT_NE(st.message.find("got a string at [1]"), std::string::npos) << st.message;
  st = group_of("42", &group);
  EXPECT_NE(st.message.find("got number"), std::string::npos) << st.message;
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  // The third value, the move's picture: a string of at most 4096 bytes.
  st = group_of("'g', string.rep('#', 5000)", &group);
  EXPECT_NE(st.message.find("describe's third value (the move's picture) must be a string of at most 4096 bytes, got 5000"),
            std::string::npos)
      << st.message;
  st = group_of("'g', {}", &group);
  EXPECT_NE(st.message.find("describe's third value (the move's picture) must be a string (or nil), got table"),
            std::string::npos)
      << st.message;
  TempGame g(Rules("function game.describe(ctx, state, seat, move) return 'bump it', 'bumps', '+--+\\n|  |' end"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  std::string text, picture;
  ASSERT_TRUE(rules->Describe(s, 0, Bump(), &text, &group, &picture).ok());
  EXPECT_EQ(picture, "+--+\n|  |");
}

// A view returning true after its text is the whole table: the host's own lines are left out.
TEST(HostileRules, AViewThatIsTheWholeTableLeavesTheHostsLinesOut) {
  for (const std::string whole : {"true", "false", "'yes'"}) {
    TempGame g(Rules("function game.view(ctx, state, seat) return 'the table', " + whole + " end"));
    std::unique_ptr<LuaRules> rules;
    State s;
    ASSERT_TRUE(g.Start(&rules, &s));
    const std::string v = rules->View(s, 0);
    EXPECT_NE(v.find("the table"), std::string::npos);
    EXPECT_EQ(v.find("phase ") == std::string::npos, whole == "true") << whole << ": " << v;
  }
}

TEST(HostileRules, AGameTableWithAnIndexMetamethodLoadsWithoutRunningIt) {
  TempGame g(Rules("setmetatable(game, {__index = function() while true do end end})"));
  std::unique_ptr<LuaRules> rules;
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = g.Load(&rules);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_LT(SecondsSince(t0), 5.0);
}

TEST(HostileRules, AnApiVersionThatIsATableFailsToLoadNamingIt) {
  TempGame g(Rules("game.api_version = {}"));
  std::unique_ptr<LuaRules> rules;
  const Status st = g.Load(&rules);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_NE(st.message.find("rules.lua: game.api_version must be a number, got table"), std::string::npos) << st.message;
}

TEST(HostileRules, TextThatIsNotUtf8IsRefusedWhereItWouldEnterTheState) {
  for (const char* bump : {"state.data.name = 'caf\\xe9'", "state.data['k\\xff'] = 1",
                           "state.data.list = {'ok', {deep = 'caf\\xe9'}}", "state:set_phase('ph\\xe9se')"}) {
    TempGame g(Rules("", bump));
    std::unique_ptr<LuaRules> rules;
    State s;
    ASSERT_TRUE(g.Start(&rules, &s));
    const std::string before = s.Hash();
    const Status st = rules->Apply(&s, 0, Bump());
    EXPECT_EQ(st.kind, ErrorKind::kScript) << bump;
    EXPECT_NE(st.message.find("UTF-8"), std::string::npos) << bump << ": " << st.message;
    EXPECT_NE(st.message.find("games/hostile/rules.lua:7:"), std::string::npos) << st.message;
    EXPECT_EQ(s.Hash(), before) << bump;
  }
}

TEST(HostileRules, AMoveWhoseTextIsNotUtf8IsRefused) {
  TempGame g(Rules("function game.legal_moves(ctx, state, seat) return {{type = 'bump', note = 'caf\\xe9'}} end"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  std::vector<Move> moves;
  const Status st = rules->LegalMoves(s, 0, &moves);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("must be UTF-8 text"), std::string::npos) << st.message;
  // An error message quoting the bytes is kept as text (a report prints it inside JSON).
  TempGame h(Rules("", "error('caf\\xe9')"));
  ASSERT_TRUE(h.Start(&rules, &s));
  const Status err = rules->Apply(&s, 0, Bump());
  EXPECT_NE(err.message.find("caf?"), std::string::npos) << err.message;
}

TEST(HostileRules, MovesWhoseFieldsSpellAlikeWithNulBytesStayDistinct) {
  // Moves of short scalar fields share one argument object keyed by their fields: a string
  // holding NUL bytes must not pass for other fields, nor a number for its text.
  TempGame g(Rules("function game.legal_moves(ctx, state, seat) return {\n"
                   "  {type = 'bump', a = 'v', b = 'w'}, {type = 'bump', a = 'v\\0b\\0' .. '4w'},\n"
                   "  {type = 'bump', a = '1'}, {type = 'bump', a = 1}, {type = 'bump', a = true},\n"
                   "  {type = 'bump', a = 'v', b = 'w'}, {type = 'bump', a = 1.5}} end"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  std::vector<Move> moves;
  ASSERT_TRUE(rules->LegalMoves(s, 0, &moves).ok());
  ASSERT_EQ(moves.size(), 7u);
  EXPECT_EQ(*moves[0].args, (Json{{"a", "v"}, {"b", "w"}}));
  EXPECT_EQ(*moves[1].args, (Json{{"a", std::string("v\0b\0" "4w", 6)}}));
  EXPECT_EQ(*moves[2].args, (Json{{"a", "1"}}));
  EXPECT_EQ(*moves[3].args, (Json{{"a", 1}}));
  EXPECT_TRUE((*moves[3].args)["a"].is_number_integer());
  EXPECT_EQ(*moves[4].args, (Json{{"a", true}}));
  EXPECT_EQ(*moves[6].args, (Json{{"a", 1.5}}));
  for (size_t i = 0; i < 5; ++i)
    for (size_t j = i + 1; j < 5; ++j) EXPECT_FALSE(moves[i] == moves[j]) << i << " and " << j;
  EXPECT_TRUE(moves[0] == moves[5]);
}

TEST(HostileRules, GameDataTooBigForTheScriptsMemoryFailsToLoadAsAMemoryError) {
  // Within the JSON limits (entries per container, size), but each empty list is a Lua table.
  std::string big = R"({"cards": [{"id": "token", "count": 4, "kind": "marker", "name": {"en": "Token"}, "bulk": [)";
  for (int i = 0; i < 90000; ++i) big += i ? ",[]" : "[]";
  big += "]}]}";
  TempGame g(Rules(""), big);
  Limits limits;
  limits.memory_bytes = 4u << 20;
  std::unique_ptr<LuaRules> rules;
  const Status st = g.Load(&rules, limits);
  EXPECT_EQ(st.kind, ErrorKind::kMemory) << st.ToString();
  EXPECT_NE(st.message.find("games/hostile/data/cards.json"), std::string::npos) << st.message;
}

TEST(HostileRules, RequireRefusesALinkOutOfTheFolderAndAFifo) {
  TempGame g(Rules("local ok, e = pcall(require, 'secret')\n"
                   "assert(not ok and e:find('refused: a symbolic link', 1, true), e)\n"
                   "local ok2, e2 = pcall(require, 'pipe')\n"
                   "assert(not ok2 and e2:find('not a regular file', 1, true), e2)"));
  {
    std::ofstream(g.root / "outside.lua") << "return 'secret'";
  }
  ASSERT_EQ(symlink((g.root / "outside.lua").c_str(), (g.folder / "secret.lua").c_str()), 0);
  ASSERT_EQ(mkfifo((g.folder / "pipe.lua").c_str(), 0600), 0);
  std::unique_ptr<LuaRules> rules;
  const Status st = g.Load(&rules);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

TEST(HostileRules, AMoveFieldNameThatIsNotUtf8IsRefused) {
  TempGame g(Rules("function game.legal_moves(ctx, state, seat) return {{type = 'bump', ['\\xff'] = 1}} end"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  std::vector<Move> moves;
  const Status st = rules->LegalMoves(s, 0, &moves);
  EXPECT_NE(st.message.find("move field names must be UTF-8 text"), std::string::npos) << st.message;
}

TEST(HostileRules, ADataHandleListedManyTimesCountsAgainstTheCap) {
  TempGame g(Rules("", "state.data.o = {s = ('x'):rep(8 << 20)}\n"
                       "local h, t = state.data.o, {}\n"
                       "for i = 1, 100 do t[i] = h end\n"
                       "state.data.y = t"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  const std::string before = s.Hash();
  const Status st = rules->Apply(&s, 0, Bump());
  EXPECT_NE(st.message.find("cannot store in state.data: the value is larger than 32 MiB"), std::string::npos)
      << st.message;
  EXPECT_EQ(s.Hash(), before);
}

TEST(HostileRules, AMoveRepeatedForeverInRoundOneIsStoppedByThePerRoundLimit) {
  TempGame g("local game = {api_version = 1, moves = {}, categories = {'x'}}\n"
             "function game.setup(ctx, state) state:set_round(1) state.data.n = 0 end\n"
             "function game.to_move(ctx, state) return {1} end\n"
             "function game.legal_moves(ctx, state, seat) return {{type = 'again'}} end\n"
             "function game.moves.again(ctx, state, seat, move) state.data.n = state.data.n + 1 end\n"
             "function game.score(ctx, state) return {{breakdown = {x = 0}}} end\n"
             "return game\n");
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  s.record = false;
  EXPECT_TRUE(rules->CountsRounds());  // learnt from set_round in setup
  std::string error;
  auto bot = MakeBot("random", 1, &error);
  PlayLimits limits;
  limits.max_moves_per_round = 200;
  PlayResult result;
  const Status st = PlayOut(*rules, &s, {bot.get()}, &result, limits);
  EXPECT_NE(st.message.find("round 1 ran 200 moves without the round changing"), std::string::npos) << st.message;
}

TEST(HostileRules, AModuleThatRequiresItselfIsNamedNotAStackOverflow) {
  TempGame g(Rules("local a = require('a')"));
  g.Write("a.lua", "local b = require('b')\nreturn {}");
  g.Write("b.lua", "local a = require('a')\nreturn {}");
  std::unique_ptr<LuaRules> rules;
  const Status st = g.Load(&rules);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_NE(st.message.find("games/hostile/b.lua:1: module 'a' requires itself (a cycle of require calls)"),
            std::string::npos) << st.message;
}

// A module-level table that keeps memory a few bytes under the cap between calls: the game
// goes on, each later call succeeds or ends as a memory error, and the process lives. (The
// abort this guards against, a failed allocation in a host push outside any call, is shown
// at the runtime level by HostileMemory.MemoryLeftAtTheCapDoesNotAbortTheHostsNextPush.)
TEST(HostileRules, MemoryKeptAtTheCapBetweenCallsDoesNotAbortTheHost) {
  TempGame g(Rules("local hoard = {}\n"
                   "function game.moves.bump(ctx, state, seat, move)\n"
                   "  state.data.count = state.data.count + 1\n"
                   // A chain of small tables, kept by the module, up to a few bytes under the
                   // cap (8 MiB here); the move then returns as if nothing happened.
                   "  while collectgarbage('count') * 1024 + 72 < 8 * 1024 * 1024 do hoard.chain = {hoard.chain} end\n"
                   "end\n"));
  Limits limits;
  limits.memory_bytes = 8u << 20;
  std::unique_ptr<LuaRules> rules;
  State state;
  ASSERT_TRUE(g.Start(&rules, &state, limits));
  for (int i = 0; i < 3; ++i) {
    Status st = rules->Apply(&state, 0, Bump());
    // Either the hoarding move ran into the cap itself, or it filled memory and returned.
    EXPECT_TRUE(st.ok() || st.kind == ErrorKind::kMemory) << st.ToString();
    std::vector<int> seats;
    st = rules->ToMove(state, &seats);
    EXPECT_TRUE(st.ok() || st.kind == ErrorKind::kMemory) << st.ToString();
    ScoreTable table;
    st = rules->Score(state, &table);
    EXPECT_TRUE(st.ok() || st.kind == ErrorKind::kMemory) << st.ToString();
  }
}

}  // namespace
}  // namespace plateau::scripting

namespace plateau::scripting {
namespace {

// t[#t] = nil on a state.data list emptied by the script erased before the list's first
// element and crashed the host (found writing the tile-map fixture); on an empty table it now
// removes nothing, as in plain Lua.
// Found by fuzz_lua_values (corpus/fuzz_lua_values/data-string-nul): a string read back from
// state.data was cut at its first NUL byte, so a move saw "ab" where the state held more.
TEST(HostileRules, DataStringsAndKeysWithNulBytesReadBackWhole) {
  TempGame g(Rules("", "state.data.v = 'ab\\0\\0002' state.data.t = {['k\\0x'] = 1}\n"
                       "if state.data.v ~= 'ab\\0\\0002' then error('read back ' .. #state.data.v .. ' bytes') end\n"
                       "local keys = state.data.t local n = 0 for k in pairs(keys) do n = n + 1 assert(k == 'k\\0x', #k) end\n"
                       "assert(n == 1)"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  const Status st = rules->Apply(&s, 0, Bump());
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(s.data["v"], std::string("ab\0\0" "2", 5));
}

TEST(HostileRules, NilAtTheEndOfAnEmptyDataListRemovesNothing) {
  TempGame g(Rules("", "state.data.bag = {'x'} local bag = state.data.bag bag[#bag] = nil bag[#bag] = nil bag[#bag] = nil\n"
                       "state.data.box = {} local box = state.data.box box[#box] = nil"));
  std::unique_ptr<LuaRules> rules;
  State s;
  ASSERT_TRUE(g.Start(&rules, &s));
  const Status st = rules->Apply(&s, 0, Bump());
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(s.data["bag"].is_array() && s.data["bag"].empty());
  EXPECT_TRUE(s.data["box"].empty());
}

}  // namespace
}  // namespace plateau::scripting

namespace plateau::scripting {
bool PushFrozenSource(lua_State* L, int idx);  // sandbox.cc: a frozen proxy's table
namespace {

// Found by tests/fuzz/fuzz_hooks: a bot's trial of one of several simultaneous choices must be
// undone completely, whether the move only commits (others still choosing) or runs them all.
TEST(HostileRules, TrialOfASimultaneousChoiceIsUndoneCompletely) {
  TempGame g("local game = {api_version = 1, moves = {}, categories = {'n'}}\n"
             "function game.setup(ctx, state) state.data.n = 0 end\n"
             "function game.to_move(ctx, state) if state.data.n >= 4 then return {} end return {1, 2} end\n"
             "function game.legal_moves(ctx, state, seat) return {{type = 'play'}} end\n"
             "function game.moves.play(ctx, state, seat, move) state.data.n = (state.data.n or 0) + 1 end\n"
             "function game.score(ctx, state)\n"
             "  return {{breakdown = {n = state.data.n}}, {breakdown = {n = state.data.n}}}\n"
             "end\n"
             "return game\n");
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(g.Load(&rules).ok());
  State s;
  ASSERT_TRUE(rules->NewGame(Json::object(), 2, 1, &s).ok());
  Move play;
  play.type = "play";
  const std::string start = s.Hash();
  ASSERT_TRUE(rules->TryMove(&s, 0, play).ok());  // P1 commits, P2 still to choose
  rules->UndoTrial(&s);
  EXPECT_EQ(s.Hash(), start) << "a committing trial left the state changed";
  ASSERT_TRUE(rules->Apply(&s, 0, play).ok());
  const std::string committed = s.Hash();
  ASSERT_TRUE(rules->TryMove(&s, 1, play).ok());  // the last choice: both handlers run
  rules->UndoTrial(&s);
  EXPECT_EQ(s.Hash(), committed) << "a trial that ran every choice left the state changed";
}

// Found by tests/fuzz/fuzz_lua_values: keys of frozen tables (ctx.data, ctx.params) keep their
// bytes; a NUL byte does not cut a key short and merge it with another.
TEST(HostileRules, FrozenTablesKeepKeysWithNulBytes) {
  Runtime rt;
  lua_State* L = rt.L();
  Json j = Json::object();
  j[""] = 1;
  j[std::string("\0", 1)] = 3;
  PushFrozenJson(L, j);
  int keys = 0;
  ASSERT_TRUE(PushFrozenSource(L, -1));
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    ++keys;
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  EXPECT_EQ(keys, 2);
}

}  // namespace
}  // namespace plateau::scripting
