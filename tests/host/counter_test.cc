// Host counters and tracks: caps that clamp and account for losses, linear and circular tracks.
#include "host/counter.h"

#include <gtest/gtest.h>

namespace plateau {
namespace {

TEST(Counter, AddReturnsTheAppliedAmountBelowTheCap) {
  Counter c{0, 0, 10, 0};
  EXPECT_EQ(c.Add(3), 3);
  EXPECT_EQ(c.Add(-1), -1);
  EXPECT_EQ(c.value, 2);
  EXPECT_EQ(c.lost, 0);
}

TEST(Counter, CapClampsReportsWhatWasAppliedAndAccumulatesLost) {
  Counter c{0, 0, 5, 0};
  EXPECT_EQ(c.Add(4), 4);
  EXPECT_EQ(c.Add(4), 1);
  EXPECT_EQ(c.value, 5);
  EXPECT_EQ(c.lost, 3);
  EXPECT_EQ(c.Add(10), 0);
  EXPECT_EQ(c.value, 5);
  EXPECT_EQ(c.lost, 13);
  EXPECT_EQ(c.Add(-2), -2);  // spending keeps the losses on record
  EXPECT_EQ(c.lost, 13);
}

TEST(Counter, FloorClampsWithoutCountingAsLostToTheCap) {
  Counter c{3, 0, 5, 0};
  EXPECT_EQ(c.Add(-7), -3);
  EXPECT_EQ(c.value, 0);
  EXPECT_EQ(c.lost, 0);
  Counter neg{0, -5, 5, 0};
  EXPECT_EQ(neg.Add(-4), -4);
  EXPECT_EQ(neg.value, -4);
}

TEST(Counter, DefaultCounterHasNoCap) {
  Counter c;
  EXPECT_EQ(c.Add(1'000'000'000'000), 1'000'000'000'000);
  EXPECT_EQ(c.lost, 0);
}

TEST(Counter, HugeAmountsSaturateAtTheBoundsInsteadOfOverflowing) {
  Counter c;  // uncapped: max is INT64_MAX
  c.Add(10);
  EXPECT_EQ(c.Add(INT64_MAX), INT64_MAX - 10);
  EXPECT_EQ(c.value, INT64_MAX);
  EXPECT_EQ(c.lost, 10);
  EXPECT_EQ(c.Add(INT64_MAX), 0);
  EXPECT_EQ(c.value, INT64_MAX);
  EXPECT_EQ(c.lost, INT64_MAX);  // the running loss saturates too
  Counter low{0, INT64_MIN, 0, 0};
  low.Add(-10);
  EXPECT_EQ(low.Add(INT64_MIN), INT64_MIN + 10);
  EXPECT_EQ(low.value, INT64_MIN);
}

TEST(Counter, EqualityComparesEveryField) {
  Counter a{1, 0, 5, 0}, b{1, 0, 5, 0};
  EXPECT_TRUE(a == b);
  b.lost = 1;
  EXPECT_FALSE(a == b);
}

TEST(Track, LinearTrackStopsAtBothEnds) {
  Track t{10, false, 0, 0};
  EXPECT_EQ(t.Advance(3), 3);
  EXPECT_EQ(t.Advance(20), 9);
  EXPECT_EQ(t.position, 9);
  EXPECT_EQ(t.laps, 0);
  EXPECT_EQ(t.Advance(-4), 5);
  EXPECT_EQ(t.Advance(-50), 0);
  EXPECT_EQ(t.laps, 0);
}

TEST(Track, CircularTrackWrapsAndCountsLaps) {
  Track t{12, true, 10, 0};
  EXPECT_EQ(t.Advance(5), 3);
  EXPECT_EQ(t.laps, 1);
  EXPECT_EQ(t.Advance(25), 4);  // 3 + 25 = 28 = 2 laps + 4
  EXPECT_EQ(t.laps, 3);
  EXPECT_EQ(t.Advance(8), 0);   // landing exactly on the start completes a lap
  EXPECT_EQ(t.laps, 4);
}

TEST(Track, CircularTrackGoingBackwardUndoesLaps) {
  Track t{12, true, 2, 1};
  EXPECT_EQ(t.Advance(-5), 9);
  EXPECT_EQ(t.laps, 0);
  Track u{7, true, 4, 0};
  u.Advance(100);
  u.Advance(-100);
  EXPECT_EQ(u.position, 4);
  EXPECT_EQ(u.laps, 0);
}

TEST(Track, ZeroStepsChangeNothing) {
  Track t{5, true, 4, 2};
  EXPECT_EQ(t.Advance(0), 4);
  EXPECT_EQ(t.laps, 2);
}

}  // namespace
}  // namespace plateau
