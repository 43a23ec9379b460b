// Host RNG: determinism, ranges and the serialized state round trip.
#include "host/rng.h"

#include <gtest/gtest.h>

namespace plateau {
namespace {

TEST(Rng, SameSeedGivesSameSequence) {
  Rng a(42), b(42);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.Next(), b.Next());
}

TEST(Rng, IntStaysInRangeAndHitsBothEnds) {
  Rng r(7);
  bool lo = false, hi = false;
  for (int i = 0; i < 10000; ++i) {
    const int64_t v = r.Int(-3, 3);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    lo |= v == -3;
    hi |= v == 3;
  }
  EXPECT_TRUE(lo && hi);
}

TEST(Rng, StateRoundTripsThroughText) {
  Rng r(9);
  r.Next();
  Rng copy;
  ASSERT_TRUE(Rng::FromString(r.ToString(), &copy));
  EXPECT_EQ(copy.Next(), r.Next());
  EXPECT_FALSE(Rng::FromString("xyz", &copy));
  EXPECT_FALSE(Rng::FromString(std::string(64, '0'), &copy));
}

}  // namespace
}  // namespace plateau
