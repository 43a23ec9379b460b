// A plain C++ implementation of Carcassonne Safari between greedy players, on the host's tile
// map, written only as the speed limit the Lua-scripted greedy game (games/safari) is measured
// against: what a greedy Safari player costs without a script. Never used by the product.
#pragma once

#include <cstdint>

namespace plateau::bench {

// Plays one whole game with `players` seats (2..5) under the default parameters, every seat a
// greedy player as `plateau simulate safari --bots greedy` plays it: at each decision the legal
// move with the best value of the game's evaluate measure (the seat's points so far plus what
// the table would give if the game ended now, plus half a point per meeple in hand, minus the
// best other seat's), valued without a trial where safari/bots.lua's evaluate_moves does so and
// by a trial (apply, evaluate, take back) where it does not, ties broken at random. Returns the
// sum of the final totals (so the work cannot be optimised away); 0 when the tile data cannot
// be loaded.
int64_t NativeSafariGreedyGame(uint64_t seed, int players);

}  // namespace plateau::bench
