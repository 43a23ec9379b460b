// The evaluate_moves hook (issue 29): one call values every candidate of a decision. The bots
// choose exactly what trying each move would have chosen (greedy and heuristic, the heuristic's
// own random stream included), and a hook that breaks its contract (a wrong value, a value for
// no move, NaN, a value for a move that draws random numbers) is refused naming its line, by
// the bot at once or by the conformance checks.
#include <gtest/gtest.h>

#include "host/bots.h"
#include "host/conformance.h"
#include "scripting/lua_rules.h"
#include "tests/scripting/test_util.h"

namespace plateau {
namespace {

using scripting::LuaRules;
using scripting::testing::GamePath;
using scripting::testing::LineOf;

struct Played {
  std::vector<std::string> moves;  // the moves played, in order
  Status status;
};

Played Play(const std::string& bots, const Json& given, int players, uint64_t seed,
            const std::string& game = "evaluate-moves") {
  std::unique_ptr<LuaRules> rules;
  Played out;
  out.status = LuaRules::Load(GamePath(game), {}, &rules);
  if (!out.status.ok()) return out;
  Json params;
  out.status = ResolveParams(rules->info(), given, &params);
  State s;
  if (out.status.ok()) out.status = rules->NewGame(params, players, seed, &s);
  std::string error;
  std::vector<std::unique_ptr<Bot>> owned;
  for (int i = 0; i < players; ++i) owned.push_back(MakeBot(bots, seed * 7 + static_cast<uint64_t>(i), &error));
  while (out.status.ok()) {
    std::vector<int> seats;
    out.status = rules->ToMove(s, &seats);
    if (!out.status.ok() || seats.empty()) break;
    Move m;
    out.status = owned[static_cast<size_t>(seats.front())]->ChooseIn(*rules, &s, seats.front(), &m);
    if (out.status.ok()) out.status = rules->Apply(&s, seats.front(), m);
    out.moves.push_back(std::to_string(seats.front()) + " " + MoveToString(m, *s.cards));
  }
  return out;
}

TEST(EvaluateMoves, BotsChooseExactlyWhatTheirTrialsWouldChoose) {
  for (const char* bot : {"greedy", "heuristic:samples=3"})
    for (int players : {1, 2, 4})
      for (uint64_t seed = 1; seed <= 6; ++seed) {
        const Played with = Play(bot, {{"hook", true}}, players, seed);
        const Played relative = Play(bot, {{"hook", true}, {"relative", true}}, players, seed);
        const Played without = Play(bot, {{"hook", false}}, players, seed);
        ASSERT_TRUE(with.status.ok()) << with.status.ToString();
        ASSERT_TRUE(relative.status.ok()) << relative.status.ToString();
        ASSERT_TRUE(without.status.ok()) << without.status.ToString();
        EXPECT_EQ(with.moves, without.moves) << bot << ", " << players << " players, seed " << seed;
        EXPECT_EQ(relative.moves, without.moves) << bot << ", relative values, " << players << " players, seed " << seed;
      }
}

ConformanceReport Check(const std::string& lie) {
  // The hook's check on the first decision of a game whose hook lies that way.
  ConformanceReport report;
  std::unique_ptr<LuaRules> lying;
  EXPECT_TRUE(LuaRules::Load(GamePath("evaluate-moves"), {}, &lying).ok());
  Json params;
  EXPECT_TRUE(ResolveParams(lying->info(), {{"lie", lie}}, &params).ok());
  State s;
  EXPECT_TRUE(lying->NewGame(params, 2, 1, &s).ok());
  std::vector<Move> moves;
  EXPECT_TRUE(lying->LegalMoves(s, 0, &moves).ok());
  const Status st = lying->CheckEvaluateMoves(s, 0, moves);
  if (!st.ok()) report.failures.push_back({"evaluate_moves", st.ToString(), ""});
  return report;
}

TEST(EvaluateMoves, TheConformanceChecksHoldEveryValueToItsTrial) {
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load(GamePath("evaluate-moves"), {}, &rules).ok());
  ConformanceSpec spec;
  spec.games = 6;
  ConformanceReport report;
  ASSERT_TRUE(RunConformance(*rules, "evaluate-moves", spec, &report).ok());
  EXPECT_TRUE(report.failures.empty()) << report.failures.front().message;
  const std::string where = "games/evaluate-moves/rules.lua:" + std::to_string(LineOf("evaluate-moves", "function game.evaluate_moves"));
  const ConformanceReport lie = Check("value");
  ASSERT_EQ(lie.failures.size(), 1u);
  EXPECT_NE(lie.failures[0].message.find(where + ": evaluate_moves: move 1 ({\"by\":1,\"type\":\"bump\"}) is valued 2 where a trial of the move gives 1"),
            std::string::npos)
      << lie.failures[0].message;
  const ConformanceReport chance = Check("chance");
  ASSERT_EQ(chance.failures.size(), 1u);
  EXPECT_NE(chance.failures[0].message.find("move 3 ({\"type\":\"roll\"}) draws random numbers when it is played"), std::string::npos)
      << chance.failures[0].message;
}

TEST(EvaluateMoves, ABotNeverTakesAListOfTheWrongShapeOrANaN) {
  const Played extra = Play("greedy", {{"lie", "extra"}}, 2, 1);
  EXPECT_EQ(extra.status.kind, ErrorKind::kScript);
  EXPECT_NE(extra.status.message.find("evaluate_moves: returned 3 values where the 3 moves it was given take at most one each"),
            std::string::npos)
      << extra.status.message;
  const Played nan = Play("greedy", {{"lie", "nan"}}, 2, 1);
  EXPECT_EQ(nan.status.kind, ErrorKind::kScript);
  EXPECT_NE(nan.status.message.find("the value for move 2 ({\"by\":2,\"type\":\"bump\"}) is nan"), std::string::npos)
      << nan.status.message;
}

TEST(EvaluateMoves, ValuesRelativeToABaseMoveAreHeldToTrialsToo) {
  // Every decision of whole games, every value against its trial.
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load(GamePath("evaluate-moves"), {}, &rules).ok());
  Json params;
  ASSERT_TRUE(ResolveParams(rules->info(), {{"relative", true}}, &params).ok());
  for (int players : {1, 2, 4}) {
    State s;
    ASSERT_TRUE(rules->NewGame(params, players, 3, &s).ok());
    Rng pick(5);
    for (int decisions = 0;; ++decisions) {
      std::vector<int> seats;
      ASSERT_TRUE(rules->ToMove(s, &seats).ok());
      if (seats.empty()) break;
      std::vector<Move> moves;
      ASSERT_TRUE(rules->LegalMoves(s, seats.front(), &moves).ok());
      const Status st = rules->CheckEvaluateMoves(s, seats.front(), moves);
      ASSERT_TRUE(st.ok()) << st.ToString() << " (" << players << " players, decision " << decisions << ")";
      ASSERT_TRUE(rules->Apply(&s, seats.front(), moves[pick.Below(static_cast<uint32_t>(moves.size()))]).ok());
    }
  }
  const ConformanceReport lie = Check("relative_value");
  ASSERT_EQ(lie.failures.size(), 1u);
  EXPECT_NE(lie.failures[0].message.find("evaluate_moves: move 2 ({\"by\":2,\"type\":\"bump\"}) is valued"), std::string::npos)
      << lie.failures[0].message;
  const ConformanceReport chance = Check("base_chance");
  ASSERT_EQ(chance.failures.size(), 1u);
  EXPECT_NE(chance.failures[0].message.find("the base move 3 ({\"type\":\"roll\"}) draws random numbers when it is played"),
            std::string::npos)
      << chance.failures[0].message;
}

