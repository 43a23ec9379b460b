// Host grids: the Écosystème floating 4x5 frame, placement rules, neighbours, editing and growth.
#include "host/grid.h"
#include "host/rng.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace plateau {
namespace {

const GridRules kFrame{4, 5, true};

Cell Card(CardId id) { return Cell{id}; }

// Every cell where CanPlace holds in a window wide enough to contain all candidates, row-major.
std::vector<Coord> BruteForcePlaceable(const Grid& g) {
  std::vector<Coord> out;
  const Bounds& b = g.bounds();
  for (int r = b.min_row - 6; r <= b.max_row + 6; ++r)
    for (int c = b.min_col - 6; c <= b.max_col + 6; ++c)
      if (g.CanPlace(r, c, nullptr)) out.push_back({r, c});
  return out;
}

std::vector<Coord> Placeable(const Grid& g) {
  std::vector<Coord> out;
  g.Placeable(&out);
  return out;
}

TEST(Grid, FirstCardMayGoAnywhere) {
  Grid g(kFrame);
  std::string why;
  EXPECT_TRUE(g.CanPlace(0, 0, &why));
  EXPECT_TRUE(g.CanPlace(-100, 37, &why));
  EXPECT_TRUE(g.CanPlace(5, -5, &why));
  // The move list offers a single canonical cell for the first card.
  EXPECT_EQ(Placeable(g), (std::vector<Coord>{Coord{0, 0}}));
}

TEST(Grid, NextCardMustTouchOrthogonally) {
  Grid g(kFrame);
  g.Set(0, 0, Card(1));
  std::string why;
  EXPECT_FALSE(g.CanPlace(1, 1, &why));  // diagonal only
  EXPECT_NE(why.find("touch"), std::string::npos) << why;
  EXPECT_FALSE(g.CanPlace(0, 2, &why));
  EXPECT_FALSE(g.CanPlace(-1, -1, &why));
  EXPECT_TRUE(g.CanPlace(0, 1, &why));
  EXPECT_TRUE(g.CanPlace(0, -1, &why));
  EXPECT_TRUE(g.CanPlace(1, 0, &why));
  EXPECT_TRUE(g.CanPlace(-1, 0, &why));
}

TEST(Grid, OccupiedCellIsRefused) {
  Grid g(kFrame);
  g.Set(2, 3, Card(1));
  std::string why;
  EXPECT_FALSE(g.CanPlace(2, 3, &why));
  EXPECT_NE(why.find("occupied"), std::string::npos) << why;
}

TEST(Grid, PlaceableAfterOneCardIsItsFourSidesInRowMajorOrder) {
  Grid g(kFrame);
  g.Set(0, 0, Card(1));
  EXPECT_EQ(Placeable(g), (std::vector<Coord>{{-1, 0}, {0, -1}, {0, 1}, {1, 0}}));
}

TEST(Grid, FrameRefusesAFifthRow) {
  Grid g(kFrame);
  for (int r = 0; r < 4; ++r) g.Set(r, 0, Card(1));
  std::string why;
  EXPECT_FALSE(g.CanPlace(4, 0, &why));
  EXPECT_NE(why.find("taller than 4 rows"), std::string::npos) << why;
  why.clear();
  EXPECT_FALSE(g.CanPlace(-1, 0, &why));  // once a 4th row exists, no extending up either
  EXPECT_NE(why.find("taller"), std::string::npos) << why;
  EXPECT_TRUE(g.CanPlace(0, 1, &why));
  EXPECT_TRUE(g.CanPlace(3, -1, &why));
  for (const Coord& c : Placeable(g)) {
    EXPECT_GE(c.row, 0);
    EXPECT_LE(c.row, 3);
  }
}

TEST(Grid, FrameRefusesASixthColumn) {
  Grid g(kFrame);
  for (int c = 0; c < 5; ++c) g.Set(0, c, Card(1));
  std::string why;
  EXPECT_FALSE(g.CanPlace(0, 5, &why));
  EXPECT_NE(why.find("wider than 5 columns"), std::string::npos) << why;
  EXPECT_FALSE(g.CanPlace(0, -1, &why));
  EXPECT_TRUE(g.CanPlace(-1, 2, &why));
  EXPECT_TRUE(g.CanPlace(1, 4, &why));
  EXPECT_EQ(Placeable(g).size(), 10u);  // the five cells above and the five below
}

TEST(Grid, FrameFloatsUpAndLeftBeforeItFixes) {
  Grid g(kFrame);
  g.Set(0, 0, Card(1));
  // Growing upward three times makes four rows; the frame is then fixed vertically.
  g.Set(-1, 0, Card(1));
  g.Set(-2, 0, Card(1));
  EXPECT_TRUE(g.CanPlace(-3, 0, nullptr));
  EXPECT_TRUE(g.CanPlace(1, 0, nullptr));
  g.Set(-3, 0, Card(1));
  EXPECT_FALSE(g.CanPlace(-4, 0, nullptr));
  EXPECT_FALSE(g.CanPlace(1, 0, nullptr));
  EXPECT_EQ(g.bounds().rows(), 4);
}

TEST(Grid, PlaceableListsExactlyTheLegalCells) {
  // A sequence that moves the frame around: after each placement Placeable must equal the
  // brute-force CanPlace scan, cell for cell and in the same order.
  Grid g(kFrame);
  const std::vector<Coord> path = {{0, 0}, {0, -1}, {-1, -1}, {-2, -1}, {-2, 0}, {-2, 1}, {-2, 2},
                                   {1, -1}, {1, 0},  {-1, 2},  {-1, 3},  {0, 3}, {1, 3},  {-2, 3}};
  EXPECT_EQ(Placeable(g), (std::vector<Coord>{Coord{0, 0}}));
  for (const Coord& c : path) {
    ASSERT_TRUE(g.CanPlace(c.row, c.col, nullptr)) << c.row << "," << c.col;
    g.Set(c.row, c.col, Card(2));
    ASSERT_EQ(Placeable(g), BruteForcePlaceable(g)) << "after placing " << c.row << "," << c.col;
  }
  EXPECT_EQ(g.bounds().rows(), 4);
  EXPECT_EQ(g.bounds().cols(), 5);
}

TEST(Grid, PlaceableMatchesCanPlaceOnRandomFills) {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    Grid g(kFrame);
    uint32_t x = seed * 2654435761u;
    for (int step = 0; step < 20; ++step) {
      const std::vector<Coord> options = Placeable(g);
      // (An empty grid offers only (0, 0) although CanPlace accepts any cell; see FirstCardMayGoAnywhere.)
      if (step > 0) {
        ASSERT_EQ(options, BruteForcePlaceable(g)) << "seed " << seed << " step " << step;
      }
      ASSERT_FALSE(options.empty()) << "a 4x5 frame always has room for 20 cards";
      x = x * 1664525u + 1013904223u;
      const Coord c = options[(x >> 8) % options.size()];
      g.Set(c.row, c.col, Card(static_cast<CardId>(step)));
      ASSERT_LE(g.bounds().rows(), 4);
      ASSERT_LE(g.bounds().cols(), 5);
    }
    EXPECT_TRUE(g.Full());
    EXPECT_TRUE(Placeable(g).empty());
  }
}

