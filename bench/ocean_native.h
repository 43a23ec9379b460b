// A plain C++ implementation of Écosystème – Océan (the draft with random picks, the
// octopus's move-or-swap answered at random, the whales' flips chosen at random, and the
// full scoring), written only as the baseline the Lua-scripted game is measured against,
// plus the entry points `plateau-bench --check-ocean` uses to hold it to the Lua rules.
// Never used by the product.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace plateau::bench {

// Plays one game (2 to 6 players; 2 adds the neutral hand) with uniformly random legal
// moves and random answers to every question the Lua game asks, and scores it. Returns the
// sum of the totals (so the work cannot be optimised away).
int64_t NativeOceanPlayout(uint64_t seed, int players);

// --- For the check against the Lua rules -------------------------------------------------

// The score categories, in the order of game.categories in games/ecosysteme-ocean/rules.lua.
constexpr int kOceanCategories = 12;
extern const char* const kOceanCategoryNames[kOceanCategories];

// Card index of a card id of data/cards.json ("coral", ...), or -1.
int OceanCardIndex(const std::string& id);

// A finished 4 x 5 ecosystem, row-major, row 0 on top; card -1 for an empty cell.
struct OceanGrid {
  int8_t card[20];
  bool down[20];
};

struct OceanScore {
  int total = 0;
  int points[kOceanCategories] = {};
};

// Scores finished grids with their face-down cards as they are (every whale has acted).
// `neutral_plankton` < 0: no neutral seat; else the neutral pile's plankton, which rank.
void NativeOceanScore(const OceanGrid* grids, int players, int neutral_plankton, OceanScore* out);

// One answer to the octopus question, in coordinates relative to the top-left card of the
// grid's bounding box: kind 0 skip, 1 move the card at from to the empty cell to, 2 swap.
struct OceanOctopusOption {
  int kind;
  int from_row, from_col, to_row, to_col;
};

// The answers the octopus question lists for a grid given as its bounding box (`cells`
// row-major, rows x cols, -1 empty), skip first; only skip means no question is asked.
void NativeOceanOctopusOptions(const int8_t* cells, int rows, int cols, std::vector<OceanOctopusOption>* out);

}  // namespace plateau::bench
