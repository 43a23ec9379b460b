// Bots: option parsing, the heuristic bot sampling chance instead of foreseeing it, one-ply
// tries that leave the state as found, the MCTS bot beating random play, and the stop flag
// ending a decision, on the native Pig game (tests/host/pig_game.h).
#include "host/bots.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "host/mcts.h"
#include "tests/host/pig_game.h"

namespace plateau {
namespace {

using testing::PigGame;
using testing::RollOrHold;

TEST(BotSpec, ParsesNameAndOptions) {
  BotSpec spec;
  std::string error;
  ASSERT_TRUE(ParseBotSpec("mcts:iters=300:depth=12", &spec, &error)) << error;
  EXPECT_EQ(spec.name, "mcts");
  EXPECT_EQ(spec.Get("iters", 0), 300);
  EXPECT_EQ(spec.Get("depth", 0), 12);
  EXPECT_EQ(spec.Get("c", 0.5), 0.5);
  EXPECT_FALSE(ParseBotSpec("mcts:iters", &spec, &error));
  EXPECT_NE(error.find("not key=number"), std::string::npos) << error;
}

TEST(BotSpec, UnknownBotsAndOptionsAreRefusedByName) {
  std::string error;
  EXPECT_EQ(MakeBot("genius", 1, &error), nullptr);
  EXPECT_NE(error.find("unknown bot 'genius'"), std::string::npos) << error;
  EXPECT_NE(error.find("mcts"), std::string::npos) << error;
  EXPECT_EQ(MakeBot("mcts:speed=3", 1, &error), nullptr);
  EXPECT_NE(error.find("no option 'speed'"), std::string::npos) << error;
  EXPECT_EQ(MakeBot("heuristic:samples=0", 1, &error), nullptr);
  EXPECT_NE(error.find("samples must be between 1"), std::string::npos) << error;
  EXPECT_EQ(MakeBot("mcts:iters=0", 1, &error), nullptr);
  EXPECT_NE(error.find("give iters or ms"), std::string::npos) << error;
  for (const char* ok : {"random", "greedy", "heuristic", "heuristic:samples=16", "mcts", "mcts:ms=5:iters=0"})
    EXPECT_NE(MakeBot(ok, 1, &error), nullptr) << ok << ": " << error;
}

// Finds a game seed whose first die roll is a 1 after one safe roll, so previewing "roll"
// on the game's own RNG would show a bust.
State StateBeforeABust(PigGame& game) {
  for (uint64_t seed = 1;; ++seed) {
    State s;
    EXPECT_TRUE(game.NewGame(Json::object(), 2, seed, &s).ok());
    State probe = s;
    EXPECT_TRUE(game.Apply(&probe, 0, RollOrHold("roll")).ok());
    if (probe.data["turn"] == 0) continue;  // the first roll must not bust
    State after = probe;
    EXPECT_TRUE(game.Apply(&after, 0, RollOrHold("roll")).ok());
    if (after.data["turn"] == 0 && after.data["seat"] == 1) return probe;
  }
}

TEST(HeuristicBot, JudgesARollByItsOddsNotByTheRollItIsAboutToGet) {
  PigGame game;
  const State s = StateBeforeABust(game);
  std::string error;
  // Greedy previews on the game's RNG: it sees the coming 1 and holds.
  auto greedy = MakeBot("greedy", 7, &error);
  Move m;
  ASSERT_TRUE(greedy->Choose(game, s, 0, &m).ok());
  EXPECT_EQ(m.type, "hold");
  // Heuristic samples fresh rolls: with few points at risk, rolling is worth it on average.
  ASSERT_LT(s.data["turn"].get<int>(), 10);
  auto heuristic = MakeBot("heuristic:samples=64", 7, &error);
  ASSERT_TRUE(heuristic->Choose(game, s, 0, &m).ok());
  EXPECT_EQ(m.type, "roll");
}

TEST(OnePlyBot, TryingMovesOnTheGameStateLeavesItExactlyAsFoundAndChoosesAsOnACopy) {
  PigGame game;
  State s = StateBeforeABust(game);
  s.record = true;
  const std::string hash = s.Hash();
  const Rng rng = s.rng;
  std::string error;
  for (const char* name : {"greedy", "heuristic:samples=8"}) {
    auto on_copy = MakeBot(name, 7, &error);
    auto in_place = MakeBot(name, 7, &error);
    Move a, b;
    ASSERT_TRUE(on_copy->Choose(game, s, 0, &a).ok());
    ASSERT_TRUE(in_place->ChooseIn(game, &s, 0, &b).ok());
    EXPECT_EQ(a, b) << name;
    EXPECT_EQ(s.Hash(), hash) << name;
    EXPECT_TRUE(s.rng == rng) << name << ": the tries' reseeding is undone";
    EXPECT_TRUE(s.record) << name;
  }
}

double WinRate(Rules& game, const std::string& bot, const std::string& against, int games) {
  double wins = 0;
  for (int g = 0; g < games; ++g) {
    State s;
    EXPECT_TRUE(game.NewGame(Json::object(), 2, 100 + static_cast<uint64_t>(g), &s).ok());
    std::string error;
    // Alternate seats so the first player's advantage cancels out.
    const int me = g % 2;
    auto a = MakeBot(bot, 11 + static_cast<uint64_t>(g), &error);
    auto b = MakeBot(against, 21 + static_cast<uint64_t>(g), &error);
    std::vector<Bot*> bots = me == 0 ? std::vector<Bot*>{a.get(), b.get()} : std::vector<Bot*>{b.get(), a.get()};
    PlayResult result;
    EXPECT_TRUE(PlayOut(game, &s, bots, &result).ok());
    const int64_t mine = result.scores.lines[static_cast<size_t>(me)].total;
    const int64_t theirs = result.scores.lines[static_cast<size_t>(1 - me)].total;
    wins += mine > theirs ? 1 : mine == theirs ? 0.5 : 0;
  }
  return wins / games;
}

TEST(MctsBot, BeatsRandomPlayByAWideMargin) {
  PigGame game(20);
  EXPECT_GE(WinRate(game, "mcts:iters=100:depth=20", "random", 40), 0.8);
}

TEST(MctsBot, SameSeedSameChoices) {
  PigGame game(20);
  State s;
  ASSERT_TRUE(game.NewGame(Json::object(), 2, 5, &s).ok());
  std::string error;
  auto a = MakeBot("mcts:iters=60", 3, &error), b = MakeBot("mcts:iters=60", 3, &error);
  for (int i = 0; i < 10 && !s.data["ended"].get<bool>(); ++i) {
    Move ma, mb;
    const int seat = s.data["seat"];
    ASSERT_TRUE(a->Choose(game, s, seat, &ma).ok());
    ASSERT_TRUE(b->Choose(game, s, seat, &mb).ok());
    EXPECT_EQ(ma.type, mb.type);
    ASSERT_TRUE(game.Apply(&s, seat, ma).ok());
  }
}

TEST(MctsBot, LeavesTheGameStateUntouched) {
  PigGame game(20);
  State s;
  ASSERT_TRUE(game.NewGame(Json::object(), 2, 9, &s).ok());
  const std::string before = s.Hash();
  std::string error;
  auto bot = MakeBot("mcts:iters=50", 1, &error);
  Move m;
  ASSERT_TRUE(bot->Choose(game, s, 0, &m).ok());
  EXPECT_EQ(s.Hash(), before);
}

// The stop flag (the studio's Cancel): raised from another thread, it ends a decision of 10^7
// MCTS iterations (which would otherwise run for hours) with BotStopped; already raised, it
// stops every bot that thinks in steps before its first; lowered, the bot decides again.
TEST(Bot, AStopFlagRaisedFromAnotherThreadEndsAHugeDecision) {
  PigGame game(20);
  State s;
  ASSERT_TRUE(game.NewGame(Json::object(), 2, 5, &s).ok());
  std::string error;
  auto bot = MakeBot("mcts:iters=10000000", 1, &error);
  ASSERT_NE(bot, nullptr) << error;
  std::atomic<bool> stop{false};
  bot->set_stop(&stop);
  std::thread cancel([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
  });
  Move m;
  const Status st = bot->Choose(game, s, 0, &m);
  cancel.join();
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("cancelled"), std::string::npos) << st.message;
  for (const char* name : {"greedy", "heuristic:samples=8", "mcts:iters=50"}) {
    auto b = MakeBot(name, 1, &error);
    b->set_stop(&stop);
    EXPECT_EQ(b->Choose(game, s, 0, &m).message, BotStopped().message) << name;
    stop = false;
    EXPECT_TRUE(b->Choose(game, s, 0, &m).ok()) << name;
    stop = true;
  }
}

TEST(PlayOut, RoundLimitStopsAGameThatNeverEnds) {
  PigGame game(20, /*endless=*/true);
  State s;
  ASSERT_TRUE(game.NewGame(Json::object(), 2, 1, &s).ok());
  std::string error;
  auto a = MakeBot("random", 1, &error), b = MakeBot("random", 2, &error);
  PlayLimits limits;
  limits.max_rounds = 7;
  PlayResult result;
  ASSERT_TRUE(PlayOut(game, &s, {a.get(), b.get()}, &result, limits).ok());
  EXPECT_TRUE(result.stopped);
  EXPECT_EQ(s.flow.round + 1, 8);
}

// Endless Pig whose round never moves on, like rules that ask the same question forever.
class PigStuckInItsFirstRound : public PigGame {
 public:
  PigStuckInItsFirstRound() : PigGame(20, /*endless=*/true) {}
  Status Apply(State* s, int seat, const Move& m) override {
    Status st = PigGame::Apply(s, seat, m);
    s->flow.round = 1;  // the game counts rounds (it left round 1), then stays in round 2
    return st;
  }
};

// The same, in a game that never counts rounds: only the total limit applies.
class PigWithoutRounds : public PigGame {
 public:
  PigWithoutRounds() : PigGame(20, /*endless=*/true) {}
  Status Apply(State* s, int seat, const Move& m) override {
    Status st = PigGame::Apply(s, seat, m);
    s->flow.round = 0;
    return st;
  }
};

// The same in its first round, in a game that says it counts rounds.
class PigStuckInRoundOne : public PigWithoutRounds {
 public:
  bool CountsRounds() const override { return true; }
};

TEST(PlayOut, AGameThatCountsRoundsIsCheckedInItsFirstRoundToo) {
  PigStuckInRoundOne game;
  State s;
  ASSERT_TRUE(game.NewGame(Json::object(), 2, 1, &s).ok());
  std::string error;
  auto a = MakeBot("random", 1, &error), b = MakeBot("random", 2, &error);
  PlayLimits limits;
  limits.max_moves_per_round = 50;
  PlayResult result;
  const Status st = PlayOut(game, &s, {a.get(), b.get()}, &result, limits);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.kind, ErrorKind::kScript);  // a fault of the rules, not of the input
  EXPECT_NE(st.message.find("round 1 ran 50 moves without the round changing"), std::string::npos) << st.message;
}