TEST(Grid, TwentyCardsFillTheFrame) {
  Grid g(kFrame);
  // Start bottom-right and grow up and left into negative coordinates.
  int placed = 0;
  for (int r = 0; r > -4; --r)
    for (int c = 0; c > -5; --c) {
      ASSERT_TRUE(g.CanPlace(r, c, nullptr)) << r << "," << c;
      EXPECT_FALSE(g.Full());
      g.Set(r, c, Card(static_cast<CardId>(placed++)));
    }
  EXPECT_EQ(g.count(), 20);
  EXPECT_TRUE(g.Full());
  EXPECT_TRUE(Placeable(g).empty());
  EXPECT_EQ(g.bounds().min_row, -3);
  EXPECT_EQ(g.bounds().min_col, -4);
  // Every card is still where it was put.
  int k = 0;
  for (int r = 0; r > -4; --r)
    for (int c = 0; c > -5; --c) EXPECT_EQ(g.Get(r, c)->item, k++);
}

TEST(Grid, UnboundedGridIsNeverFull) {
  Grid g(GridRules{0, 0, true});
  for (int c = 0; c < 20; ++c) g.Set(0, c, Card(1));
  EXPECT_FALSE(g.Full());
  EXPECT_TRUE(g.CanPlace(0, 20, nullptr));
}

