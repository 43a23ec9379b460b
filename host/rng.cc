// Implementation of the host RNG (see rng.h).
#include "host/rng.h"

#include <cstdio>

namespace plateau {
namespace {
uint64_t SplitMix(uint64_t* x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
inline uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

void Rng::Seed(uint64_t seed) {
  uint64_t x = seed;
  for (auto& word : s_) word = SplitMix(&x);
}

uint64_t Rng::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

uint32_t Rng::Below(uint32_t n) {
  // Lemire's multiply-shift with rejection: unbiased and branch-light.
  uint64_t m = (Next() >> 32) * uint64_t{n};
  uint32_t low = static_cast<uint32_t>(m);
  if (low < n) {
    const uint32_t threshold = static_cast<uint32_t>(-n) % n;
    while (low < threshold) {
      m = (Next() >> 32) * uint64_t{n};
      low = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

int64_t Rng::Int(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (span < 0xffffffffULL) return lo + Below(static_cast<uint32_t>(span + 1));
  if (span == UINT64_MAX) return static_cast<int64_t>(Next());
  const uint64_t range = span + 1;
  const uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  uint64_t x;
  do x = Next();
  while (x >= limit);
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + x % range);
}

double Rng::Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

std::string Rng::ToString() const {
  char buf[65];
  for (int i = 0; i < 4; ++i) std::snprintf(buf + 16 * i, 17, "%016llx", static_cast<unsigned long long>(s_[i]));
  return std::string(buf, 64);
}

bool Rng::FromString(const std::string& text, Rng* out) {
  if (text.size() != 64) return false;
  Rng r;
  for (int i = 0; i < 4; ++i) {
    uint64_t v = 0;
    for (int j = 0; j < 16; ++j) {
      const char c = text[16 * i + j];
      int d;
      if (c >= '0' && c <= '9') d = c - '0';
      else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else return false;
      v = (v << 4) | static_cast<uint64_t>(d);
    }
    r.s_[i] = v;
  }
  if (r.s_[0] == 0 && r.s_[1] == 0 && r.s_[2] == 0 && r.s_[3] == 0) return false;
  *out = r;
  return true;
}

}  // namespace plateau
