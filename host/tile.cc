// Edge matching for tiles (see tile.h).
#include "host/tile.h"

namespace plateau {

bool TileFits(const Grid& grid, const std::vector<TileType>& types, int row, int col, int type,
              int rotation, std::string* why) {
  static constexpr int kDelta[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
  static const char* kSideName[4] = {"north", "east", "south", "west"};
  const TileType& me = types.at(static_cast<size_t>(type));
  for (int side = 0; side < 4; ++side) {
    const Cell* n = grid.Get(row + kDelta[side][0], col + kDelta[side][1]);
    if (!n || n->empty()) continue;
    const TileType& other = types.at(static_cast<size_t>(n->item));
    const int mine = RotatedEdge(me, rotation, side);
    const int theirs = RotatedEdge(other, n->rotation, (side + 2) % 4);
    if (mine != theirs) {
      if (why) *why = std::string("edge mismatch on the ") + kSideName[side] + " side";
      return false;
    }
  }
  return true;
}

}  // namespace plateau