TEST(Grid, NeighboursByAdjacency) {
  Grid g(GridRules{0, 0, false});
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) g.Set(r, c, Card(r * 3 + c));
  std::vector<Coord> orth, diag, all;
  g.Neighbors(1, 1, Adjacency::kOrthogonal, &orth);
  g.Neighbors(1, 1, Adjacency::kDiagonal, &diag);
  g.Neighbors(1, 1, Adjacency::kAll, &all);
  EXPECT_EQ(orth, (std::vector<Coord>{{0, 1}, {1, 2}, {2, 1}, {1, 0}}));  // N, E, S, W
  EXPECT_EQ(diag, (std::vector<Coord>{{0, 0}, {0, 2}, {2, 2}, {2, 0}}));  // NW, NE, SE, SW
  std::vector<Coord> both = orth;
  both.insert(both.end(), diag.begin(), diag.end());
  EXPECT_EQ(all, both);

  std::vector<Coord> corner;
  g.Neighbors(0, 0, Adjacency::kAll, &corner);
  EXPECT_EQ(corner, (std::vector<Coord>{{0, 1}, {1, 0}, {1, 1}}));
}

TEST(Grid, NeighboursSkipEmptyCells) {
  Grid g(GridRules{0, 0, false});
  g.Set(0, 0, Card(1));
  g.Set(0, 1, Card(1));
  g.Set(1, 1, Card(1));
  g.Take(0, 1);
  std::vector<Coord> out;
  g.Neighbors(0, 0, Adjacency::kOrthogonal, &out);
  EXPECT_TRUE(out.empty());
  g.Neighbors(0, 0, Adjacency::kDiagonal, &out);
  EXPECT_EQ(out, (std::vector<Coord>{Coord{1, 1}}));
}

TEST(Grid, TakeEmptiesACellAndReturnsIt) {
  Grid g(kFrame);
  g.Set(0, 0, Cell{4, 2, 1});
  g.Set(0, 1, Card(5));
  const Cell old = g.Take(0, 0);
  EXPECT_EQ(old.item, 4);
  EXPECT_EQ(old.rotation, 2);
  EXPECT_EQ(old.face_down, 1);
  EXPECT_FALSE(g.Occupied(0, 0));
  EXPECT_EQ(g.count(), 1);
  EXPECT_EQ(g.bounds().min_col, 1);  // bounds shrink to what is left
  EXPECT_TRUE(g.Take(0, 0).empty());  // taking twice yields nothing
  EXPECT_TRUE(g.Take(50, 50).empty());
  EXPECT_EQ(g.count(), 1);
  g.Take(0, 1);
  EXPECT_EQ(g.count(), 0);
  EXPECT_TRUE(g.bounds().empty());
  EXPECT_TRUE(g.CanPlace(9, 9, nullptr));  // an emptied grid accepts a first card anywhere again
}

TEST(Grid, SetReplacesWithoutRecountingAndEmptySetTakes) {
  Grid g(kFrame);
  g.Set(1, 1, Card(3));
  g.Set(1, 1, Card(4));
  EXPECT_EQ(g.count(), 1);
  EXPECT_EQ(g.Get(1, 1)->item, 4);
  g.Set(1, 1, Cell{});
  EXPECT_EQ(g.count(), 0);
  EXPECT_FALSE(g.Occupied(1, 1));
}

TEST(Grid, GetReturnsNullOutsideStorage) {
  Grid g(kFrame);
  EXPECT_EQ(g.Get(0, 0), nullptr);
  g.Set(0, 0, Card(1));
  EXPECT_NE(g.Get(0, 0), nullptr);
  EXPECT_EQ(g.Get(1000, 1000), nullptr);
  EXPECT_FALSE(g.Occupied(1000, 1000));
}

TEST(Grid, SetFaceDownFlipsOnlyOccupiedCells) {
  Grid g(kFrame);
  g.Set(0, 0, Card(7));
  g.SetFaceDown(0, 0, true);
  EXPECT_EQ(g.Get(0, 0)->face_down, 1);
  EXPECT_EQ(g.Get(0, 0)->item, 7);
  g.SetFaceDown(0, 0, false);
  EXPECT_EQ(g.Get(0, 0)->face_down, 0);
  g.SetFaceDown(0, 1, true);  // empty cell: no effect, nothing appears
  EXPECT_FALSE(g.Occupied(0, 1));
  EXPECT_EQ(g.count(), 1);
}

