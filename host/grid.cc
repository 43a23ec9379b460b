// Dense growable square grid (see grid.h).
#include "host/grid.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace plateau {
namespace {
constexpr int kOrth[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
constexpr int kDiag[4][2] = {{-1, -1}, {-1, 1}, {1, 1}, {1, -1}};
}  // namespace


Cell* Grid::Mutable(int row, int col) { return const_cast<Cell*>(Get(row, col)); }

void Grid::Grow(int row, int col) {
  // Bounded grids reserve the whole reachable window around the first cell at once.
  // 64-bit arithmetic: Set does not check the rules, so the cell may be absurdly far away.
  int64_t want_r0, want_r1, want_c0, want_c1;
  if (height_ == 0) {
    const int64_t hr = rules_.max_rows ? rules_.max_rows - 1 : 4;
    const int64_t hc = rules_.max_cols ? rules_.max_cols - 1 : 4;
    want_r0 = row - hr; want_r1 = row + hr;
    want_c0 = col - hc; want_c1 = col + hc;
  } else {
    want_r0 = std::min<int64_t>(origin_row_, int64_t{row} - (rules_.max_rows ? 0 : 4));
    want_r1 = std::max<int64_t>(origin_row_ + height_ - 1, int64_t{row} + (rules_.max_rows ? 0 : 4));
    want_c0 = std::min<int64_t>(origin_col_, int64_t{col} - (rules_.max_cols ? 0 : 4));
    want_c1 = std::max<int64_t>(origin_col_ + width_ - 1, int64_t{col} + (rules_.max_cols ? 0 : 4));
  }
  constexpr int64_t kMaxCells = int64_t{1} << 22, kMaxCoord = int64_t{1} << 30;
  const int64_t h64 = want_r1 - want_r0 + 1, w64 = want_c1 - want_c0 + 1;
  if (want_r0 < -kMaxCoord || want_r1 > kMaxCoord || want_c0 < -kMaxCoord || want_c1 > kMaxCoord ||
      h64 > kMaxCells / w64)
    throw std::length_error("grid cell [" + std::to_string(row) + ", " + std::to_string(col) +
                            "] is too far from the others: the grid would span more than " +
                            std::to_string(kMaxCells) + " cells");
  const int nh = static_cast<int>(h64), nw = static_cast<int>(w64);
  std::vector<Cell> fresh(static_cast<size_t>(nh * nw));
  for (int r = 0; r < height_; ++r)
    for (int c = 0; c < width_; ++c)
      fresh[static_cast<size_t>((r + origin_row_ - want_r0) * nw + (c + origin_col_ - want_c0))] =
          data_[static_cast<size_t>(r * width_ + c)];
  data_ = std::move(fresh);
  origin_row_ = static_cast<int>(want_r0); origin_col_ = static_cast<int>(want_c0); height_ = nh; width_ = nw;
}

bool Grid::CanPlace(int row, int col, std::string* why) const {
  if (Occupied(row, col)) {
    if (why) *why = "cell is already occupied";
    return false;
  }
  if (count_ == 0) return true;
  if (rules_.max_rows) {
    const int lo = std::min(bounds_.min_row, row), hi = std::max(bounds_.max_row, row);
    if (hi - lo + 1 > rules_.max_rows) {
      if (why) *why = "the grid would be taller than " + std::to_string(rules_.max_rows) + " rows";
      return false;
    }
  }
  if (rules_.max_cols) {
    const int lo = std::min(bounds_.min_col, col), hi = std::max(bounds_.max_col, col);
    if (hi - lo + 1 > rules_.max_cols) {
      if (why) *why = "the grid would be wider than " + std::to_string(rules_.max_cols) + " columns";
      return false;
    }
  }
  if (rules_.must_touch) {
    for (const auto& d : kOrth)
      if (Occupied(row + d[0], col + d[1])) return true;
    if (why) *why = "cell does not touch a placed card orthogonally";
    return false;
  }
  return true;
}

void Grid::Placeable(std::vector<Coord>* out) const {
  if (count_ == 0) {
    out->push_back({0, 0});
    return;
  }
  // Only cells next to the bounding box can qualify; bound the scan by the frame too.
  int r0 = bounds_.min_row - 1, r1 = bounds_.max_row + 1;
  int c0 = bounds_.min_col - 1, c1 = bounds_.max_col + 1;
  if (rules_.max_rows) { r0 = std::max(r0, bounds_.max_row - rules_.max_rows + 1); r1 = std::min(r1, bounds_.min_row + rules_.max_rows - 1); }
  if (rules_.max_cols) { c0 = std::max(c0, bounds_.max_col - rules_.max_cols + 1); c1 = std::min(c1, bounds_.min_col + rules_.max_cols - 1); }
  const int h = r1 - r0 + 1, w = c1 - c0 + 1;
  if (h <= 0 || w <= 0) return;
  // Mark the window cells touching a placed cell by walking the placed cells once (the
  // playout loop calls this for every decision), then list unmarked-free cells row-major.
  uint8_t small[256];
  std::vector<uint8_t> large;
  uint8_t* touch = small;
  const size_t area = static_cast<size_t>(h) * static_cast<size_t>(w);
  if (area > sizeof small) {
    large.assign(area, 0);
    touch = large.data();
  } else {
    std::fill(small, small + area, 0);
  }
  auto mark = [&](int r, int c) {
    if (r >= r0 && r <= r1 && c >= c0 && c <= c1) touch[static_cast<size_t>(r - r0) * static_cast<size_t>(w) + static_cast<size_t>(c - c0)] = 1;
  };
  for (int r = bounds_.min_row; r <= bounds_.max_row; ++r) {
    const Cell* row = &data_[static_cast<size_t>(r - origin_row_) * static_cast<size_t>(width_) +
                             static_cast<size_t>(bounds_.min_col - origin_col_)];
    for (int c = bounds_.min_col; c <= bounds_.max_col; ++c, ++row) {
      if (row->empty()) continue;
      if (rules_.must_touch) {
        mark(r - 1, c); mark(r + 1, c); mark(r, c - 1); mark(r, c + 1);
      }
    }
  }
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c) {
      if (rules_.must_touch && !touch[static_cast<size_t>(r - r0) * static_cast<size_t>(w) + static_cast<size_t>(c - c0)]) continue;
      if (Occupied(r, c)) continue;
      out->push_back({r, c});
    }
}

