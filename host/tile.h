// Tiles with four edges, quarter-turn rotation and edge matching (Carcassonne-style).
// Edge terrain codes are small integers interned by the game's tile data.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "host/grid.h"

namespace plateau {

enum Side { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };

struct TileType {
  std::string id;
  std::array<int, 4> edges{};  // terrain code on N, E, S, W before rotation
};

// The terrain on `side` of a tile rotated `rotation` quarter turns clockwise.
inline int RotatedEdge(const TileType& t, int rotation, int side) {
  return t.edges[static_cast<size_t>(((side - rotation) % 4 + 4) % 4)];
}

// Whether tile `type` with `rotation` fits at (row, col): every occupied orthogonal
// neighbour shows the same terrain on the shared edge. Cells' items index `types`.
bool TileFits(const Grid& grid, const std::vector<TileType>& types, int row, int col, int type,
              int rotation, std::string* why);

}  // namespace plateau
