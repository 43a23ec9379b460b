// A plain C++ implementation of Écosystème – Savane (4-player draft with random picks and
// the full scoring), written only as the baseline the Lua-scripted game is measured
// against. Never used by the product.
#pragma once

#include <cstdint>

namespace plateau::bench {

// Plays one 4-player game with uniformly random legal moves and scores it. Returns the
// sum of the totals (so the work cannot be optimised away).
int64_t NativeSavanePlayout(uint64_t seed, int players);

// Plays one game between greedy players, as `plateau simulate --bots greedy` does: each pick
// tries every distinct card on every placeable cell, scores the whole table (every grid, the
// lions' best prey, the gazelle majority) and keeps the best of the seat's total minus half
// the best other total, ties broken at random. The limit of the scripted greedy game
// (issue 19's ratio). Returns the sum of the final totals.
int64_t NativeSavaneGreedyGame(uint64_t seed, int players);

}  // namespace plateau::bench