TEST(Grid, NormalizedCoordinatesStartAtTheTopLeft) {
  Grid g(kFrame);
  g.Set(0, 0, Card(1));
  g.Set(-1, 0, Card(1));
  g.Set(-1, -1, Card(1));
  g.Set(0, 1, Card(1));
  EXPECT_EQ(g.Normalized({-1, -1}), (Coord{0, 0}));
  EXPECT_EQ(g.Normalized({0, 1}), (Coord{1, 2}));
  for (const Coord c : {Coord{-1, -1}, Coord{0, 0}, Coord{0, 1}, Coord{3, -2}})
    EXPECT_EQ(g.Denormalized(g.Normalized(c)), c);
}

TEST(Grid, OccupiedCellsAreRowMajor) {
  Grid g(GridRules{0, 0, false});
  g.Set(2, 0, Card(1));
  g.Set(-1, 5, Card(1));
  g.Set(0, -3, Card(1));
  g.Set(-1, -2, Card(1));
  std::vector<Coord> cells;
  g.OccupiedCells(&cells);
  EXPECT_EQ(cells, (std::vector<Coord>{{-1, -2}, {-1, 5}, {0, -3}, {2, 0}}));
}

TEST(Grid, UnboundedGridGrowingInEveryDirectionKeepsItsCells) {
  Grid g(GridRules{0, 0, false});
  const std::vector<Coord> spots = {{0, 0},     {-10, 3},   {7, -12}, {25, 30}, {-40, -40},
                                    {-41, 100}, {300, -2}, {1, 1},    {-3, -3}, {0, -200}};
  std::map<std::pair<int, int>, CardId> expect;
  for (size_t i = 0; i < spots.size(); ++i) {
    g.Set(spots[i].row, spots[i].col, Cell{static_cast<CardId>(i), static_cast<uint8_t>(i % 4), 0});
    expect[{spots[i].row, spots[i].col}] = static_cast<CardId>(i);
    ASSERT_EQ(g.count(), static_cast<int>(i + 1));
    for (const auto& [rc, id] : expect) {
      const Cell* cell = g.Get(rc.first, rc.second);
      ASSERT_NE(cell, nullptr) << rc.first << "," << rc.second << " lost after placing #" << i;
      ASSERT_EQ(cell->item, id);
      ASSERT_EQ(cell->rotation, id % 4);
    }
  }
  EXPECT_EQ(g.bounds().min_row, -41);
  EXPECT_EQ(g.bounds().max_row, 300);
  EXPECT_EQ(g.bounds().min_col, -200);
  EXPECT_EQ(g.bounds().max_col, 100);
  std::vector<Coord> occ;
  g.OccupiedCells(&occ);
  EXPECT_EQ(occ.size(), spots.size());
}

