// The designer's report: game stats aggregated over many games, endings, tags, per-bot win
// rates, the round-limit safety net and the findings, on the native Pig game.
#include "host/simulate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "tests/host/pig_game.h"

namespace plateau {
namespace {

using testing::PigGame;

// Runs `spec` on fresh rules of type R, made from `args`, one per worker.
template <class R, class... Args>
Status RunRules(const SimulationSpec& spec, SimulationReport* report, Args... args) {
  return Simulate(
      [=](std::unique_ptr<Rules>* out) {
        *out = std::make_unique<R>(args...);
        return Status::Ok();
      },
      spec, report);
}

SimulationReport RunPig(SimulationSpec spec, bool endless = false) {
  SimulationReport report;
  const Status st = RunRules<PigGame>(spec, &report, 20, endless);
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

// The distributions plateau studio plots count each game once per seat, whatever the threads,
// and agree with the report's means; the progress counter reaches the number of games.
TEST(Simulate, DistributionsForPlotsCountEveryGameOnce) {
  SimulationSpec spec;
  spec.games = 50;
  spec.players = 2;
  spec.threads = 3;
  spec.bots = {"random"};
  std::atomic<int> done{0};
  spec.done_games = &done;
  const SimulationReport r = RunPig(spec);
  EXPECT_EQ(done.load(), 50);
  ASSERT_EQ(r.seat_score_counts.size(), 2u);
  for (size_t s = 0; s < 2; ++s) {
    int64_t games = 0;
    double sum = 0;
    for (const auto& [total, n] : r.seat_score_counts[s]) {
      games += n;
      sum += static_cast<double>(total) * static_cast<double>(n);
    }
    EXPECT_EQ(games, 50);
    EXPECT_DOUBLE_EQ(sum / 50, r.seat_totals[s].Mean());
  }
  int64_t games = 0;
  for (const auto& [rounds, n] : r.round_counts) games += n;
  EXPECT_EQ(games, 50);
  EXPECT_FALSE(r.ToJson().contains("seat_score_counts"));  // the CLI's report is unchanged
}

// A run cancelled from outside (the studio's Cancel button) stops and says how far it got.
TEST(Simulate, ACancelledRunStopsAndSaysHowFarItGot) {
  SimulationSpec spec;
  spec.games = 100000;
  spec.players = 2;
  spec.bots = {"random"};
  std::atomic<bool> cancel{true};
  std::atomic<int> done{0};
  spec.cancel = &cancel;
  spec.done_games = &done;
  SimulationReport report;
  const Status st = RunRules<PigGame>(spec, &report, 20, false);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("cancelled after 0 of 100000 games"), std::string::npos) << st.message;
  EXPECT_EQ(done.load(), 0);
}

TEST(Simulate, WinRatesPerBot) {
  SimulationSpec spec;
  spec.games = 40;
  spec.players = 2;
  spec.bots = {"mcts:iters=60", "random"};
  const SimulationReport r = RunPig(spec);
  const Json j = r.ToJson();
  EXPECT_GT(j["bots"]["mcts:iters=60"]["win_rate"].get<double>(), j["bots"]["random"]["win_rate"].get<double>());
  // A stronger bot winning is not a seat edge: seats are compared within one bot (here each seat
  // is the only one of its bot, so none is tested), nor a bot edge with fixed seats.
  for (const auto& f : r.findings) EXPECT_EQ(f.find("edge"), std::string::npos) << f;
  EXPECT_FALSE(r.SeatBalance(0).tested);
  EXPECT_FALSE(r.BotBalance("random").tested);
}

TEST(Simulate, WilsonIntervalMatchesPublishedValues) {
  // Newcombe (1998), table I: 0 of 10 gives 0-0.2775, 5 of 10 0.2366-0.7634 (95%).
  double lo = 0, hi = 0;
  WilsonInterval(0, 10, 1.959964, &lo, &hi);
  EXPECT_NEAR(lo, 0, 1e-4);
  EXPECT_NEAR(hi, 0.2775, 1e-4);
  WilsonInterval(5, 10, 1.959964, &lo, &hi);
  EXPECT_NEAR(lo, 0.2366, 1e-4);
  EXPECT_NEAR(hi, 0.7634, 1e-4);
}

TEST(Simulate, ACardScoringUnderASixthOfTheMedianCardAPerCopyIsAWeakCardFinding) {
  SimulationReport r;
  r.games = 20;
  r.players = 2;
  auto card = [&](const std::string& id, int64_t copies, double per_copy) {
    CardBalance& b = r.cards[id];
    b.copies = copies;
    b.points_sum = per_copy * static_cast<double>(copies);
  };
  card("bear", 40, 3.0);
  card("fox", 40, 2.9);
  card("eagle", 40, 3.2);
  card("rabbit", 40, 0.6);    // a fifth of the median (2.9): weak by design, not flagged
  card("marmot", 40, 0.3);    // a tenth: flagged
  card("rare", 10, 0.0);      // too few copies to judge
  r.ComputeFindings(500);
  std::vector<std::string> weak;
  for (const auto& f : r.findings)
    if (f.rfind("weak card:", 0) == 0) weak.push_back(f);
  ASSERT_EQ(weak.size(), 1u) << ::testing::PrintToString(r.findings);
  EXPECT_EQ(weak[0].find("weak card: 'marmot' scores 0.30 points a copy placed, under a sixth of the median card's 2.90"), 0u)
      << weak[0];
  // Fewer than three cards placed often enough: no median to judge by.
  SimulationReport few;
  few.games = 20;
  few.players = 2;
  few.cards["bear"].copies = 40;
  few.cards["bear"].points_sum = 120;
  few.cards["marmot"].copies = 40;
  few.ComputeFindings(500);
  for (const auto& f : few.findings) EXPECT_EQ(f.find("weak card"), std::string::npos) << f;
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

// Pig where the first seat always wins, whoever plays it.
class PigTheFirstSeatWins : public testing::PigGame {
 public:
  PigTheFirstSeatWins() : PigGame(20) {}
  Status Score(const State& s, ScoreTable* out) override {
    Status st = PigGame::Score(s, out);
    for (auto& line : out->lines) line.total = line.seat == 0 ? 1 : 0;
    return st;
  }
};

TEST(Simulate, RotatingSeatsGiveEachBotEverySeatSoSeatOrderLeavesItsWinRate) {
  SimulationSpec spec;
  spec.games = 12;
  spec.players = 3;
  spec.bots = {"greedy", "random", "random"};
  auto run = [&](bool rotate) {
    spec.rotate_seats = rotate;
    SimulationReport r;
    EXPECT_TRUE(RunRules<PigTheFirstSeatWins>(spec, &r).ok());
    return r;
  };
  const SimulationReport fixed = run(false);
  EXPECT_EQ(fixed.bots.at("greedy").player_games, 12);
  EXPECT_DOUBLE_EQ(fixed.bots.at("greedy").wins, 12);  // it always sat first
  EXPECT_EQ(fixed.bots.at("random").player_games, 24);
  EXPECT_DOUBLE_EQ(fixed.bots.at("random").wins, 0);
  EXPECT_EQ(fixed.seat_names[0], "P1 (greedy)");

  const SimulationReport rotating = run(true);
  // Game k seats bot k mod 3 first: greedy sits first in 4 games of 12, and wins those.
  EXPECT_EQ(rotating.bots.at("greedy").player_games, 12);
  EXPECT_DOUBLE_EQ(rotating.bots.at("greedy").wins, 4);
  EXPECT_DOUBLE_EQ(rotating.bots.at("random").wins, 8);
  EXPECT_DOUBLE_EQ(rotating.seat_wins[0], 12);  // the seat still wins every game
  EXPECT_EQ(rotating.seat_names[0], "P1 (rotating)");
  const Json j = rotating.ToJson();
  EXPECT_EQ(j["rotate_seats"], true);
  EXPECT_DOUBLE_EQ(j["bots"]["greedy"]["win_rate"].get<double>(), 4.0 / 12);
  EXPECT_DOUBLE_EQ(j["bots"]["random"]["seats"].get<double>(), 2);
  // Seats rotating, every seat is compared with all the others: the first seat's edge is found,
  // at the stated level (1% over the three seats).
  bool edge = false;
  for (const auto& f : rotating.findings) edge |= f.find("seat edge: P1 (rotating) wins 100.0%") != std::string::npos;
  EXPECT_TRUE(edge);
  const WinBalance b = rotating.SeatBalance(0);
  EXPECT_TRUE(b.significant);
  EXPECT_NEAR(b.fair, 1.0 / 3, 1e-12);
  EXPECT_NEAR(b.level, 0.01 / 3, 1e-12);
  // The bots, seats rotating, are compared with 1/3: greedy won 4 of its 12 seats, exactly fair.
  EXPECT_TRUE(rotating.BotBalance("greedy").tested);
  EXPECT_NEAR(rotating.BotBalance("greedy").edge, 0, 1e-12);
  EXPECT_FALSE(rotating.BotBalance("greedy").significant);
}

// Pig whose rules stop some games themselves (their own safety net): stats say "stopped".
class PigStoppedByItsRules : public testing::PigGame {
 public:
  PigStoppedByItsRules() : PigGame(20) {}
  Status Stats(const State& s, Json* out) override {
    Status st = PigGame::Stats(s, out);
    if (s.seed % 2 == 0) (*out)["stopped"] = true;
    return st;
  }
};

TEST(Simulate, GamesTheRulesStoppedAtTheirOwnLimitAreStoppedAndReported) {
  SimulationSpec spec;
  spec.games = 6;
  spec.seed = 1;
  spec.players = 2;
  spec.bots = {"random"};
  SimulationReport r;
  ASSERT_TRUE(RunRules<PigStoppedByItsRules>(spec, &r).ok());
  EXPECT_EQ(r.games, 6);
  EXPECT_EQ(r.stopped, 3);  // seeds 2, 4 and 6
  EXPECT_EQ(r.stopped_by_rules, 3);
  EXPECT_EQ(r.endings.at("round limit"), 3);
  EXPECT_EQ(r.endings.at("target"), 3);
  EXPECT_EQ(r.rules_stopped_seeds, (std::vector<uint64_t>{2, 4, 6}));
  EXPECT_TRUE(r.stopped_seeds.empty());  // the host stopped none
  bool found = false;
  for (const auto& f : r.findings) {
    found |= f.find("3 of 6 games reached the rules' own round limit before any of their endings") != std::string::npos;
    EXPECT_EQ(f.find("did not end within"), std::string::npos) << f;  // the host's limit stopped none
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(r.ToJson()["stopped_by_rules"], 3);
}

// Pig that cannot set up a game (as a rules script refusing an override would): every game,
// or only games whose seed is 5 more than a multiple of 7.
class PigThatCannotSetUp : public testing::PigGame {
 public:
  explicit PigThatCannotSetUp(bool some = false) : some_(some) {}
  Status NewGame(const Json& params, int players, uint64_t seed, State* out) override {
    if (some_ && seed % 7 != 5) return PigGame::NewGame(params, players, seed, out);
    return {ErrorKind::kScript, "data/pig.json: target: must be positive (seed " + std::to_string(seed) + ")", {}, {}};
  }

 private:
  bool some_;
};

TEST(Simulate, TheSetupFailureReportedIsTheFirstInSeedOrderForAnyThreads) {
  SimulationSpec spec;
  spec.games = 100;
  spec.seed = 1;
  spec.players = 2;
  spec.bots = {"random"};
  for (int threads : {1, 2, 3, 7}) {
    spec.threads = threads;
    SimulationReport r;
    const Status st = RunRules<PigThatCannotSetUp>(spec, &r, /*some=*/true);
    ASSERT_FALSE(st.ok()) << threads;
    EXPECT_EQ(st.message, "data/pig.json: target: must be positive (seed 5)") << threads;
  }
}

// Pig whose stats say "stopped" with a number instead of true or false.
class PigStoppedByANumber : public testing::PigGame {
 public:
  Status Stats(const State& s, Json* out) override {
    Status st = PigGame::Stats(s, out);
    (*out)["stopped"] = 1;
    return st;
  }
};

TEST(Simulate, AStatsStoppedThatIsNotABooleanStopsTheRunAtTheFirstGameWithItsSeed) {
  SimulationSpec spec;
  spec.games = 3;
  spec.players = 2;
  spec.bots = {"random"};
  SimulationReport r;
  const Status st = RunRules<PigStoppedByANumber>(spec, &r);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message, "stats: 'stopped' must be true or false, got 1");
  EXPECT_NE(st.context.find("seed 1 (game 1 of 3) failed; reproduce with: plateau play"), std::string::npos) << st.context;
}

TEST(Simulate, KeepGoingCountsEveryFailedGameInTheReport) {
  SimulationSpec spec;
  spec.games = 3;
  spec.players = 2;
  spec.bots = {"random"};
  spec.max_failures = 10;
  SimulationReport r;
  ASSERT_TRUE(RunRules<PigStoppedByANumber>(spec, &r).ok());
  EXPECT_EQ(r.failed, 3);
  ASSERT_FALSE(r.first_errors.empty());
  EXPECT_EQ(r.first_errors[0], "seed 1: stats: 'stopped' must be true or false, got 1");
}

TEST(Simulate, AGameThatCannotBeSetUpEndsTheRunWithItsError) {
  SimulationSpec spec;
  spec.games = 40;
  spec.seed = 3;
  spec.players = 2;
  spec.bots = {"random"};
  spec.threads = 1;
  SimulationReport r;
  const Status st = RunRules<PigThatCannotSetUp>(spec, &r);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.kind, ErrorKind::kScript);
  EXPECT_EQ(st.message, "data/pig.json: target: must be positive (seed 3)");
}

TEST(Simulate, ATagsSameLengthEffectComparesGamesOfEqualLengthOnly) {
  // Tagged games: two of 10 rounds won with 50, one of 20 won with 80. Untagged: two of 10
  // won with 40, one of 20 with 70, and one of 30 with 200 (a length no tagged game had).
  TagOutcome tag, all;
  auto add = [](TagOutcome* t, int rounds, double top) {
    TagOutcome g;
    g.games = 1;
    g.rounds.Add(rounds);
    g.top_score.Add(top);
    g.spread.Add(top / 10);
    auto& at = g.by_length[rounds];
    at.first.Add(top);
    at.second.Add(top / 10);
    t->Merge(g);
  };
  for (auto [r, top] : std::vector<std::pair<int, double>>{{10, 50}, {10, 50}, {20, 80}}) {
    add(&tag, r, top);
    add(&all, r, top);
  }
  for (auto [r, top] : std::vector<std::pair<int, double>>{{10, 40}, {10, 40}, {20, 70}, {30, 200}}) add(&all, r, top);
  const SameLengthEffect e = SameLength(tag, all);
  EXPECT_EQ(e.games_compared, 3);
  EXPECT_DOUBLE_EQ(e.top_score, 10);  // +10 at 10 rounds (twice) and at 20 rounds
  EXPECT_DOUBLE_EQ(e.spread, 1);
  // A tag in every game has nothing to be compared with.
  EXPECT_EQ(SameLength(all, all).games_compared, 0);
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

namespace plateau {
namespace {

// How the game feels, from a hand-made score over time ([sample][seat], the final score last).
TEST(Feel, LeadChangesLeadForGoodDramaAndGapFromTheScoreOverTime) {
  // Leaders P2, P2, P1, P2: two changes; P2 leads for good from the last sample (3 of 4 played
  // before); at the third sample P2 was last (of two) and 4 behind, over 20% of its final 14.
  const GameFeel g = FeelOfGame({{0, 5}, {3, 5}, {10, 6}, {12, 14}});
  EXPECT_EQ(g.lead_changes, 2);
  ASSERT_TRUE(g.single_winner);
  EXPECT_DOUBLE_EQ(g.lead_for_good, 0.75);
  EXPECT_TRUE(g.from_last);
  EXPECT_TRUE(g.from_behind);
  // The gap at 25%, 50%, 75% and the end: samples 1, 2, 3 and 4 of 4.
  EXPECT_DOUBLE_EQ(g.gap[0], 5);
  EXPECT_DOUBLE_EQ(g.gap[1], 2);
  EXPECT_DOUBLE_EQ(g.gap[2], 4);
  EXPECT_DOUBLE_EQ(g.gap[3], 2);
}

TEST(Feel, ASharedLeadIsNoLeaderAndAWinnerFromTheStartLeadsForGoodFromZero) {
  // Tied, P1, tied, P2: one change (P1 to P2), the ties skipped.
  const GameFeel g = FeelOfGame({{1, 1}, {2, 1}, {2, 2}, {2, 3}});
  EXPECT_EQ(g.lead_changes, 1);
  EXPECT_DOUBLE_EQ(g.lead_for_good, 0.75);
  EXPECT_TRUE(g.from_last);  // behind at the second score: of two players, that is last
  const GameFeel runaway = FeelOfGame({{3, 0, 0}, {6, 2, 1}, {9, 4, 2}});
  EXPECT_EQ(runaway.lead_changes, 0);
  EXPECT_DOUBLE_EQ(runaway.lead_for_good, 0);
  EXPECT_FALSE(runaway.from_last);
  EXPECT_FALSE(runaway.from_behind);
  // Behind by 1 of a winning 10 is within the margin (20%): no comeback.
  const GameFeel close = FeelOfGame({{1, 0, 0}, {1, 2, 0}, {9, 10, 0}});
  EXPECT_FALSE(close.from_behind);
  EXPECT_FALSE(close.from_last);
  // A shared win has no single winner: the measures that need one leave it out.
  EXPECT_FALSE(FeelOfGame({{1, 2}, {3, 3}}).single_winner);
}

// Kingmaker: P1 and P2 have 10 points, P3 none. P1 and P2 each pass (their one legal move), then
// P3 gives 3 points to a player of its choice and the game ends. P3 cannot win whatever it does,
// and its choice decides the winner: every game has a kingmaking move. In the `fair` version P3
// may also take 20 points itself (it can still win: no kingmaking); in the `dull` one both of
// its moves give the points to P1 (the winner never depends on it: no kingmaking).
class Kingmaker : public Rules {
 public:
  enum Kind { kKingmaking, kFair, kDull };
  explicit Kingmaker(Kind kind = kKingmaking) : kind_(kind) {
    info_.id = "kingmaker";
    info_.name = "Kingmaker";
    info_.min_players = 3;
    info_.max_players = 3;
  }
  const GameInfo& info() const override { return info_; }
  Status NewGame(const Json&, int players, uint64_t seed, State* out) override {
    *out = State();
    out->game_id = "kingmaker";
    out->seed = seed;
    out->rng.Seed(seed);
    out->cards = std::make_shared<CardSet>();
    out->player_count = players;
    for (int s = 0; s < players; ++s) out->seats.push_back({"P" + std::to_string(s + 1), "player"});
    out->data = {{"points", {10, 10, 0}}, {"next", 0}};
    return Status::Ok();
  }
  Status ToMove(const State& s, std::vector<int>* seats) override {
    seats->clear();
    if (s.data["next"].get<int>() < 3) seats->push_back(s.data["next"].get<int>());
    return Status::Ok();
  }
  Status LegalMoves(const State& s, int seat, std::vector<Move>* out) override {
    out->clear();
    if (seat != s.data["next"].get<int>()) return Status::Ok();
    if (seat < 2) {
      out->push_back(testing::RollOrHold("pass"));
    } else {
      out->push_back(testing::RollOrHold("give:1"));
      out->push_back(testing::RollOrHold(kind_ == kDull ? "give:1+" : "give:2"));
      if (kind_ == kFair) out->push_back(testing::RollOrHold("take"));
    }
    return Status::Ok();
  }
  Status Apply(State* s, int seat, const Move& m) override {
    std::vector<Move> legal;
    LegalMoves(*s, seat, &legal);
    if (std::find(legal.begin(), legal.end(), m) == legal.end()) return Status::Illegal("not a move now");
    if (m.type == "give:1" || m.type == "give:1+") s->data["points"][0] = s->data["points"][0].get<int>() + 3;
    if (m.type == "give:2") s->data["points"][1] = s->data["points"][1].get<int>() + 3;
    if (m.type == "take") s->data["points"][2] = 20;
    s->data["next"] = seat + 1;
    ++s->move_count;
    s->Touch();
    return Status::Ok();
  }
  Status Score(const State& s, ScoreTable* out) override {
    out->lines.clear();
    for (int p = 0; p < 3; ++p) out->lines.push_back({p, "P" + std::to_string(p + 1), s.data["points"][static_cast<size_t>(p)].get<int64_t>(), {}});
    return Status::Ok();
  }
  std::string View(const State& s, int) override { return s.data.dump(); }

 private:
  GameInfo info_;
  Kind kind_;
};

SimulationReport RunKingmaker(Kingmaker::Kind kind, std::vector<std::string> bots, int kingmaking_games) {
  SimulationSpec spec;
  spec.games = 10;
  spec.players = 3;
  spec.bots = std::move(bots);
  spec.kingmaking_games = kingmaking_games;
  SimulationReport report;
  const Status st = RunRules<Kingmaker>(spec, &report, kind);
  EXPECT_TRUE(st.ok()) << st.message;
  return report;
}

TEST(Feel, KingmakingIsAMoveOfAPlayerWhoCannotWinThatChangesWhoWins) {
  const SimulationReport r = RunKingmaker(Kingmaker::kKingmaking, {"random"}, 4);
  EXPECT_EQ(r.feel.kingmaking_games, 4);  // the run's first 4 games only
  EXPECT_EQ(r.feel.kingmaking_found, 4);
  EXPECT_EQ(r.feel.kingmaking_cut, 0);
  bool finding = false;
  for (const auto& f : r.findings) finding |= f.rfind("kingmaking: in 4 of 4 sampled games", 0) == 0;
  EXPECT_TRUE(finding);
  const Json j = r.ToJson();
  EXPECT_EQ(j["feel"]["kingmaking"]["rate"], 1.0);
  EXPECT_LT(j["feel"]["kingmaking"]["interval95"][0].get<double>(), 1.0);  // four games leave room
  // A player who can still win (take 20) is not a kingmaker; choices that give the same winner
  // are not kingmaking either.
  EXPECT_EQ(RunKingmaker(Kingmaker::kFair, {"random"}, 4).feel.kingmaking_found, 0);
  EXPECT_EQ(RunKingmaker(Kingmaker::kDull, {"random"}, 4).feel.kingmaking_found, 0);
  EXPECT_EQ(RunKingmaker(Kingmaker::kDull, {"random"}, 4).feel.kingmaking_games, 4);
  // Not asked for: not looked for, and no JSON for it.
  const SimulationReport none = RunKingmaker(Kingmaker::kKingmaking, {"random"}, 0);
  EXPECT_EQ(none.feel.kingmaking_games, 0);
  EXPECT_FALSE(none.ToJson()["feel"].contains("kingmaking"));
}

TEST(Feel, DeadTurnsCountSingleMovesAndMovesTheBotValuesAllTheSame) {
  // P1 and P2 have one legal move each; P3 two. A random bot does not value its moves: 2 of 3
  // decisions are dead. The greedy bot values P3's two gifts the same (its measure: its own
  // total minus half the best other, 13 either way): all 3 are.
  const SimulationReport random = RunKingmaker(Kingmaker::kKingmaking, {"random"}, 0);
  EXPECT_EQ(random.feel.decisions, 30);
  EXPECT_EQ(random.feel.single_move, 20);
  EXPECT_EQ(random.feel.all_equal, 0);
  EXPECT_NEAR(random.feel.dead.Mean(), 2.0 / 3, 1e-12);
  const SimulationReport greedy = RunKingmaker(Kingmaker::kKingmaking, {"greedy"}, 0);
  EXPECT_EQ(greedy.feel.single_move, 20);
  EXPECT_EQ(greedy.feel.all_equal, 10);
  EXPECT_DOUBLE_EQ(greedy.feel.dead.Mean(), 1.0);
  bool finding = false;
  for (const auto& f : greedy.findings) finding |= f.rfind("dead turns: 100% of a game's decisions", 0) == 0;
  EXPECT_TRUE(finding);
  // A game without rounds is scored after every move: three moves, the last the final score.
  EXPECT_EQ(random.feel.by_round, 0);
  EXPECT_EQ(random.feel.samples, 30);
}

TEST(Feel, PigIsScoredAtEachRoundsEndAndItsFeelIsTheSameForAnyThreads) {
  SimulationSpec spec;
  spec.games = 40;
  spec.players = 3;
  spec.bots = {"random"};
  const SimulationReport one = RunPig(spec);
  EXPECT_EQ(one.feel.games, 40);
  EXPECT_EQ(one.feel.by_round, 40);
  // One sample per round ended, the final score in place of the last round's: about the rounds.
  EXPECT_GE(static_cast<double>(one.feel.samples), one.rounds.sum - 40);
  EXPECT_LE(static_cast<double>(one.feel.samples), one.rounds.sum + 40);
  EXPECT_EQ(one.feel.lead_for_good.n + 0, 40);  // Pig has one winner: the first to the target
  const Json j = one.ToJson()["feel"];
  for (const char* key : {"lead_changes", "lead_for_good", "dead_turns"}) {
    ASSERT_TRUE(j[key]["interval95"].is_array()) << key;
    EXPECT_LE(j[key]["interval95"][0].get<double>(), j[key]["mean"].get<double>()) << key;
    EXPECT_GE(j[key]["interval95"][1].get<double>(), j[key]["mean"].get<double>()) << key;
  }
  EXPECT_TRUE(j["score_gap"].contains("50%"));
  spec.threads = 3;
  EXPECT_EQ(RunPig(spec).ToJson()["feel"], one.ToJson()["feel"]);
}

}  // namespace
}  // namespace plateau