void Grid::Set(int row, int col, const Cell& cell) {
  if (cell.empty()) {
    Take(row, col);
    return;
  }
  if (!Get(row, col)) Grow(row, col);
  Cell* slot = Mutable(row, col);
  if (slot->empty()) {
    ++count_;
    if (count_ == 1) bounds_ = {row, row, col, col};
    else {
      bounds_.min_row = std::min(bounds_.min_row, row); bounds_.max_row = std::max(bounds_.max_row, row);
      bounds_.min_col = std::min(bounds_.min_col, col); bounds_.max_col = std::max(bounds_.max_col, col);
    }
  }
  *slot = cell;
}

Cell Grid::Take(int row, int col) {
  Cell* slot = Mutable(row, col);
  if (!slot || slot->empty()) return Cell{};
  Cell old = *slot;
  *slot = Cell{};
  --count_;
  RecomputeBounds();
  return old;
}

void Grid::SetFaceDown(int row, int col, bool down) {
  Cell* slot = Mutable(row, col);
  if (slot && !slot->empty()) slot->face_down = down ? 1 : 0;
}

void Grid::RecomputeBounds() {
  bounds_ = Bounds{};
  bool first = true;
  for (int r = 0; r < height_; ++r)
    for (int c = 0; c < width_; ++c) {
      if (data_[static_cast<size_t>(r * width_ + c)].empty()) continue;
      const int rr = r + origin_row_, cc = c + origin_col_;
      if (first) { bounds_ = {rr, rr, cc, cc}; first = false; continue; }
      bounds_.min_row = std::min(bounds_.min_row, rr); bounds_.max_row = std::max(bounds_.max_row, rr);
      bounds_.min_col = std::min(bounds_.min_col, cc); bounds_.max_col = std::max(bounds_.max_col, cc);
    }
}

void Grid::Neighbors(int row, int col, Adjacency adj, std::vector<Coord>* out) const {
  if (adj != Adjacency::kDiagonal)
    for (const auto& d : kOrth)
      if (Occupied(row + d[0], col + d[1])) out->push_back({row + d[0], col + d[1]});
  if (adj != Adjacency::kOrthogonal)
    for (const auto& d : kDiag)
      if (Occupied(row + d[0], col + d[1])) out->push_back({row + d[0], col + d[1]});
}

void Grid::OccupiedCells(std::vector<Coord>* out) const {
  if (count_ == 0) return;
  for (int r = bounds_.min_row; r <= bounds_.max_row; ++r)
    for (int c = bounds_.min_col; c <= bounds_.max_col; ++c)
      if (Occupied(r, c)) out->push_back({r, c});
}

bool Grid::Full() const {
  if (!rules_.max_rows || !rules_.max_cols) return false;
  return count_ == rules_.max_rows * rules_.max_cols;
}

bool Grid::operator==(const Grid& other) const {
  if (!(rules_ == other.rules_) || count_ != other.count_) return false;
  if (count_ == 0) return true;
  if (bounds_.min_row != other.bounds_.min_row || bounds_.max_row != other.bounds_.max_row ||
      bounds_.min_col != other.bounds_.min_col || bounds_.max_col != other.bounds_.max_col)
    return false;
  for (int r = bounds_.min_row; r <= bounds_.max_row; ++r)
    for (int c = bounds_.min_col; c <= bounds_.max_col; ++c) {
      const Cell* a = Get(r, c);
      const Cell* b = other.Get(r, c);
      const Cell ea = a ? *a : Cell{}, eb = b ? *b : Cell{};
      if (!(ea == eb)) return false;
    }
  return true;
}

}  // namespace plateau
