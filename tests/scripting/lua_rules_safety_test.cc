// LuaRules safety: failing, looping or refused rule hooks leave the game state byte-identical, and bad rules scripts fail to load with named errors.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "scripting/lua_rules.h"
#include "test_util.h"

namespace plateau::scripting {
namespace {

using testing::GamePath;
using testing::LineOf;
using testing::SecondsSince;

std::unique_ptr<LuaRules> LoadOrDie(const std::string& name, const Limits& limits = {}) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath(name), limits, &rules);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return rules;
}

Move MoveOf(const std::string& type) {
  Move m;
  m.type = type;
  return m;
}

// A new two-player counter game, and the rules that run it.
struct CounterGame {
  explicit CounterGame(const Limits& limits = {}) {
    rules = LoadOrDie("safety-counter", limits);
    if (!rules) return;
    Status st = rules->NewGame(Json::object(), 2, 1234, &state);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  std::unique_ptr<LuaRules> rules;
  State state;
};

// ---- state is untouched by failing moves ------------------------------------------------

TEST(LuaRulesSafety, NormalMoveChangesStateAndScores) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("bump"));
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_NE(g.state.Hash(), before);
  EXPECT_EQ(g.state.data["count"], 1);
  EXPECT_EQ(g.state.data["turn"], 2);
  ScoreTable score;
  st = g.rules->Score(g.state, &score);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(score.lines.size(), 2u);
  EXPECT_EQ(score.lines[0].total, 1);
  EXPECT_EQ(score.lines[1].total, 0);
}

TEST(LuaRulesSafety, MoveThatWritesDataThenErrorsLeavesHashUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  ASSERT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("bump")).ok());
  const std::string before = g.state.Hash();
  const int moves_before = g.state.move_count;
  Status st = g.rules->Apply(&g.state, 1, MoveOf("fail_after_write"));
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.ToString();
  EXPECT_NE(st.message.find("games/safety-counter/rules.lua:" + std::to_string(LineOf("safety-counter",
                                                                                        "error('fails after writing')")) +
                            ": fails after writing"),
            std::string::npos)
      << st.message;
  EXPECT_EQ(g.state.Hash(), before);
  EXPECT_EQ(g.state.move_count, moves_before);
  EXPECT_FALSE(g.state.data.contains("junk"));
  EXPECT_EQ(g.state.flow.phase, "play");
  // The game goes on from the restored state.
  st = g.rules->Apply(&g.state, 1, MoveOf("bump"));
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(g.state.data["count"], 2);
}

TEST(LuaRulesSafety, MoveThatTouchesEveryPartThenErrorsIsUndoneExactly) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  ASSERT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("bump")).ok());
  const Json before = g.state.ToJson();  // the log included
  Status st = g.rules->Apply(&g.state, 1, MoveOf("touch_everything_then_fail"));
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.ToString();
  EXPECT_NE(st.message.find("fails after touching everything"), std::string::npos) << st.message;
  EXPECT_EQ(g.state.ToJson(), before);
  EXPECT_EQ(g.state.FindZone("extra", -1), nullptr);
  EXPECT_EQ(g.state.ZoneIndex("bag", -1), 0);  // the zone index is rebuilt after the undo
  // The game goes on from the restored state, twice (the journal is reusable).
  ASSERT_TRUE(g.rules->Apply(&g.state, 1, MoveOf("bump")).ok());
  const Json after_bump = g.state.ToJson();
  EXPECT_EQ(g.rules->Apply(&g.state, 0, MoveOf("touch_everything_then_fail")).kind, ErrorKind::kScript);
  EXPECT_EQ(g.state.ToJson(), after_bump);
}

