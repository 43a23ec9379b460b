// Square grids of cells, bounded or unbounded, holding one card or tile per cell.
// Storage is a dense window that grows as cells are placed, so neighbour and frame
// queries in the playout loop touch contiguous memory instead of hashing.
// The "floating frame" of Écosystème is a bound on the bounding box of placed cells:
// a new cell may never make it taller than max_rows or wider than max_cols, which is
// the same as the frame becoming fixed in a direction once a 4th row or 5th column exists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/cards.h"

namespace plateau {

struct Coord {
  int row = 0;
  int col = 0;
  bool operator==(const Coord&) const = default;
};

struct Cell {
  CardId item = kNoCard;  // card or tile type id
  uint8_t rotation = 0;   // quarter turns clockwise (tiles)
  uint8_t face_down = 0;
  bool empty() const { return item == kNoCard; }
  bool operator==(const Cell&) const = default;
};

enum class Adjacency { kOrthogonal, kDiagonal, kAll };

struct GridRules {
  int max_rows = 0;        // 0: unbounded
  int max_cols = 0;        // 0: unbounded
  bool must_touch = true;  // every cell after the first touches a placed cell orthogonally
  bool operator==(const GridRules&) const = default;
};

// One way to rearrange placed cards: move the card at `from` to the empty cell `to`, or swap
// the cards at `from` and `to`.
struct Relocation {
  bool swap = false;
  Coord from, to;
};

struct Bounds {
  int min_row = 0, max_row = -1, min_col = 0, max_col = -1;
  int rows() const { return max_row - min_row + 1; }
  int cols() const { return max_col - min_col + 1; }
  bool empty() const { return max_row < min_row; }
};

// Distances between cells: Manhattan (orthogonal steps) and Chebyshev (king moves).
inline int ManhattanDistance(Coord a, Coord b) {
  return (a.row > b.row ? a.row - b.row : b.row - a.row) + (a.col > b.col ? a.col - b.col : b.col - a.col);
}
inline int ChebyshevDistance(Coord a, Coord b) {
  const int dr = a.row > b.row ? a.row - b.row : b.row - a.row, dc = a.col > b.col ? a.col - b.col : b.col - a.col;
  return dr > dc ? dr : dc;
}

// A number no other content has carried in this process: a grid's version (Grid::version).
// Drawn per thread in blocks, so the bots' trials on two cores do not contend for one counter.
uint64_t NewContentVersion();

class Grid {
 public:
  Grid() = default;
  explicit Grid(GridRules rules) : rules_(rules) {}

  const GridRules& rules() const { return rules_; }
  int count() const { return count_; }
  // Cells the dense window stores (what the grid costs in memory, empty cells included).
  int64_t window_cells() const { return int64_t{height_} * width_; }
  const Bounds& bounds() const { return bounds_; }
  // Changes with every change of a cell and of nothing else: two grids (or one grid at two
  // times) with the same version hold the same cells. A copy keeps its source's version, so
  // a trial undone by copying the grid back brings its version back too, and a script's
  // cache of one grid's scores (keyed by version) stays good across a bot's candidate moves.
  // Not part of the content: not saved, not compared.
  uint64_t version() const { return version_; }

  // The cell at (row, col), or nullptr when nothing was ever stored there. Inline: the
  // playout loop asks this for every neighbour of every candidate cell.
  const Cell* Get(int row, int col) const {
    // 64-bit differences: no overflow even for coordinates near INT_MIN/INT_MAX.
    const uint64_t r = static_cast<uint64_t>(int64_t{row} - origin_row_);
    const uint64_t c = static_cast<uint64_t>(int64_t{col} - origin_col_);
    if (r >= static_cast<uint64_t>(height_) || c >= static_cast<uint64_t>(width_)) return nullptr;
    return &data_[r * static_cast<uint64_t>(width_) + c];
  }
  bool Occupied(int row, int col) const {
    const Cell* c = Get(row, col);
    return c && !c->empty();
  }
  // Whether a new cell may go at (row, col) under the grid rules; *why says why not.
  bool CanPlace(int row, int col, std::string* why) const;
  // Appends every cell where CanPlace holds, in row-major order.
  void Placeable(std::vector<Coord>* out) const;
  // Stores a cell without checking the rules (callers check CanPlace for player moves).
  void Set(int row, int col, const Cell& cell);
  // Empties a cell; returns the previous contents.
  Cell Take(int row, int col);
  void SetFaceDown(int row, int col, bool down);

  // Occupied neighbours of a cell.
  void Neighbors(int row, int col, Adjacency adj, std::vector<Coord>* out) const;
  // Every occupied cell in row-major order.
  void OccupiedCells(std::vector<Coord>* out) const;
  // Coordinates re-based so the bounding box starts at (0, 0); row 0 is the top row.
  Coord Normalized(Coord c) const { return {c.row - bounds_.min_row, c.col - bounds_.min_col}; }
  Coord Denormalized(Coord c) const { return {c.row + bounds_.min_row, c.col + bounds_.min_col}; }
  // Whether the frame is complete: exactly max_rows x max_cols and full.
  bool Full() const;
  // Every legal rearrangement of one card (an octopus's move-or-swap): each move of a placed
  // card to an empty cell that keeps the grid's rules (the card touches another one when
  // must_touch, the frame holds) and, with `keep_connected`, leaves every card connected;
  // then each swap of two different cards. Moves by source then destination, swaps by first
  // then second card, all in reading order.
  void Relocations(bool keep_connected, std::vector<Relocation>* out) const;

  bool operator==(const Grid& other) const;

 private:
  Cell* Mutable(int row, int col);
  void SmallRelocations(bool keep_connected, std::vector<Relocation>* out) const;
  void Grow(int row, int col);
  void RecomputeBounds();
  void AddTouch(int row, int col, int delta);

  GridRules rules_;
  int origin_row_ = 0, origin_col_ = 0;  // coordinates of data_[0]
  int height_ = 0, width_ = 0;
  std::vector<Cell> data_;
  std::vector<uint8_t> touch_;  // per storage cell: occupied orthogonal neighbours (derived)
  int count_ = 0;
  Bounds bounds_;
  uint64_t version_ = NewContentVersion();
};

}  // namespace plateau
