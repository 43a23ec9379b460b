// Seeded random number generator whose whole state is part of the game state.
// xoshiro256** seeded through splitmix64; every draw is platform independent (no libm,
// no std:: distributions), so a seed and a move log replay identically everywhere.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace plateau {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { Seed(seed); }

  void Seed(uint64_t seed);
  uint64_t Next();
  // Uniform integer in [lo, hi]; requires lo <= hi. Unbiased (Lemire's method).
  int64_t Int(int64_t lo, int64_t hi);
  // Uniform index in [0, n); requires n > 0.
  uint32_t Below(uint32_t n);
  // Uniform double in [0, 1) built from 53 random bits.
  double Unit();

  // Serialized as 64 hex digits; FromString rejects anything else.
  std::string ToString() const;
  static bool FromString(const std::string& text, Rng* out);

  bool operator==(const Rng& other) const { return s_ == other.s_; }

 private:
  std::array<uint64_t, 4> s_{};
};

}  // namespace plateau