TEST(Grid, AFarAwayCellIsRefusedInsteadOfOverflowingTheStorage) {
  // Set does not check the rules, so a corrupt save or a buggy script can ask for any cell.
  for (const GridRules rules : {GridRules{4, 5, true}, GridRules{0, 0, false}}) {
    Grid g(rules);
    g.Set(0, 0, Card(1));
    EXPECT_THROW(g.Set(2'000'000'000, 0, Card(2)), std::length_error);
    EXPECT_THROW(g.Set(0, -2'000'000'000, Card(2)), std::length_error);
    EXPECT_THROW(g.Set(INT32_MAX, INT32_MAX, Card(2)), std::length_error);
    EXPECT_EQ(g.count(), 1);  // unchanged
    EXPECT_EQ(g.Get(0, 0)->item, 1);
    EXPECT_EQ(g.bounds().rows(), 1);
    g.Set(0, 1, Card(3));  // still usable
    EXPECT_EQ(g.count(), 2);
  }
  Grid empty(GridRules{0, 0, false});
  EXPECT_THROW(empty.Set(INT32_MIN, 0, Card(1)), std::length_error);
  EXPECT_EQ(empty.count(), 0);
}

TEST(Grid, MustTouchHoldsOnUnboundedGrids) {
  Grid g(GridRules{0, 0, true});
  g.Set(0, 0, Card(1));
  EXPECT_FALSE(g.CanPlace(-5, 0, nullptr));
  EXPECT_TRUE(g.CanPlace(-1, 0, nullptr));
  Grid free(GridRules{0, 0, false});
  free.Set(0, 0, Card(1));
  EXPECT_TRUE(free.CanPlace(-5, 9, nullptr));
}

TEST(Grid, EqualityIgnoresStorageLayoutButNotContents) {
  Grid a(kFrame), b(kFrame);
  a.Set(0, 0, Card(1));
  a.Set(0, 1, Card(2));
  a.Set(1, 1, Card(3));
  b.Set(1, 1, Card(3));  // different first cell, so a different storage window
  b.Set(0, 1, Card(2));
  b.Set(0, 0, Card(1));
  EXPECT_TRUE(a == b);
  b.SetFaceDown(0, 0, true);
  EXPECT_FALSE(a == b);
  b.SetFaceDown(0, 0, false);
  b.Set(1, 1, Card(4));
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(Grid(kFrame) == Grid(GridRules{3, 3, true}));
}

}  // namespace
}  // namespace plateau

namespace plateau {
namespace {

// Placeable keeps incremental "touching" counts; they must stay right when the storage
// grows in every direction, and match a brute-force check of every candidate cell.
TEST(Grid, PlaceableMatchesBruteForceWhileAnUnboundedGridGrows) {
  Grid g(GridRules{0, 0, true});
  Rng rng(17);
  for (int step = 0; step < 200; ++step) {
    std::vector<Coord> fast;
    g.Placeable(&fast);
    ASSERT_FALSE(fast.empty());
    for (const Coord& c : fast) EXPECT_TRUE(g.CanPlace(c.row, c.col, nullptr)) << c.row << "," << c.col;
    // Every empty cell next to the bounding box that CanPlace accepts must be listed.
    const Bounds& b = g.bounds();
    if (g.count() > 0) {
      for (int r = b.min_row - 1; r <= b.max_row + 1; ++r) {
        for (int c = b.min_col - 1; c <= b.max_col + 1; ++c) {
          if (g.CanPlace(r, c, nullptr)) {
            EXPECT_NE(std::find(fast.begin(), fast.end(), Coord{r, c}), fast.end()) << "missing " << r << "," << c;
          }
        }
      }
    }
    const Coord pick = fast[rng.Below(static_cast<uint32_t>(fast.size()))];
    g.Set(pick.row, pick.col, Cell{static_cast<CardId>(step % 3)});
    if (step % 7 == 6) {  // take one away now and then: counts must go down too
      std::vector<Coord> occ;
      g.OccupiedCells(&occ);
      const Coord gone = occ[rng.Below(static_cast<uint32_t>(occ.size()))];
      if (g.count() > 1) g.Take(gone.row, gone.col);
    }
  }
}

// A relocation found by brute force: take the card away (or swap), then ask whether every card
// still follows the grid's rules: inside the frame, each touching another, and (keep_connected)
// all in one group.
bool BruteForceLegal(Grid g, const Relocation& r, bool keep_connected, const GridRules& rules = kFrame) {
  if (r.swap) return !(g.Get(r.from.row, r.from.col)->item == g.Get(r.to.row, r.to.col)->item);
  const Cell moved = g.Take(r.from.row, r.from.col);
  if (g.Occupied(r.to.row, r.to.col)) return false;
  bool touches = false;
  for (const auto& d : std::vector<std::pair<int, int>>{{-1, 0}, {0, 1}, {1, 0}, {0, -1}})
    touches |= g.Occupied(r.to.row + d.first, r.to.col + d.second);
  if (!touches) return false;
  g.Set(r.to.row, r.to.col, moved);
  if ((rules.max_rows && g.bounds().rows() > rules.max_rows) || (rules.max_cols && g.bounds().cols() > rules.max_cols))
    return false;
  if (!keep_connected) return true;
  std::vector<Coord> cells, group;
  g.OccupiedCells(&cells);
  std::vector<Coord> stack{cells.front()};
  group.push_back(cells.front());
  while (!stack.empty()) {
    const Coord c = stack.back();
    stack.pop_back();
    std::vector<Coord> next;
    g.Neighbors(c.row, c.col, Adjacency::kOrthogonal, &next);
    for (const Coord& n : next)
      if (std::find(group.begin(), group.end(), n) == group.end()) {
        group.push_back(n);
        stack.push_back(n);
      }
  }
  return group.size() == cells.size();
}

TEST(Grid, RelocationsOfAnLShapeAreTheLegalMovesThenTheSwapsInReadingOrder) {
  // A .      (card 0 at (0,0), card 1 at (1,0) and (1,1))
  // B B
  Grid g(kFrame);
  g.Set(0, 0, Card(0));
  g.Set(1, 0, Card(1));
  g.Set(1, 1, Card(1));
  std::vector<Relocation> out;
  g.Relocations(true, &out);
  std::vector<std::string> got;
  for (const Relocation& r : out)
    got.push_back(std::string(r.swap ? "swap " : "move ") + std::to_string(r.from.row) + "," + std::to_string(r.from.col) +
                  ">" + std::to_string(r.to.row) + "," + std::to_string(r.to.col));
  // (0,0) may go wherever it touches a B; (1,0) only where it touches both others, or the grid
  // splits; (1,1) wherever it touches A or the other B, but not where it would touch only its
  // own old cell (2,1). Swapping the two B cards changes nothing and is not listed.
  const std::vector<std::string> want = {
      "move 0,0>0,1", "move 0,0>1,-1", "move 0,0>1,2", "move 0,0>2,0", "move 0,0>2,1",
      "move 1,0>0,1",
      "move 1,1>-1,0", "move 1,1>0,-1", "move 1,1>0,1", "move 1,1>1,-1", "move 1,1>2,0",
      "swap 0,0>1,0", "swap 0,0>1,1"};
  EXPECT_EQ(got, want);
}

// Framed grids take the bit-board path (the box with its margin has at most 64 cells);
// unbounded ones grow past it and take the general loop. Both must agree with brute force.
void CheckRelocationsAgainstBruteForce(const GridRules& rules, int max_cards, uint64_t seed, bool* large_seen) {
  Rng rng(seed);
  for (int trial = 0; trial < 60; ++trial) {
    Grid g(rules);
    const int cards = 2 + static_cast<int>(rng.Below(static_cast<uint32_t>(max_cards - 1)));
    for (int k = 0; k < cards; ++k) {
      std::vector<Coord> where;
      g.Placeable(&where);
      const Coord c = where[rng.Below(static_cast<uint32_t>(where.size()))];
      g.Set(c.row, c.col, Card(static_cast<CardId>(rng.Below(4))));
    }
    if ((g.bounds().rows() + 2) * (g.bounds().cols() + 2) > 64) *large_seen = true;
    for (const bool keep : {true, false}) {
      std::vector<Relocation> out;
      g.Relocations(keep, &out);
      size_t moves = 0;
      for (const Relocation& r : out) {
        EXPECT_TRUE(BruteForceLegal(g, r, keep, rules)) << "trial " << trial << ": " << r.from.row << "," << r.from.col
                                                        << " > " << r.to.row << "," << r.to.col;
        moves += !r.swap;
      }
      // Nothing legal is missing: try every card against every empty cell of the margin.
      std::vector<Coord> occupied;
      g.OccupiedCells(&occupied);
      const Bounds b = g.bounds();
      size_t legal = 0;
      for (const Coord& from : occupied)
        for (int r = b.min_row - 1; r <= b.max_row + 1; ++r)
          for (int c = b.min_col - 1; c <= b.max_col + 1; ++c)
            if (!g.Occupied(r, c) && BruteForceLegal(g, {false, from, {r, c}}, keep, rules)) ++legal;
      EXPECT_EQ(moves, legal) << "trial " << trial << (keep ? " (connected)" : "");
    }
  }
}

TEST(Grid, RelocationsMatchBruteForceOnRandomGridsWithAndWithoutConnection) {
  bool large = false;
  CheckRelocationsAgainstBruteForce(kFrame, 19, 11, &large);
  EXPECT_FALSE(large);
}

TEST(Grid, RelocationsOnUnboundedGridsLargerThanABitBoardMatchBruteForce) {
  bool large = false;
  CheckRelocationsAgainstBruteForce(GridRules{0, 0, true}, 40, 12, &large);
  EXPECT_TRUE(large) << "no random grid outgrew 64 cells: the general loop went untested";
}

}  // namespace
}  // namespace plateau
