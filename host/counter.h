// Counters with caps (copper, water, food...) and tracks (score track, circular time track).
// A counter clamps at its bounds and reports what the clamp cost, so games can log
// "resources lost to caps" without re-deriving it.
#pragma once

#include <cstdint>
#include <string>

namespace plateau {

struct Counter {
  int64_t value = 0;
  int64_t min = 0;
  int64_t max = INT64_MAX;  // INT64_MAX: no cap
  int64_t lost = 0;         // total clamped away at the cap, over the whole game

  // Adds delta (may be negative); clamps to [min, max]; returns the amount actually applied.
  int64_t Add(int64_t delta) {
    // 128-bit intermediates: huge deltas saturate at the bounds instead of overflowing.
    const __int128 want = static_cast<__int128>(value) + delta;
    __int128 got = want;
    if (got > max) got = max;
    if (got < min) got = min;
    if (want > got) {
      const __int128 total = static_cast<__int128>(lost) + (want - got);
      lost = total > INT64_MAX ? INT64_MAX : static_cast<int64_t>(total);
    }
    const int64_t applied = static_cast<int64_t>(got - value);
    value = static_cast<int64_t>(got);
    return applied;
  }
  bool operator==(const Counter&) const = default;
};

struct Track {
  int length = 1;         // number of spaces
  bool circular = false;  // circular tracks wrap around; linear ones stop at the last space
  int position = 0;
  int laps = 0;  // completed laps on circular tracks

  // Moves `steps` spaces (may be negative on linear tracks); returns the new position.
  // Laps are counted by division, not one loop per lap: a move of 2^40 spaces costs what a
  // move of one does. The lap count saturates instead of overflowing.
  int Advance(int64_t steps) {
    const __int128 p = static_cast<__int128>(position) + steps;
    if (circular) {
      __int128 lap = p / length, rest = p % length;
      if (rest < 0) {
        rest += length;
        --lap;
      }
      const __int128 total = laps + lap;
      laps = total > INT32_MAX ? INT32_MAX : total < INT32_MIN ? INT32_MIN : static_cast<int>(total);
      position = static_cast<int>(rest);
    } else {
      position = p < 0 ? 0 : p >= length ? length - 1 : static_cast<int>(p);
    }
    return position;
  }
  bool operator==(const Track&) const = default;
};

}  // namespace plateau
