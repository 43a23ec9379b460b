// Dense growable square grid (see grid.h).
#include "host/grid.h"

#include "host/limits.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace plateau {
namespace {
constexpr int kOrth[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
constexpr int kDiag[4][2] = {{-1, -1}, {-1, 1}, {1, 1}, {1, -1}};
}  // namespace

uint64_t NewContentVersion() {
  static std::atomic<uint64_t> next_block{1};
  constexpr uint64_t kBlock = uint64_t{1} << 16;
  thread_local uint64_t next = 0, end = 0;
  if (next == end) {
    next = next_block.fetch_add(1, std::memory_order_relaxed) * kBlock;
    end = next + kBlock;
  }
  return next++;
}

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
  constexpr int64_t kMaxCells = limits::kGridWindowCells, kMaxCoord = int64_t{1} << 30;
  const int64_t h64 = want_r1 - want_r0 + 1, w64 = want_c1 - want_c0 + 1;
  if (want_r0 < -kMaxCoord || want_r1 > kMaxCoord || want_c0 < -kMaxCoord || want_c1 > kMaxCoord ||
      h64 > kMaxCells / w64)
    throw std::length_error("grid cell [" + std::to_string(row) + ", " + std::to_string(col) +
                            "] is too far from the others: the grid would span more than " +
                            std::to_string(kMaxCells) + " cells");
  const int nh = static_cast<int>(h64), nw = static_cast<int>(w64);
  std::vector<Cell> fresh(static_cast<size_t>(nh * nw));
  std::vector<uint8_t> fresh_touch(static_cast<size_t>(nh * nw), 0);
  for (int r = 0; r < height_; ++r)
    for (int c = 0; c < width_; ++c) {
      const size_t to = static_cast<size_t>((r + origin_row_ - want_r0) * nw + (c + origin_col_ - want_c0));
      fresh[to] = data_[static_cast<size_t>(r * width_ + c)];
      fresh_touch[to] = touch_[static_cast<size_t>(r * width_ + c)];
    }
  touch_ = std::move(fresh_touch);
  data_ = std::move(fresh);
  origin_row_ = static_cast<int>(want_r0); origin_col_ = static_cast<int>(want_c0); height_ = nh; width_ = nw;
  // Cells that were outside the old storage missed their neighbours' counts: recount (rare).
  std::fill(touch_.begin(), touch_.end(), 0);
  for (int r = 0; r < height_; ++r)
    for (int c = 0; c < width_; ++c)
      if (!data_[static_cast<size_t>(r * width_ + c)].empty()) AddTouch(r + origin_row_, c + origin_col_, 1);
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
  // Each storage cell keeps how many placed cells touch it (maintained by Set and Take), so
  // the playout loop's question "where may a card go" is one pass over the window.
  if (rules_.must_touch) {
    // A cell outside storage touches nothing (storage keeps a margin around placed cells), so
    // the window shrinks to storage and the pass reads two arrays row by row.
    r0 = std::max(r0, origin_row_);
    r1 = std::min(r1, origin_row_ + height_ - 1);
    c0 = std::max(c0, origin_col_);
    c1 = std::min(c1, origin_col_ + width_ - 1);
    for (int r = r0; r <= r1; ++r) {
      const size_t row = static_cast<size_t>(r - origin_row_) * static_cast<size_t>(width_);
      for (int c = c0; c <= c1; ++c) {
        const size_t i = row + static_cast<size_t>(c - origin_col_);
        if (touch_[i] != 0 && data_[i].empty()) out->push_back({r, c});
      }
    }
    return;
  }
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c) {
      const uint64_t rr = static_cast<uint64_t>(int64_t{r} - origin_row_), cc = static_cast<uint64_t>(int64_t{c} - origin_col_);
      if (rr >= static_cast<uint64_t>(height_) || cc >= static_cast<uint64_t>(width_)) {
        out->push_back({r, c});  // outside storage: empty
        continue;
      }
      if (data_[rr * static_cast<uint64_t>(width_) + cc].empty()) out->push_back({r, c});
    }
}

