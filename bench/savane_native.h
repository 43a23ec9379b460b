// A plain C++ implementation of Écosystème – Savane (4-player draft with random picks and
// the full scoring), written only as the baseline the Lua-scripted game is measured
// against. Never used by the product.
#pragma once

#include <cstdint>

namespace plateau::bench {

// Plays one 4-player game with uniformly random legal moves and scores it. Returns the
// sum of the totals (so the work cannot be optimised away).
int64_t NativeSavanePlayout(uint64_t seed, int players);

}  // namespace plateau::bench