TEST(LuaRulesSafety, ScalarsOverwrittenInPlaceThenRegrownAreUndoneExactly) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  ASSERT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("bump")).ok());
  const Json before = g.state.ToJson();
  EXPECT_EQ(g.rules->Apply(&g.state, 1, MoveOf("overwrite_then_grow_then_fail")).kind, ErrorKind::kScript);
  EXPECT_EQ(g.state.ToJson(), before);
  // A bot's trial that succeeds is taken back by UndoTrial, on the state itself.
  ASSERT_TRUE(g.rules->TryMove(&g.state, 1, MoveOf("overwrite_then_grow")).ok());
  EXPECT_EQ(g.state.data["deep"]["list"], (Json{11, 20, 3, 4}));
  EXPECT_EQ(g.state.data["deep"]["a"]["b"]["c"], 7);
  EXPECT_EQ(g.state.data["count"], (Json{{"was", 5}}));
  EXPECT_EQ(g.state.data["turn"], 2);
  g.rules->UndoTrial(&g.state);
  EXPECT_EQ(g.state.ToJson(), before);
  // And the move applied for real keeps what it wrote.
  ASSERT_TRUE(g.rules->Apply(&g.state, 1, MoveOf("overwrite_then_grow")).ok());
  EXPECT_EQ(g.state.data["deep"]["list"], (Json{11, 20, 3, 4}));
}

TEST(LuaRulesSafety, ATrialInsideATrialIsUndoneExactly) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  ASSERT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("bump")).ok());
  const Json before = g.state.ToJson();
  // The outer trial overwrites numbers in place (kept as slots); the inner one runs on a copy
  // that is put back over the state, moving every node of state.data.
  ASSERT_TRUE(g.rules->TryMove(&g.state, 1, MoveOf("bump")).ok());  // count and turn in place
  const Json outer = g.state.ToJson();
  ASSERT_TRUE(g.rules->TryMove(&g.state, 0, MoveOf("bump")).ok());
  g.rules->UndoTrial(&g.state);
  EXPECT_EQ(g.state.ToJson(), outer);
  g.rules->UndoTrial(&g.state);
  EXPECT_EQ(g.state.ToJson(), before);
}

TEST(LuaRulesSafety, AFailedAnswerLeavesTheQuestionStanding) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  ASSERT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("ask_self")).ok());
  ASSERT_TRUE(g.state.flow.HasAsks());
  const Json before = g.state.ToJson();
  EXPECT_EQ(g.rules->Apply(&g.state, 0, MoveOf("answer_then_fail")).kind, ErrorKind::kScript);
  EXPECT_EQ(g.state.ToJson(), before);
  // A bot's trial of the answer is taken back the same way.
  State scratch = g.state;
  const Json scratch_before = scratch.ToJson();
  EXPECT_EQ(g.rules->TryMove(&scratch, 0, MoveOf("answer_then_fail")).kind, ErrorKind::kScript);
  EXPECT_EQ(scratch.ToJson(), scratch_before);
  std::vector<int> seats;
  ASSERT_TRUE(g.rules->ToMove(g.state, &seats).ok());
  EXPECT_EQ(seats, std::vector<int>{0});
}

TEST(LuaRulesSafety, AnAnswerThatAsksAgainIsTakenBackToTheFirstQuestion) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  ASSERT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("ask_twice")).ok());
  const Json before = g.state.ToJson();
  EXPECT_EQ(g.rules->Apply(&g.state, 0, MoveOf("reask_then_fail")).kind, ErrorKind::kScript);
  EXPECT_EQ(g.state.ToJson(), before);
  ASSERT_TRUE(g.rules->TryMove(&g.state, 0, MoveOf("reask")).ok());
  ASSERT_EQ(g.state.flow.asks[0].size(), 1u);
  EXPECT_EQ(g.state.flow.asks[0][0].type, "answer_then_fail");
  g.rules->UndoTrial(&g.state);
  EXPECT_EQ(g.state.ToJson(), before);
  ASSERT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("reask")).ok());
  EXPECT_EQ(g.state.flow.asks[0][0].type, "answer_then_fail");
}

TEST(LuaRulesSafety, MoveThatLoopsForeverReturnsBudgetWithHashUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  const auto start = std::chrono::steady_clock::now();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("loop_after_write"));
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_EQ(st.kind, ErrorKind::kBudget) << st.ToString();
  EXPECT_NE(st.message.find("moves.loop_after_write"), std::string::npos) << st.message;
  EXPECT_EQ(g.state.Hash(), before);
  EXPECT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("bump")).ok());
}

TEST(LuaRulesSafety, MoveThatSwallowsBudgetWithPcallStillFailsWithHashUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("swallow_budget"));
  EXPECT_EQ(st.kind, ErrorKind::kBudget) << st.ToString();
  EXPECT_EQ(g.state.Hash(), before);
}