TEST(EvaluateMoves, ABaseThatIsNoMoveOrValuesItselfIsRefused) {
  const Played range = Play("greedy", {{"lie", "base_range"}}, 2, 1);
  EXPECT_EQ(range.status.kind, ErrorKind::kScript);
  EXPECT_NE(range.status.message.find("its second result (the base move the values are relative to) is 4, not the index of one of the 3 moves"),
            std::string::npos)
      << range.status.message;
  const Played own = Play("greedy", {{"lie", "base_own"}}, 2, 1);
  EXPECT_EQ(own.status.kind, ErrorKind::kScript);
  EXPECT_NE(own.status.message.find("the base move 1 ({\"by\":1,\"type\":\"bump\"}) adds 3 to itself"), std::string::npos)
      << own.status.message;
  // A base whose trial draws: the bot tries every move instead (the checks above refuse it).
  const Played chance = Play("greedy", {{"lie", "base_chance"}}, 2, 1);
  const Played without = Play("greedy", {{"hook", false}}, 2, 1);
  ASSERT_TRUE(chance.status.ok()) << chance.status.ToString();
  EXPECT_EQ(chance.moves, without.moves);
}

// Moves made by ctx.move (frozen: nothing can write into them) reach evaluate_moves as the very
// tables legal_moves listed, not as copies built per decision (converting them was 5% of a
// heuristic Chenilles game); the bots choose as with plain tables.
TEST(EvaluateMoves, FrozenMovesReachTheHookAsListed) {
  for (const std::string bots : {"greedy", "heuristic"}) {
    const Played frozen = Play(bots, {{"frozen", true}}, 3, 5);
    ASSERT_TRUE(frozen.status.ok()) << frozen.status.message;
    EXPECT_EQ(frozen.moves, Play(bots, {{"frozen", false}}, 3, 5).moves) << bots;
  }
}

// The draft picks the host lists reach evaluate_moves as tables kept from one decision to the
// next (building them was a tenth of a greedy Écosystème game). Kept tables must behave as
// fresh ones: a field added to one is refused at once, naming the hook's line, and a field
// overwritten is never seen by a later decision (tests/data/games/listed-moves).
TEST(EvaluateMoves, AFieldAddedToAListedPickIsRefused) {
  const Played added = Play("greedy", {{"write", "add"}}, 2, 3, "listed-moves");
  EXPECT_EQ(added.status.kind, ErrorKind::kScript);
  EXPECT_NE(added.status.message.find("listed-moves/rules.lua:" + std::to_string(LineOf("listed-moves", "moves[1].note")) +
                                      ": the moves handed to evaluate_moves are read-only"),
            std::string::npos)
      << added.status.message;
}

TEST(EvaluateMoves, AFieldOverwrittenInAListedPickIsNotSeenByTheNextDecision) {
  for (uint64_t seed : {1, 2, 3}) {
    const Played written = Play("greedy", {{"write", "overwrite"}}, 3, seed, "listed-moves");
    EXPECT_TRUE(written.status.ok()) << written.status.message;
    EXPECT_GT(written.moves.size(), 40u) << "the draft was played to its end";
    // Nor do the bots' choices change: the same game as with a hook that writes nothing.
    EXPECT_EQ(written.moves, Play("greedy", {{"write", "none"}}, 3, seed, "listed-moves").moves);
  }
}

}  // namespace
}  // namespace plateau
