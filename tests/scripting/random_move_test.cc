// The random_move hook (issue 29): a random player's move drawn the game's own way, without
// listing the moves it did not draw. A random bot plays exactly the moves it would draw from the
// legal list, and a hook that breaks its contract (another move at the draw, a draw among the
// wrong count, no draw, two draws, a pick kept for later, nil while moves exist) is refused
// naming its line, by the bot at once or by the conformance checks; it never crashes the host.
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

std::unique_ptr<LuaRules> Load() {
  std::unique_ptr<LuaRules> rules;
  EXPECT_TRUE(LuaRules::Load(GamePath("random-move"), {}, &rules).ok());
  return rules;
}

Json Params(const LuaRules& rules, const std::string& lie) {
  Json params;
  EXPECT_TRUE(ResolveParams(rules.info(), {{"lie", lie}}, &params).ok());
  return params;
}

std::string Where() {
  return "games/random-move/rules.lua:" + std::to_string(LineOf("random-move", "function game.random_move"));
}

TEST(RandomMove, ARandomBotPlaysWhatItWouldDrawFromTheList) {
  auto rules = Load();
  for (int players : {1, 2, 4})
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      State s;
      ASSERT_TRUE(rules->NewGame(Params(*rules, "none"), players, seed, &s).ok());
      std::string error;
      auto bot = MakeBot("random", seed, &error);
      Rng mirror(seed);  // the draws a random bot makes on the listed moves
      int decisions = 0;
      for (;; ++decisions) {
        std::vector<int> seats;
        ASSERT_TRUE(rules->ToMove(s, &seats).ok());
        if (seats.empty()) break;
        std::vector<Move> legal;
        ASSERT_TRUE(rules->LegalMoves(s, seats.front(), &legal).ok());
        const Move expected = legal[mirror.Below(static_cast<uint32_t>(legal.size()))];
        Move m;
        ASSERT_TRUE(bot->Choose(*rules, s, seats.front(), &m).ok());
        ASSERT_EQ(m, expected) << players << " players, seed " << seed << ", decision " << decisions;
        ASSERT_TRUE(rules->Apply(&s, seats.front(), m).ok());
      }
      EXPECT_GT(decisions, 5);
    }
}

TEST(RandomMove, TheConformanceChecksHoldTheDrawToTheList) {
  auto rules = Load();
  ConformanceSpec spec;
  spec.games = 6;
  ConformanceReport report;
  ASSERT_TRUE(RunConformance(*rules, "random-move", spec, &report).ok());
  EXPECT_TRUE(report.failures.empty()) << report.failures.front().message;

  // Each lie, checked on the first decision of a game.
  auto check = [&](const std::string& lie) {
    State s;
    EXPECT_TRUE(rules->NewGame(Params(*rules, lie), 2, 1, &s).ok());
    std::vector<Move> legal;
    EXPECT_TRUE(rules->LegalMoves(s, 0, &legal).ok());
    return rules->CheckRandomMove(s, 0, legal, 9);
  };
  const Status wrong = check("wrong");
  EXPECT_NE(wrong.message.find(Where() + ": random_move: for the draw "), std::string::npos) << wrong.message;
  EXPECT_NE(wrong.message.find("but legal_moves lists {\"by\":"), std::string::npos) << wrong.message;
  const Status count = check("count");
  EXPECT_NE(count.message.find(Where() + ": random_move: drew among 3 moves, but legal_moves lists 2"), std::string::npos)
      << count.message;
  const Status nothing = check("nothing");
  EXPECT_NE(nothing.message.find("random_move: drew nothing (returned nil), but legal_moves lists 2 moves"), std::string::npos)
      << nothing.message;

}

TEST(RandomMove, ABotRefusesAHookThatDoesNotDrawOnceAndACrashIsImpossible) {
  auto rules = Load();
  auto play = [&](const std::string& lie) {
    State s;
    EXPECT_TRUE(rules->NewGame(Params(*rules, lie), 2, 3, &s).ok());
    std::string error;
    auto bot = MakeBot("random", 3, &error);
    Status st;
    for (int i = 0; i < 10 && st.ok(); ++i) {
      std::vector<int> seats;
      st = rules->ToMove(s, &seats);
      if (!st.ok() || seats.empty()) break;
      Move m;
      st = bot->Choose(*rules, s, seats.front(), &m);
      if (st.ok()) st = rules->Apply(&s, seats.front(), m);
    }
    return st;
  };
  const Status none = play("no_draw");
  EXPECT_EQ(none.kind, ErrorKind::kScript);
  EXPECT_NE(none.message.find(Where() + ": random_move must draw its move with pick(n), once"), std::string::npos)
      << none.message;
  const Status twice = play("twice");
  EXPECT_EQ(twice.kind, ErrorKind::kScript);
  EXPECT_NE(twice.message.find("pick(n) is called once per random_move"), std::string::npos) << twice.message;
  EXPECT_NE(twice.message.find("games/random-move/rules.lua:"), std::string::npos) << twice.message;
  const Status zero = play("zero");
  EXPECT_EQ(zero.kind, ErrorKind::kScript);
  EXPECT_NE(zero.message.find("pick(n): n is how many legal moves there are"), std::string::npos) << zero.message;
  // A pick kept past its hook draws nothing: legal_moves calls it on the next listing.
  auto keeping = Load();
  State s;
  ASSERT_TRUE(keeping->NewGame(Params(*keeping, "keep"), 2, 3, &s).ok());
  std::string error;
  auto bot = MakeBot("random", 3, &error);
  Move m;
  ASSERT_TRUE(bot->Choose(*keeping, s, 0, &m).ok());
  std::vector<Move> legal;
  const Status kept = keeping->LegalMoves(s, 0, &legal);
  EXPECT_EQ(kept.kind, ErrorKind::kScript);
  EXPECT_NE(kept.message.find("pick(n) draws only while random_move runs"), std::string::npos) << kept.message;
  EXPECT_NE(kept.message.find("games/random-move/rules.lua:"), std::string::npos) << kept.message;
}

}  // namespace
}  // namespace plateau