TEST(LuaRulesSafety, MoveThatExhaustsMemoryReturnsMemoryWithHashUnchanged) {
  Limits limits;
  limits.memory_bytes = 16u << 20;
  CounterGame g(limits);
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("hog_memory"));
  EXPECT_EQ(st.kind, ErrorKind::kMemory) << st.ToString();
  EXPECT_EQ(g.state.Hash(), before);
  st = g.rules->Apply(&g.state, 0, MoveOf("bump"));
  EXPECT_TRUE(st.ok()) << "the VM keeps working after a memory kill: " << st.ToString();
}

TEST(LuaRulesSafety, MoveThatDrawsRandomNumbersThenErrorsLeavesRngUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  const Rng rng_before = g.state.rng;
  Status st = g.rules->Apply(&g.state, 0, MoveOf("roll_then_fail"));
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.ToString();
  EXPECT_TRUE(g.state.rng == rng_before);
  EXPECT_EQ(g.state.Hash(), before);
}

TEST(LuaRulesSafety, MoveStoringAFunctionInStateDataFailsWithHashUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("bad_type"));
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.ToString();
  EXPECT_NE(st.message.find("games/safety-counter/rules.lua:" +
                            std::to_string(LineOf("safety-counter", "state.data.fn = function")) + ":"),
            std::string::npos)
      << st.message;
  EXPECT_EQ(g.state.Hash(), before);
}

TEST(LuaRulesSafety, MoveStoringACyclicTableInStateDataFailsWithHashUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("store_cycle"));
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.ToString();
  EXPECT_NE(st.message.find("cannot store in state.data"), std::string::npos) << st.message;
  EXPECT_EQ(g.state.Hash(), before);
}

// ctx.rng:shuffle and :pick refuse a list with a __len metamethod (here one that loops
// forever): host code never calls it, where a loop would be one uncharged C call.
TEST(LuaRulesSafety, HostBindingsIgnoreALengthMetamethod) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  const auto start = std::chrono::steady_clock::now();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("len_loop"));
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.ToString();
  EXPECT_NE(st.message.find("a list with a __len metamethod is not accepted"), std::string::npos) << st.message;
  EXPECT_EQ(g.state.Hash(), before);
  EXPECT_FALSE(g.rules->Apply(&g.state, 0, MoveOf("shuffle_loop")).ok());
  EXPECT_EQ(g.state.Hash(), before);
  EXPECT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("bump")).ok());
}

TEST(LuaRulesSafety, HandlerRefusingWithFalseAndReasonIsIllegalWithHashUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("refuse_after_write"));
  EXPECT_EQ(st.kind, ErrorKind::kIllegal) << st.ToString();
  EXPECT_EQ(st.message, "not now");
  EXPECT_EQ(g.state.Hash(), before);
}

TEST(LuaRulesSafety, MoveNotAmongLegalMovesIsRefusedWithStateUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("teleport"));
  EXPECT_EQ(st.kind, ErrorKind::kIllegal) << st.ToString();
  EXPECT_NE(st.message.find("not among"), std::string::npos) << st.message;
  EXPECT_EQ(g.state.Hash(), before);
}

TEST(LuaRulesSafety, MoveOutOfTurnIsRefusedWithStateUnchanged) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 1, MoveOf("bump"));  // seat 1 moves first
  EXPECT_EQ(st.kind, ErrorKind::kIllegal) << st.ToString();
  EXPECT_EQ(g.state.Hash(), before);
}

// ---- the budget is the caller's to choose ---------------------------------------------

TEST(LuaRulesSafety, DefaultBudgetAllowsAModestLoop) {
  CounterGame g;
  ASSERT_TRUE(g.rules);
  Status st = g.rules->Apply(&g.state, 0, MoveOf("work"));
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(g.state.data["work"], 4500001500000LL);
}