TEST(PlayOut, AGameThatNeverCountsRoundsHasOnlyTheTotalLimit) {
  PigWithoutRounds game;
  State s;
  ASSERT_TRUE(game.NewGame(Json::object(), 2, 1, &s).ok());
  std::string error;
  auto a = MakeBot("random", 1, &error), b = MakeBot("random", 2, &error);
  PlayLimits limits;
  limits.max_moves = 300;
  limits.max_moves_per_round = 50;
  PlayResult result;
  const Status st = PlayOut(game, &s, {a.get(), b.get()}, &result, limits);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("did not end within 300 moves"), std::string::npos) << st.message;
}

TEST(PlayOut, AGameWhoseRoundNeverChangesIsStoppedWithAnError) {
  PigStuckInItsFirstRound game;
  State s;
  ASSERT_TRUE(game.NewGame(Json::object(), 2, 1, &s).ok());
  std::string error;
  auto a = MakeBot("random", 1, &error), b = MakeBot("random", 2, &error);
  PlayLimits limits;
  limits.max_rounds = 7;  // never reached: the round does not change
  limits.max_moves_per_round = 50;
  PlayResult result;
  const Status st = PlayOut(game, &s, {a.get(), b.get()}, &result, limits);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message.find("round 2 ran 50 moves without the round changing"), std::string::npos) << st.message;
  EXPECT_EQ(s.move_count, 52);  // the first move left round 1
}

}  // namespace
}  // namespace plateau
