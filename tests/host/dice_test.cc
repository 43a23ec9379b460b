// Host dice: notation parsing, rolling ranges and determinism, and forced (test-queued) results.
#include "host/dice.h"

#include <gtest/gtest.h>

#include <numeric>

namespace plateau {
namespace {

DiceSpec Parse(const std::string& notation) {
  std::string error;
  auto spec = ParseDice(notation, &error);
  EXPECT_TRUE(spec.has_value()) << notation << ": " << error;
  return spec.value_or(DiceSpec{});
}

TEST(Dice, ParsesSingleDieWithoutCount) {
  const DiceSpec s = Parse("d6");
  EXPECT_EQ(s.count, 1);
  EXPECT_EQ(s.sides, 6);
  EXPECT_EQ(s.modifier, 0);
  EXPECT_EQ(s.Min(), 1);
  EXPECT_EQ(s.Max(), 6);
}

TEST(Dice, ParsesCountSidesAndModifiers) {
  const DiceSpec two = Parse("2d6");
  EXPECT_EQ(two.count, 2);
  EXPECT_EQ(two.sides, 6);
  EXPECT_EQ(two.modifier, 0);

  const DiceSpec plus = Parse("3d4+1");
  EXPECT_EQ(plus.count, 3);
  EXPECT_EQ(plus.sides, 4);
  EXPECT_EQ(plus.modifier, 1);
  EXPECT_EQ(plus.Min(), 4);
  EXPECT_EQ(plus.Max(), 13);

  const DiceSpec minus = Parse("2d6-1");
  EXPECT_EQ(minus.count, 2);
  EXPECT_EQ(minus.modifier, -1);
  EXPECT_EQ(minus.Min(), 1);
  EXPECT_EQ(minus.Max(), 11);

  EXPECT_EQ(Parse("D20").sides, 20);
}

TEST(Dice, ToStringIsCanonicalNotation) {
  EXPECT_EQ(Parse("d6").ToString(), "d6");
  EXPECT_EQ(Parse("1d6").ToString(), "d6");
  EXPECT_EQ(Parse("2d6").ToString(), "2d6");
  EXPECT_EQ(Parse("3d4+1").ToString(), "3d4+1");
  EXPECT_EQ(Parse("2d6-1").ToString(), "2d6-1");
  EXPECT_EQ(Parse("2d6+0").ToString(), "2d6");
}

TEST(Dice, BadNotationIsRefusedWithAMessage) {
  for (const std::string bad : {"", "6", "d", "2d", "x2d6", "2x6", "2d6+", "2d6-", "2d6x", "2d6+1+1", " d6",
                                "d6 ", "-d6", "2d-6", "0d6", "d1", "d0", "101d6", "d1001", "99999999d6"}) {
    std::string error;
    EXPECT_FALSE(ParseDice(bad, &error).has_value()) << "'" << bad << "' was accepted";
    EXPECT_FALSE(error.empty()) << "'" << bad << "' refused without a message";
  }
}

TEST(Dice, AcceptsTheBoundsOfTheAllowedRange) {
  EXPECT_EQ(Parse("100d1000").Max(), 100000);
  EXPECT_EQ(Parse("d2").Max(), 2);
}

TEST(Dice, RollsStayInRangeAndSumTheirFaces) {
  Rng rng(11);
  Dice dice;
  for (const std::string notation : {"d6", "2d6", "3d4+1", "2d6-1", "d20"}) {
    const DiceSpec spec = Parse(notation);
    bool saw_min = false, saw_max = false;
    for (int i = 0; i < 5000; ++i) {
      const DiceRoll roll = dice.Roll(spec, &rng);
      ASSERT_FALSE(roll.forced);
      ASSERT_EQ(roll.notation, spec.ToString());
      ASSERT_EQ(static_cast<int>(roll.faces.size()), spec.count);
      for (int f : roll.faces) {
        ASSERT_GE(f, 1);
        ASSERT_LE(f, spec.sides);
      }
      ASSERT_EQ(roll.total, std::accumulate(roll.faces.begin(), roll.faces.end(), 0) + spec.modifier);
      ASSERT_GE(roll.total, spec.Min());
      ASSERT_LE(roll.total, spec.Max());
      saw_min |= roll.total == spec.Min();
      saw_max |= roll.total == spec.Max();
    }
    EXPECT_TRUE(saw_min && saw_max) << notation << " never reached an extreme in 5000 rolls";
  }
}

TEST(Dice, SameSeedRollsTheSameFaces) {
  Rng a(99), b(99);
  Dice da, db;
  const DiceSpec spec = Parse("3d6+2");
  for (int i = 0; i < 200; ++i) {
    const DiceRoll ra = da.Roll(spec, &a), rb = db.Roll(spec, &b);
    ASSERT_EQ(ra.faces, rb.faces);
    ASSERT_EQ(ra.total, rb.total);
  }
}

TEST(Dice, ForcedTotalIsReturnedWithFacesInRange) {
  Dice dice;
  Rng rng(3);
  std::string error;
  ASSERT_TRUE(dice.Force("2d6", 7, &error)) << error;
  EXPECT_TRUE(dice.HasForced());
  const DiceRoll roll = dice.Roll(Parse("2d6"), &rng);
  EXPECT_TRUE(roll.forced);
  EXPECT_EQ(roll.total, 7);
  ASSERT_EQ(roll.faces.size(), 2u);
  for (int f : roll.faces) {
    EXPECT_GE(f, 1);
    EXPECT_LE(f, 6);
  }
  EXPECT_EQ(roll.faces[0] + roll.faces[1], 7);
  EXPECT_FALSE(dice.HasForced());  // consumed
}

TEST(Dice, EveryReachableForcedTotalSpreadsOverValidFaces) {
  for (const std::string notation : {"d6", "2d6", "3d6", "4d6", "3d4+1", "2d6-1", "5d2"}) {
    const DiceSpec spec = Parse(notation);
    for (int total = spec.Min(); total <= spec.Max(); ++total) {
      Dice dice;
      Rng rng(1);
      std::string error;
      ASSERT_TRUE(dice.Force(notation, total, &error)) << notation << " " << total << ": " << error;
      const DiceRoll roll = dice.Roll(spec, &rng);
      ASSERT_TRUE(roll.forced);
      ASSERT_EQ(roll.total, total);
      ASSERT_EQ(static_cast<int>(roll.faces.size()), spec.count);
      for (int f : roll.faces) {
        ASSERT_GE(f, 1) << notation << " forced to " << total;
        ASSERT_LE(f, spec.sides) << notation << " forced to " << total;
      }
      ASSERT_EQ(std::accumulate(roll.faces.begin(), roll.faces.end(), 0) + spec.modifier, total);
    }
  }
}

TEST(Dice, ForcedRollDoesNotTouchTheRng) {
  Dice dice;
  Rng rng(5), untouched(5);
  std::string error;
  ASSERT_TRUE(dice.Force("d6", 4, &error));
  dice.Roll(Parse("d6"), &rng);
  EXPECT_TRUE(rng == untouched);
}

TEST(Dice, ImpossibleForcedTotalsAreRefused) {
  Dice dice;
  std::string error;
  EXPECT_FALSE(dice.Force("2d6", 13, &error));
  EXPECT_NE(error.find("impossible"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(dice.Force("2d6", 1, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(dice.Force("2d6-1", 0, &error));
  EXPECT_FALSE(dice.Force("3d4+1", 14, &error));
  EXPECT_FALSE(dice.Force("banana", 3, &error));
  EXPECT_FALSE(dice.HasForced());
  EXPECT_TRUE(dice.Force("2d6-1", 1, &error));
  EXPECT_TRUE(dice.Force("3d4+1", 13, &error));
}

TEST(Dice, ForcedResultsApplyOnlyToTheirNotationInQueueOrder) {
  Dice dice;
  Rng rng(8);
  std::string error;
  ASSERT_TRUE(dice.Force("2d6", 3, &error));
  ASSERT_TRUE(dice.Force("1d6", 5, &error));  // same dice as "d6"
  ASSERT_TRUE(dice.Force("2d6", 11, &error));
  EXPECT_FALSE(dice.Roll(Parse("3d6"), &rng).forced);  // nothing queued for 3d6
  EXPECT_EQ(dice.Roll(Parse("2d6"), &rng).total, 3);
  const DiceRoll d6 = dice.Roll(Parse("d6"), &rng);
  EXPECT_TRUE(d6.forced);
  EXPECT_EQ(d6.total, 5);
  EXPECT_EQ(dice.Roll(Parse("2d6"), &rng).total, 11);
  EXPECT_FALSE(dice.HasForced());
  EXPECT_FALSE(dice.Roll(Parse("2d6"), &rng).forced);
}

TEST(Dice, ClearForcedDropsTheQueue) {
  Dice dice;
  Rng rng(2);
  std::string error;
  ASSERT_TRUE(dice.Force("d6", 6, &error));
  dice.ClearForced();
  EXPECT_FALSE(dice.HasForced());
  EXPECT_FALSE(dice.Roll(Parse("d6"), &rng).forced);
}

}  // namespace
}  // namespace plateau