TEST(LuaRulesSafety, TinyCallBudgetKillsTheSameModestLoop) {
  Limits limits;
  limits.call_instructions = 10'000;
  CounterGame g(limits);
  ASSERT_TRUE(g.rules);
  const std::string before = g.state.Hash();
  Status st = g.rules->Apply(&g.state, 0, MoveOf("work"));
  EXPECT_EQ(st.kind, ErrorKind::kBudget) << st.ToString();
  EXPECT_EQ(st.message, "games/safety-counter/rules.lua:66: instruction budget of 10000 exceeded in hook 'moves.work'");
  EXPECT_EQ(g.state.Hash(), before);
  // Short hooks still run under the tiny budget (they finish before it is armed).
  EXPECT_TRUE(g.rules->Apply(&g.state, 0, MoveOf("bump")).ok());
}

// ---- hooks that only look --------------------------------------------------------------

TEST(LuaRulesSafety, QueryHookWritingStateFailsAsReadOnly) {
  auto rules = LoadOrDie("safety-readonly");
  ASSERT_TRUE(rules);
  State state;
  ASSERT_TRUE(rules->NewGame(Json::object(), 1, 1, &state).ok());
  const std::string before = state.Hash();
  std::vector<int> seats;
  Status st = rules->ToMove(state, &seats);
  EXPECT_EQ(st.kind, ErrorKind::kScript) << st.ToString();
  EXPECT_NE(st.message.find("games/safety-readonly/rules.lua:" +
                            std::to_string(LineOf("safety-readonly", "state.data.count = 1")) + ":"),
            std::string::npos)
      << st.message;
  EXPECT_NE(st.message.find("read-only in hook 'to_move'"), std::string::npos) << st.message;
  EXPECT_EQ(state.Hash(), before);
}

TEST(LuaRulesSafety, ScoreBreakdownStringFailsNamingRulesFileAndLine) {
  auto rules = LoadOrDie("safety-bad-score");
  ASSERT_TRUE(rules);
  State state;
  ASSERT_TRUE(rules->NewGame(Json::object(), 1, 1, &state).ok());
  ScoreTable score;
  Status st = rules->Score(state, &score);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  const int line = LineOf("safety-bad-score", "function game.score");
  ASSERT_GT(line, 0);
  EXPECT_EQ(st.message, "games/safety-bad-score/rules.lua:" + std::to_string(line) +
                            ": score: breakdown 'points' for seat 1 is string, an integer within ±1000000000000 is expected");
}

// ---- rules scripts that must not load --------------------------------------------------

TEST(LuaRulesSafety, UnknownGameTableFieldFailsToLoadNamingTheField) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("safety-unknown-field"), {}, &rules);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message.rfind("games/safety-unknown-field/rules.lua: unknown field 'colour' in the game table", 0), 0u)
      << st.message;
  EXPECT_FALSE(rules);
}

TEST(LuaRulesSafety, RulesScriptReturningANumberFailsToLoad) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("safety-returns-number"), {}, &rules);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/safety-returns-number/rules.lua: the rules script must return the game table, got number");
  EXPECT_FALSE(rules);
}

TEST(LuaRulesSafety, RulesScriptLoopingAtLoadHitsTheLoadBudget) {
  Limits limits;
  limits.load_instructions = 2'000'000;
  std::unique_ptr<LuaRules> rules;
  const auto start = std::chrono::steady_clock::now();
  Status st = LuaRules::Load(GamePath("safety-load-loop"), limits, &rules);
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_EQ(st.kind, ErrorKind::kBudget) << st.ToString();
  EXPECT_EQ(st.message, "games/safety-load-loop/rules.lua:3: instruction budget of 2000000 exceeded in hook 'load rules.lua'");
  EXPECT_FALSE(rules);
}

TEST(LuaRulesSafety, RulesScriptSyntaxErrorNamesFileAndLine) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("safety-syntax"), {}, &rules);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message.rfind("games/safety-syntax/rules.lua:4:", 0), 0u) << st.message;
  EXPECT_FALSE(rules);
}

TEST(LuaRulesSafety, RulesScriptSmugglingAFinalizerAtLoadIsRefused) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GamePath("safety-gc-smuggle"), {}, &rules);
  EXPECT_EQ(st.kind, ErrorKind::kSandbox) << st.ToString();
  EXPECT_EQ(st.message.rfind("games/safety-gc-smuggle/rules.lua:2: sandbox: metatable field '__gc'", 0), 0u)
      << st.message;
  EXPECT_FALSE(rules);
}

}  // namespace
}  // namespace plateau::scripting
