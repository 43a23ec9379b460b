// The designer's report: game stats aggregated over many games, endings, tags, per-bot win
// rates, the round-limit safety net and the findings, on the native Pig game.
#include "host/simulate.h"

#include <gtest/gtest.h>

#include "tests/host/pig_game.h"

namespace plateau {
namespace {

using testing::PigGame;

SimulationReport RunPig(SimulationSpec spec, bool endless = false) {
  SimulationReport report;
  const Status st = Simulate(
      [&](std::unique_ptr<Rules>* out) {
        *out = std::make_unique<PigGame>(20, endless);
        return Status::Ok();
      },
      spec, &report);
  EXPECT_TRUE(st.ok()) << st.message;
  return report;
}

TEST(Simulate, ReportsTheGamesOwnMeasurements) {
  SimulationSpec spec;
  spec.games = 50;
  spec.players = 2;
  spec.bots = {"random"};
  const SimulationReport r = RunPig(spec);
  EXPECT_EQ(r.games, 50);
  EXPECT_EQ(r.endings.at("target"), 50);
  EXPECT_EQ(r.tags.at("duel").games, 50);
  ASSERT_TRUE(r.metrics.count("reached:target"));
  // Exactly one player reaches the target in each game, and that player wins it.
  EXPECT_EQ(r.metrics.at("reached:target").happened, 50);
  EXPECT_DOUBLE_EQ(r.metrics.at("reached:target").wins_when, 50);
  EXPECT_GT(r.rounds.Mean(), 1);
  EXPECT_DOUBLE_EQ(r.seat_wins[0] + r.seat_wins[1], 50);
  // A member of a group that never happens is a finding.
  bool never = false;
  for (const auto& f : r.findings) never |= f.find("'reached:never' never happened in 50 games") != std::string::npos;
  EXPECT_TRUE(never);
  const Json j = r.ToJson();
  EXPECT_EQ(j["endings"]["target"], 50);
  EXPECT_EQ(j["player_metrics"]["reached:target"]["happened_rate"], 0.5);
  EXPECT_TRUE(j["findings"].is_array());
}

TEST(Simulate, WinRatesPerBot) {
  SimulationSpec spec;
  spec.games = 40;
  spec.players = 2;
  spec.bots = {"mcts:iters=60", "random"};
  const SimulationReport r = RunPig(spec);
  const Json j = r.ToJson();
  EXPECT_GT(j["bots"]["mcts:iters=60"]["win_rate"].get<double>(), j["bots"]["random"]["win_rate"].get<double>());
  // A stronger bot winning is not a dominant seat: seats are compared within one bot.
  for (const auto& f : r.findings) EXPECT_EQ(f.find("dominant seat"), std::string::npos) << f;
}

TEST(Simulate, GamesPastTheRoundLimitAreStoppedAndReported) {
  SimulationSpec spec;
  spec.games = 6;
  spec.players = 2;
  spec.bots = {"random"};
  spec.max_rounds = 5;
  const SimulationReport r = RunPig(spec, /*endless=*/true);
  EXPECT_EQ(r.failed, 0);
  EXPECT_EQ(r.stopped, 6);
  EXPECT_EQ(r.endings.at("round limit"), 6);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_NE(r.findings[0].find("6 of 6 games did not end within 5 rounds"), std::string::npos) << r.findings[0];
  EXPECT_EQ(r.stopped_seeds.size(), 5u);
}

// The whole report, field for field, but the time it took.
Json Untimed(const SimulationReport& r) {
  Json j = r.ToJson();
  j.erase("seconds");
  j.erase("games_per_second");
  return j;
}

TEST(Simulate, AnyNumberOfThreadsGivesTheSameReport) {
  SimulationSpec spec;
  spec.games = 203;  // not a whole number of chunks
  spec.players = 3;
  spec.bots = {"random", "greedy"};
  const Json one = Untimed(RunPig(spec));
  for (int threads : {2, 3, 7}) {
    spec.threads = threads;
    EXPECT_EQ(Untimed(RunPig(spec)), one) << threads << " threads";
  }
  // Games stopped at the round limit are listed by seed, the first ones whatever ran where.
  spec.games = 40;
  spec.max_rounds = 3;
  spec.threads = 1;
  const SimulationReport endless_one = RunPig(spec, true);
  spec.threads = 4;
  const SimulationReport endless_four = RunPig(spec, true);
  EXPECT_EQ(endless_one.stopped_seeds, endless_four.stopped_seeds);
  EXPECT_EQ(endless_one.stopped_seeds.front(), spec.seed);
}

}  // namespace
}  // namespace plateau