void Grid::Set(int row, int col, const Cell& cell) {
  version_ = NewContentVersion();
  if (cell.empty()) {
    Take(row, col);
    return;
  }
  // Unbounded directions keep a margin so every placed cell's neighbours are in storage
  // (their touching counts must exist); bounded grids reserve their whole frame up front.
  if (!Get(row, col) || (!rules_.max_rows && (!Get(row - 1, col) || !Get(row + 1, col))) ||
      (!rules_.max_cols && (!Get(row, col - 1) || !Get(row, col + 1))))
    Grow(row, col);
  Cell* slot = Mutable(row, col);
  if (slot->empty()) {
    AddTouch(row, col, 1);
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
  version_ = NewContentVersion();
  Cell old = *slot;
  *slot = Cell{};
  AddTouch(row, col, -1);
  --count_;
  RecomputeBounds();
  return old;
}

void Grid::AddTouch(int row, int col, int delta) {
  static constexpr int kDelta[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
  for (const auto& d : kDelta) {
    const uint64_t r = static_cast<uint64_t>(int64_t{row} + d[0] - origin_row_);
    const uint64_t c = static_cast<uint64_t>(int64_t{col} + d[1] - origin_col_);
    if (r < static_cast<uint64_t>(height_) && c < static_cast<uint64_t>(width_))
      touch_[r * static_cast<uint64_t>(width_) + c] = static_cast<uint8_t>(touch_[r * static_cast<uint64_t>(width_) + c] + delta);
  }
}

// Relocations on a bounding box (with its margin) of at most 64 cells, as bit boards: an
// octopus is played on a 4 x 5 frame (42 cells with the margin) in every Océan game, and the
// bots ask for its options each time. Same results, in the same order, as the general loop.
void Grid::SmallRelocations(bool keep_connected, std::vector<Relocation>* out) const {
  using Bits = uint64_t;
  const int R = bounds_.rows(), C = bounds_.cols(), W = C + 2, H = R + 2, N = W * H;
  const int r0 = bounds_.min_row - 1, c0 = bounds_.min_col - 1;
  const Bits all = N == 64 ? ~Bits{0} : (Bits{1} << N) - 1;
  Bits first_col = 0, last_col = 0, row_bits[64 / 3 + 1] = {}, col_bits[64 / 3 + 1] = {};
  for (int e = 0; e < N; ++e) {
    if (e % W == 0) first_col |= Bits{1} << e;
    if (e % W == W - 1) last_col |= Bits{1} << e;
    row_bits[e / W] |= Bits{1} << e;
    col_bits[e % W] |= Bits{1} << e;
  }
  // Orthogonal neighbours of every cell of `b`, inside the box.
  auto spread = [&](Bits b) {
    return (((b << 1) & ~first_col) | ((b >> 1) & ~last_col) | (b << W) | (b >> W)) & all;
  };
  CardId card[64];
  Bits occ = 0;
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      const int e = (r + 1) * W + c + 1;
      const Cell* cell = Get(bounds_.min_row + r, bounds_.min_col + c);
      card[e] = cell && !cell->empty() ? cell->item : kNoCard;
      if (card[e] != kNoCard) occ |= Bits{1} << e;
    }
  auto at = [&](int e) { return Coord{r0 + e / W, c0 + e % W}; };
  const Bits dests = spread(occ) & ~occ;  // empty cells touching a card
  Bits comps[64];
  for (Bits srcs = occ; srcs; srcs &= srcs - 1) {
    const int src = std::countr_zero(srcs);
    const Bits others = occ & ~(Bits{1} << src);
    int minr = H, maxr = -1, minc = W, maxc = -1;
    for (int r = 0; r < H; ++r)
      if (others & row_bits[r]) { minr = std::min(minr, r); maxr = r; }
    for (int c = 0; c < W; ++c)
      if (others & col_bits[c]) { minc = std::min(minc, c); maxc = c; }
    int ncomp = 0;
    if (keep_connected)
      for (Bits left = others; left;) {
        Bits comp = left & (~left + 1);
        for (Bits grown; (grown = (comp | spread(comp)) & others) != comp;) comp = grown;
        comps[ncomp++] = comp;
        left &= ~comp;
      }
    for (Bits ds = dests; ds; ds &= ds - 1) {
      const int d = std::countr_zero(ds);
      const Bits near = spread(Bits{1} << d);
      if (rules_.must_touch && !(near & others)) continue;
      const int er = d / W, ec = d % W;
      const int rows = std::max(maxr, er) - std::min(minr, er) + 1;
      const int cols = std::max(maxc, ec) - std::min(minc, ec) + 1;
      if (rules_.max_rows && rows > rules_.max_rows) continue;
      if (rules_.max_cols && cols > rules_.max_cols) continue;
      bool connected = true;
      for (int k = 0; k < ncomp && connected; ++k) connected = (near & comps[k]) != 0;
      if (!connected) continue;
      out->push_back({false, at(src), at(d)});
    }
  }
  for (Bits a = occ; a; a &= a - 1) {
    const int ea = std::countr_zero(a);
    for (Bits b = a & (a - 1); b; b &= b - 1) {
      const int eb = std::countr_zero(b);
      if (card[ea] != card[eb]) out->push_back({true, at(ea), at(eb)});
    }
  }
}

void Grid::Relocations(bool keep_connected, std::vector<Relocation>* out) const {
  out->clear();
  if (count_ == 0) return;
  // The bounding box with a one-cell margin, as dense arrays: a destination can only be there.
  const int R = bounds_.rows(), C = bounds_.cols(), W = C + 2, H = R + 2;
  if (W * H <= 64) return SmallRelocations(keep_connected, out);
  const int r0 = bounds_.min_row - 1, c0 = bounds_.min_col - 1;
  std::vector<CardId> card(static_cast<size_t>(W * H), kNoCard);
  std::vector<int> cards;  // occupied dense indices, reading order
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c)
      if (const Cell* cell = Get(bounds_.min_row + r, bounds_.min_col + c); cell && !cell->empty()) {
        const int e = (r + 1) * W + c + 1;
        card[static_cast<size_t>(e)] = cell->item;
        cards.push_back(e);
      }
  auto occupied = [&](int e) { return card[static_cast<size_t>(e)] != kNoCard; };
  auto at = [&](int e) { return Coord{r0 + e / W, c0 + e % W}; };
  // Empty cells touching a card, with those neighbours.
  struct Dest {
    int e;
    int near[4];
    int n = 0;
  };
  std::vector<Dest> dests;
  for (int e = 0; e < W * H; ++e) {
    if (occupied(e)) continue;
    const int er = e / W, ec = e % W;
    Dest d{e, {}, 0};
    if (er > 0 && occupied(e - W)) d.near[d.n++] = e - W;
    if (ec < W - 1 && occupied(e + 1)) d.near[d.n++] = e + 1;
    if (er < H - 1 && occupied(e + W)) d.near[d.n++] = e + W;
    if (ec > 0 && occupied(e - 1)) d.near[d.n++] = e - 1;
    if (d.n > 0) dests.push_back(d);
  }
  std::vector<int> comp(static_cast<size_t>(W * H), 0), stack;
  for (const int src : cards) {
    // The frame of the other cards.
    int minr = H, maxr = -1, minc = W, maxc = -1;
    for (const int e : cards) {
      if (e == src) continue;
      minr = std::min(minr, e / W); maxr = std::max(maxr, e / W);
      minc = std::min(minc, e % W); maxc = std::max(maxc, e % W);
    }
    // Components of the other cards: a destination keeps the grid connected when it touches
    // every one of them.
    int ncomp = 0;
    if (keep_connected) {
      for (const int e : cards) comp[static_cast<size_t>(e)] = 0;
      comp[static_cast<size_t>(src)] = -1;
      for (const int start : cards) {
        if (comp[static_cast<size_t>(start)] != 0) continue;
        comp[static_cast<size_t>(start)] = ++ncomp;
        stack.assign(1, start);
        while (!stack.empty()) {
          const int e = stack.back();
          stack.pop_back();
          const int er = e / W, ec = e % W;
          const int next[4] = {er > 0 ? e - W : -1, ec < W - 1 ? e + 1 : -1, er < H - 1 ? e + W : -1, ec > 0 ? e - 1 : -1};
          for (const int f : next)
            if (f >= 0 && occupied(f) && comp[static_cast<size_t>(f)] == 0) {
              comp[static_cast<size_t>(f)] = ncomp;
              stack.push_back(f);
            }
        }
      }
    }
    for (const Dest& d : dests) {
      int touch = 0, reached[4], nreached = 0;
      for (int k = 0; k < d.n; ++k) {
        const int f = d.near[k];
        if (f == src) continue;
        ++touch;
        const int x = comp[static_cast<size_t>(f)];
        if (keep_connected && std::find(reached, reached + nreached, x) == reached + nreached) reached[nreached++] = x;
      }
      if (rules_.must_touch && touch == 0) continue;
      const int er = d.e / W, ec = d.e % W;
      const int rows = std::max(maxr, er) - std::min(minr, er) + 1;
      const int cols = std::max(maxc, ec) - std::min(minc, ec) + 1;
      if (rules_.max_rows && rows > rules_.max_rows) continue;
      if (rules_.max_cols && cols > rules_.max_cols) continue;
      if (keep_connected && nreached != ncomp) continue;
      out->push_back({false, at(src), at(d.e)});
    }
  }
  for (size_t a = 0; a + 1 < cards.size(); ++a)
    for (size_t b = a + 1; b < cards.size(); ++b)
      if (card[static_cast<size_t>(cards[a])] != card[static_cast<size_t>(cards[b])])
        out->push_back({true, at(cards[a]), at(cards[b])});
}

void Grid::SetFaceDown(int row, int col, bool down) {
  Cell* slot = Mutable(row, col);
  if (slot && !slot->empty() && slot->face_down != (down ? 1 : 0)) {
    slot->face_down = down ? 1 : 0;
    version_ = NewContentVersion();
  }
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
