// The bots' fast measure (issue 19): a game's `totals` hook gives each seat its score total,
// and the Écosystème base computes it rescoring only the grids whose version changed. These
// prove the versions move exactly when the content does (and come back when a trial is
// undone), that every candidate a greedy bot weighs gets the measure the full score gives,
// and that a totals hook that disagrees with the score, or returns nonsense, is caught with
// the file and line of the hook.
#include <gtest/gtest.h>

#include "host/bots.h"
#include "host/conformance.h"
#include "host/draft.h"
#include "scripting/lua_rules.h"
#include "test_util.h"

namespace plateau::scripting {
namespace {

using testing::GamePath;
using testing::LineOf;

// A game of `players` after `moves` random moves.
State Played(LuaRules& rules, int players, int moves, uint64_t seed) {
  Json params;
  EXPECT_TRUE(ResolveParams(rules.info(), Json::object(), &params).ok());
  State s;
  EXPECT_TRUE(rules.NewGame(params, players, seed, &s).ok());
  Rng bot(seed + 5);
  std::vector<int> seats;
  for (int k = 0; k < moves; ++k) {
    EXPECT_TRUE(rules.ToMove(s, &seats).ok());
    if (seats.empty()) break;
    Move m;
    EXPECT_TRUE(rules.RandomMove(s, seats.front(), &bot, &m).ok());
    EXPECT_TRUE(rules.Apply(&s, seats.front(), m).ok());
  }
  return s;
}

std::vector<uint64_t> GridVersions(const State& s) {
  std::vector<uint64_t> out;
  for (const auto& [key, grid] : s.grids) out.push_back(grid.version());
  return out;
}

TEST(Totals, AGridsVersionMovesWithItsCellsAndComesBackWhenATrialIsUndone) {
  Grid g;
  const uint64_t v0 = g.version();
  g.Set(0, 0, Cell{1});
  const uint64_t v1 = g.version();
  EXPECT_NE(v1, v0);
  Grid copy = g;  // the same cells: the same version
  EXPECT_EQ(copy.version(), v1);
  g.SetFaceDown(0, 0, false);  // no change: no new version
  EXPECT_EQ(g.version(), v1);
  g.SetFaceDown(0, 0, true);
  EXPECT_NE(g.version(), v1);
  copy.Take(0, 0);
  EXPECT_NE(copy.version(), v1);
  EXPECT_NE(copy.version(), g.version());

  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load("ecosysteme-savane", {}, &rules).ok());
  State s = Played(*rules, 4, 6, 11);
  std::vector<int> seats;
  ASSERT_TRUE(rules->ToMove(s, &seats).ok());
  const int seat = seats.front();
  std::vector<Move> legal;
  ASSERT_TRUE(rules->LegalMoves(s, seat, &legal).ok());
  const std::vector<uint64_t> before = GridVersions(s);
  const uint64_t data_before = s.data_version;
  const size_t mine = static_cast<size_t>(s.GridIndex(draft::GridKey(seat)));
  for (const Move& m : legal) {
    ASSERT_TRUE(rules->TryMove(&s, seat, m).ok());
    const std::vector<uint64_t> during = GridVersions(s);
    for (size_t k = 0; k < during.size(); ++k) {
      if (k == mine) EXPECT_NE(during[k], before[k]) << "the picker's grid changed";
      else EXPECT_EQ(during[k], before[k]) << "grid " << s.grids[k].first << " did not change";
    }
    EXPECT_EQ(s.data_version, data_before) << "a draft pick leaves state.data alone";
    rules->UndoTrial(&s);
    EXPECT_EQ(GridVersions(s), before);
    EXPECT_EQ(s.data_version, data_before);
  }
  // A move applied for real goes through the rules' hooks: state.data may have changed.
  ASSERT_TRUE(rules->Apply(&s, seat, legal.front()).ok());
  EXPECT_NE(s.data_version, data_before);
}

// Every candidate of every decision of a game, weighed the way the greedy bot weighs it
// (tried in place, measured, undone), gets the measure the full score gives.
void ExpectEveryCandidateMeasuredAsTheScoreMeasuresIt(const std::string& game, int players, uint64_t seed) {
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load(game, {}, &rules).ok());
  Json params;
  ASSERT_TRUE(ResolveParams(rules->info(), Json::object(), &params).ok());
  State s;
  ASSERT_TRUE(rules->NewGame(params, players, seed, &s).ok());
  Rng bot(seed);
  std::vector<int> seats;
  int candidates = 0;
  for (int decision = 0; decision < 200; ++decision) {
    ASSERT_TRUE(rules->ToMove(s, &seats).ok());
    if (seats.empty()) break;
    const int seat = seats.front();
    std::vector<Move> legal;
    ASSERT_TRUE(rules->LegalMoves(s, seat, &legal).ok());
    for (const Move& m : legal) {
      ASSERT_TRUE(rules->TryMove(&s, seat, m).ok());
      double fast = 0, full = 0;
      ASSERT_TRUE(rules->Evaluate(s, seat, &fast).ok());
      ASSERT_TRUE(rules->Rules::Evaluate(s, seat, &full).ok());
      EXPECT_EQ(fast, full) << game << ": decision " << decision << ", " << MoveToString(m, *s.cards);
      ASSERT_TRUE(rules->CheckTotals(s).ok());
      rules->UndoTrial(&s);
      ++candidates;
    }
    Move m;
    ASSERT_TRUE(rules->RandomMove(s, seat, &bot, &m).ok());
    ASSERT_TRUE(rules->Apply(&s, seat, m).ok());
  }
  EXPECT_GT(candidates, 100) << game;
}

TEST(Totals, EverySavaneCandidateIsMeasuredAsTheScoreMeasuresIt) {
  ExpectEveryCandidateMeasuredAsTheScoreMeasuresIt("ecosysteme-savane", 4, 3);
  ExpectEveryCandidateMeasuredAsTheScoreMeasuresIt("ecosysteme-savane", 2, 4);  // the neutral seat ranks
  ExpectEveryCandidateMeasuredAsTheScoreMeasuresIt("ecosysteme-savane", 1, 9);  // Jhay
}

TEST(Totals, EveryEcosystemCandidateIsMeasuredAsTheScoreMeasuresIt) {
  ExpectEveryCandidateMeasuredAsTheScoreMeasuresIt("ecosystem", 4, 5);
}

TEST(Totals, EveryOceanCandidateIsMeasuredAsTheScoreMeasuresIt) {
  // Whales search their flips against every seat's plankton: kept only while those hold.
  ExpectEveryCandidateMeasuredAsTheScoreMeasuresIt("ecosysteme-ocean", 4, 6);
  ExpectEveryCandidateMeasuredAsTheScoreMeasuresIt("ecosysteme-ocean", 2, 7);
  ExpectEveryCandidateMeasuredAsTheScoreMeasuresIt("ecosysteme-ocean", 1, 8);  // Tim
}

TEST(Totals, ATotalsHookThatDisagreesWithTheScoreFailsConformanceNamingSeatAndLine) {
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load(GamePath("safety-bad-totals"), {}, &rules).ok());
  ConformanceSpec spec;
  spec.games = 2;
  ConformanceReport report;
  ASSERT_TRUE(RunConformance(*rules, "safety-bad-totals", spec, &report).ok());
  ASSERT_EQ(report.failures.size(), 1u);
  EXPECT_EQ(report.failures[0].check, "totals");
  const std::string line = std::to_string(LineOf("safety-bad-totals", "function game.totals"));
  EXPECT_NE(report.failures[0].message.find("games/safety-bad-totals/rules.lua:" + line +
                                            ": totals: seat 2 (P2) has 2 where score's total is 1"),
            std::string::npos)
      << report.failures[0].message;
}

TEST(Totals, ATotalsHookReturningTextFailsTheBotsMeasureNamingSeatAndLine) {
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load(GamePath("safety-bad-totals"), {}, &rules).ok());
  State s = Played(*rules, 2, 3, 1);  // seat 1 holds two tokens
  double v = 0;
  Status st = rules->Evaluate(s, 0, &v);
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "games/safety-bad-totals/rules.lua:" +
                            std::to_string(LineOf("safety-bad-totals", "function game.totals")) +
                            ": totals: total for seat 1 is string, an integer within ±1000000000000 is expected");
}

}  // namespace
}  // namespace plateau::scripting
