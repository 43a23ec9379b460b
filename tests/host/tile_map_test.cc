// Tile maps: the tile set's data checks, placement and features, checked against a brute-force
// flood fill over thousands of random maps (random tiles, random placements), and the exact
// save form (a map rebuilt from its JSON equals the original).
#include "host/tile_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <random>
#include <set>

namespace plateau {
namespace {

using nlohmann::json;

json Kinds() { return {{"field", {{"feature", false}}}, {"road", {{"feature", true}}}, {"city", {{"feature", true}}}}; }

TileSet Load(const json& doc) {
  TileSet set;
  std::string error;
  EXPECT_TRUE(TileSet::FromJson(doc, &set, &error)) << error;
  return set;
}

std::string LoadError(const json& doc) {
  TileSet set;
  std::string error;
  EXPECT_FALSE(TileSet::FromJson(doc, &set, &error));
  return error;
}

TEST(TileSetData, AnUnknownEdgeKindIsRefusedWithItsPath) {
  const json doc = {{"edge_kinds", Kinds()}, {"tiles", {{{"id", "a"}, {"edges", {"field", "river", "field", "field"}}}}}};
  EXPECT_EQ(LoadError(doc), "at /tiles/0/edges/1: unknown edge kind \"river\" (edge_kinds declares city, field, road)");
}

TEST(TileSetData, AFeatureEdgeNoSegmentCoversIsRefused) {
  const json doc = {{"edge_kinds", Kinds()}, {"tiles", {{{"id", "a"}, {"edges", {"road", "field", "road", "field"}},
                                                          {"segments", {{{"kind", "road"}, {"sides", {"N"}}, {"ends", {"x"}}}}}}}}};
  EXPECT_EQ(LoadError(doc), "at /tiles/0/segments: the S edge is road but no segment covers it");
}

TEST(TileSetData, ASegmentOnAnEdgeOfAnotherKindIsRefused) {
  const json doc = {{"edge_kinds", Kinds()}, {"tiles", {{{"id", "a"}, {"edges", {"road", "field", "field", "field"}},
                                                          {"segments", {{{"kind", "city"}, {"sides", {"N"}}}}}}}}};
  EXPECT_EQ(LoadError(doc), "at /tiles/0/segments/0/sides/0: the segment is a city but the tile's N edge is road");
}

TEST(TileSetData, ASideCoveredTwiceAndDuplicateIdsAreRefused) {
  json doc = {{"edge_kinds", Kinds()},
              {"tiles", {{{"id", "a"}, {"edges", {"road", "field", "field", "field"}},
                          {"segments", {{{"kind", "road"}, {"sides", {"N"}}, {"ends", {"x"}}},
                                        {{"kind", "road"}, {"sides", {"N"}}, {"ends", {"x"}}}}}}}}};
  EXPECT_EQ(LoadError(doc), "at /tiles/0/segments/1/sides/0: side N is already covered by segment 0");
  doc = {{"edge_kinds", Kinds()},
         {"tiles", {{{"id", "a"}, {"edges", {"field", "field", "field", "field"}}},
                    {{"id", "a"}, {"edges", {"field", "field", "field", "field"}}}}}};
  EXPECT_EQ(LoadError(doc), "at /tiles/1/id: duplicate tile id 'a'");
}

TEST(TileSetData, SymmetricTilesListOnlyTheirDistinctRotations) {
  const TileSet set = Load({{"edge_kinds", Kinds()},
                            {"tiles", {{{"id", "plain"}, {"edges", {"field", "field", "field", "field"}}},
                                       {{"id", "straight"}, {"edges", {"road", "field", "road", "field"}},
                                        {"segments", {{{"kind", "road"}, {"sides", {"N", "S"}}}}}},
                                       {{"id", "end"}, {"edges", {"road", "field", "field", "field"}},
                                        {"segments", {{{"kind", "road"}, {"sides", {"N"}}, {"ends", {"stop"}}}}}}}}});
  EXPECT_EQ(set.tiles[0].rotations, std::vector<int>({0}));
  EXPECT_EQ(set.tiles[1].rotations, std::vector<int>({0, 1}));
  EXPECT_EQ(set.tiles[2].rotations, std::vector<int>({0, 1, 2, 3}));
}

// A road loop of four curves is complete with no ends; a road ending in "stop" ends is
// complete only when "stop" closes features.
TEST(TileMap, ALoopCompletesAndEndsCloseOnlyWhenTheMapSaysSo) {
  auto set = std::make_shared<TileSet>(Load(
      {{"edge_kinds", Kinds()},
       {"tiles", {{{"id", "curve"}, {"edges", {"field", "road", "road", "field"}},  // E-S curve
                   {"segments", {{{"kind", "road"}, {"sides", {"E", "S"}}, {"tally", {{"cow", 1}}}}}}},
                  {{"id", "end"}, {"edges", {"field", "road", "field", "field"}},
                   {"segments", {{{"kind", "road"}, {"sides", {"E"}}, {"ends", {"stop"}}}}}}}}}));
  TileMap loop(set, {});
  std::vector<int> done;
  std::string why;
  ASSERT_TRUE(loop.Place(0, 0, 0, 0, &done, &why)) << why;   // E-S
  ASSERT_TRUE(loop.Place(0, 0, 1, 1, &done, &why)) << why;   // S-W
  ASSERT_TRUE(loop.Place(0, 1, 1, 2, &done, &why)) << why;   // W-N
  EXPECT_TRUE(done.empty());
  ASSERT_TRUE(loop.Place(0, 1, 0, 3, &done, &why)) << why;   // N-E closes the loop
  ASSERT_EQ(done.size(), 1u);
  const auto f = loop.Feature(done[0]);
  EXPECT_TRUE(f.complete);
  EXPECT_EQ(f.open_edges, 0);
  EXPECT_EQ(f.tally.at("cow"), 4);
  EXPECT_EQ(f.tiles.size(), 4u);

  for (bool closes : {false, true}) {
    TileMap m(set, closes ? std::vector<std::string>{"stop"} : std::vector<std::string>{});
    ASSERT_TRUE(m.Place(1, 0, 0, 0, &done, &why)) << why;    // stop, road east
    ASSERT_TRUE(m.Place(1, 0, 1, 2, &done, &why)) << why;    // road west, stop
    EXPECT_EQ(done.size(), closes ? 1u : 0u);
    EXPECT_EQ(m.Feature(0).open_ends, closes ? 0 : 2);
    EXPECT_EQ(m.Feature(0).ends.at("stop"), 2);
  }
}

// A city around an empty cell has open edges into the hole, so it is not complete.
TEST(TileMap, AFeatureAroundAnEmptySpaceIsNotComplete) {
  auto set = std::make_shared<TileSet>(Load(
      {{"edge_kinds", Kinds()},
       {"tiles", {{{"id", "wall"}, {"edges", {"city", "city", "city", "city"}},
                   {"segments", {{{"kind", "city"}, {"sides", {"N", "E", "S", "W"}}}}}}}}}));
  TileMap m(set, {});
  std::vector<int> done;
  std::string why;
  const int ring[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}};
  for (const auto& c : ring) ASSERT_TRUE(m.Place(0, c[0], c[1], 0, &done, &why)) << why;
  // The ring leaves (0, 0) empty: the four tiles beside it have an open side facing it.
  const auto f = m.Feature(0);
  EXPECT_FALSE(f.complete);
  EXPECT_EQ(f.open_edges, 4 + 12);  // 4 sides facing the hole, 12 facing outside
  ASSERT_TRUE(m.Place(0, 0, 0, 0, &done, &why)) << why;
  EXPECT_EQ(m.Feature(0).open_edges, 12);
}

// Ring pieces: a city band from W to E, a city corner from N to E, a plain field tile.
std::shared_ptr<TileSet> RingTiles() {
  return std::make_shared<TileSet>(Load(
      {{"edge_kinds", Kinds()},
       {"tiles", {{{"id", "band"}, {"edges", {"field", "city", "field", "city"}},
                   {"segments", {{{"kind", "city"}, {"sides", {"E", "W"}}, {"tally", {{"cow", 1}}}}}}},
                  {{"id", "corner"}, {"edges", {"city", "city", "field", "field"}},
                   {"segments", {{{"kind", "city"}, {"sides", {"N", "E"}}}}}},
                  {{"id", "plain"}, {"edges", {"field", "field", "field", "field"}}}}}}));
}
constexpr int kBand = 0, kCorner = 1, kPlain = 2;

// Places a ring of city pieces around the cells rows r0+1..r1-1, cols c0+1..c1-1 (left empty):
// corners at the box's corners, bands along its sides, each facing the inside with field.
// Cells that already hold a tile are left as they are.
void PlaceRing(TileMap* m, int r0, int c0, int r1, int c1, std::vector<int>* done) {
  std::string why;
  auto put = [&](int tile, int r, int c, int rot) {
    if (m->At(r, c)) return;
    ASSERT_TRUE(m->Place(tile, r, c, rot, done, &why)) << why;
  };
  put(kCorner, r0, c0, 1);                                      // E-S
  for (int c = c0 + 1; c < c1; ++c) put(kBand, r0, c, 0);      // W-E
  put(kCorner, r0, c1, 2);                                      // S-W
  for (int r = r0 + 1; r < r1; ++r) put(kBand, r, c1, 1);      // N-S
  put(kCorner, r1, c1, 3);                                      // W-N
  for (int c = c1 - 1; c > c0; --c) put(kBand, r1, c, 0);
  put(kCorner, r1, c0, 0);                                      // N-E
  for (int r = r1 - 1; r > r0; --r) put(kBand, r, c0, 1);
}

// The rulebook's bush (and Carcassonne's city): complete when no side is open and no empty
// space lies inside. A ring closed around an empty cell shows field to it, so it has no open
// edge; with "city" in filled_inside it stays open until the cell holds a tile.
TEST(TileMap, ARingAroundAnEmptyCellCompletesOnlyWhenTheCellIsFilled) {
  auto set = RingTiles();
  std::vector<int> done;
  std::string why;
  TileMap plain(set, {});
  PlaceRing(&plain, -1, -1, 1, 1, &done);
  ASSERT_EQ(done.size(), 1u) << "without filled_inside the closed ring is complete at once";
  EXPECT_EQ(plain.Feature(done[0]).empty_inside, 0);

  TileMap m(set, {}, {"city"});
  PlaceRing(&m, -1, -1, 1, 1, &done);
  EXPECT_TRUE(done.empty()) << "the ring encloses (0, 0)";
  const int ring = m.FeatureOf(m.Segment(-1, 0, 0));
  auto f = m.Feature(ring);
  EXPECT_EQ(f.open_edges, 0);
  EXPECT_EQ(f.open_ends, 0);
  EXPECT_EQ(f.empty_inside, 1);
  EXPECT_FALSE(f.complete);
  EXPECT_FALSE(m.Complete(ring));
  EXPECT_EQ(f.tally.at("cow"), 4);
  // Filling the hole with a tile that has no city of its own completes the ring.
  ASSERT_TRUE(m.Place(kPlain, 0, 0, 0, &done, &why)) << why;
  ASSERT_EQ(done, std::vector<int>{m.FeatureOf(ring)});
  f = m.Feature(ring);
  EXPECT_EQ(f.empty_inside, 0);
  EXPECT_TRUE(f.complete);
  // The save form keeps the setting and rebuilds the same map.
  TileMap back;
  ASSERT_TRUE(TileMap::FromJson(json::parse(m.ToJson().dump()), set, &back, &why)) << why;
  EXPECT_TRUE(back == m);
  EXPECT_EQ(back.filled_inside(), std::vector<std::string>{"city"});
}

TEST(TileMap, ARingAroundSeveralEmptyCellsWaitsForTheLastOfThem) {
  auto set = RingTiles();
  TileMap m(set, {}, {"city"});
  std::vector<int> done;
  std::string why;
  PlaceRing(&m, -1, -1, 2, 2, &done);  // encloses the 2x2 cells (0..1, 0..1)
  EXPECT_TRUE(done.empty());
  const int ring = m.FeatureOf(m.Segment(-1, 0, 0));
  EXPECT_EQ(m.Feature(ring).empty_inside, 4);
  // A save taken with the holes open rebuilds them.
  TileMap back;
  ASSERT_TRUE(TileMap::FromJson(json::parse(m.ToJson().dump()), set, &back, &why)) << why;
  EXPECT_EQ(back.Feature(ring).empty_inside, 4);
  const int cells[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(m.Place(kPlain, cells[i][0], cells[i][1], 0, &done, &why)) << why;
    EXPECT_EQ(m.Feature(ring).empty_inside, 3 - i);
    EXPECT_EQ(done.size(), i == 3 ? 1u : 0u) << "after filling " << i + 1 << " cell(s)";
  }
  EXPECT_TRUE(m.Complete(ring));
}

// Four corners around a grid point close a ring that encloses no cell: complete at once. So
// does a ring whose inside is already full when it closes.
TEST(TileMap, ARingEnclosingNoEmptyCellIsCompleteAtOnce) {
  auto set = RingTiles();
  std::vector<int> done;
  std::string why;
  TileMap m(set, {}, {"city"});
  ASSERT_TRUE(m.Place(kCorner, 0, 0, 1, &done, &why)) << why;  // E-S
  ASSERT_TRUE(m.Place(kCorner, 0, 1, 2, &done, &why)) << why;  // S-W
  ASSERT_TRUE(m.Place(kCorner, 1, 1, 3, &done, &why)) << why;  // W-N
  EXPECT_TRUE(done.empty());
  ASSERT_TRUE(m.Place(kCorner, 1, 0, 0, &done, &why)) << why;  // N-E closes it
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(m.Feature(done[0]).empty_inside, 0);

  TileMap full(set, {}, {"city"});
  ASSERT_TRUE(full.Place(kPlain, 0, 0, 0, &done, &why)) << why;
  ASSERT_TRUE(full.Place(kBand, -1, 0, 0, &done, &why)) << why;
  PlaceRing(&full, -1, -1, 1, 1, &done);
  ASSERT_EQ(done.size(), 1u) << "the cell inside holds a tile";
}

// Unknown kinds, or kinds that form no features, are refused where the setting is read.
TEST(TileMapSave, FilledInsideNamesKindsThatFormFeatures) {
  auto set = RingTiles();
  EXPECT_EQ(TileMap::KindsError(*set, {"city"}), "");
  EXPECT_EQ(TileMap::KindsError(*set, {"field"}), "'field' forms no features");
  EXPECT_EQ(TileMap::KindsError(*set, {"lake"}), "unknown kind 'lake' (the kinds that form features: city, road)");
  TileMap m;
  std::string error;
  EXPECT_FALSE(TileMap::FromJson({{"tiles", json::array()}, {"filled_inside", {"lake"}}}, set, &m, &error));
  EXPECT_EQ(error, "filled_inside: unknown kind 'lake' (the kinds that form features: city, road)");
}

TEST(TileMap, PlacementsNameWhatDoesNotFit) {
  auto set = std::make_shared<TileSet>(Load({{"edge_kinds", Kinds()},
                                             {"tiles", {{{"id", "plain"}, {"edges", {"field", "field", "field", "field"}}},
                                                        {{"id", "end"}, {"edges", {"road", "field", "field", "field"}},
                                                         {"segments", {{{"kind", "road"}, {"sides", {"N"}}, {"ends", {"x"}}}}}}}}}));
  TileMap m(set, {});
  std::string why;
  ASSERT_TRUE(m.Place(0, 0, 0, 0, nullptr, &why));
  EXPECT_FALSE(m.Fits(0, 0, 0, 0, &why));
  EXPECT_EQ(why, "cell [0, 0] already holds a tile");
  EXPECT_FALSE(m.Fits(0, 5, 5, 0, &why));
  EXPECT_EQ(why, "cell [5, 5] touches no placed tile");
  EXPECT_FALSE(m.Fits(1, 1, 0, 0, &why));  // road north into the plain's field
  EXPECT_EQ(why, "the north edge is road but the neighbouring tile shows field");
  std::vector<TilePlacement> p;
  m.Placements(1, &p);
  EXPECT_EQ(p.size(), 4u * 3u);  // 4 cells, 3 rotations each keep the road off the plain
}

// ---- brute force --------------------------------------------------------------------------

struct Random {
  std::mt19937_64 rng;
  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
};

json RandomTiles(Random& r) {
  json tiles = json::array();
  const char* sides = "NESW";
  const int n = r.Int(2, 7);
  for (int t = 0; t < n; ++t) {
    json edges = json::array();
    std::vector<int> kind(4);
    for (int s = 0; s < 4; ++s) {
      kind[static_cast<size_t>(s)] = r.Int(0, 2);
      edges.push_back(std::array<const char*, 3>{"field", "road", "city"}[static_cast<size_t>(kind[static_cast<size_t>(s)])]);
    }
    // Group the feature sides of each kind into 1 or 2 segments at random.
    json segs = json::array();
    for (int k = 1; k <= 2; ++k) {
      std::vector<int> mine;
      for (int s = 0; s < 4; ++s)
        if (kind[static_cast<size_t>(s)] == k) mine.push_back(s);
      if (mine.empty()) continue;
      std::vector<json> groups(mine.size() > 1 && r.Int(0, 1) ? 2 : 1, json::array());
      for (int s : mine) groups[static_cast<size_t>(r.Int(0, static_cast<int>(groups.size()) - 1))].push_back(std::string(1, sides[s]));
      for (auto& g : groups) {
        if (g.empty()) continue;
        json seg = {{"kind", k == 1 ? "road" : "city"}, {"sides", g}, {"tally", {{"cow", r.Int(0, 2)}}}};
        if (g.size() == 1 && r.Int(0, 1)) seg["ends"] = {r.Int(0, 1) ? "stop" : "open"};
        segs.push_back(seg);
      }
    }
    tiles.push_back({{"id", "t" + std::to_string(t)}, {"edges", edges}, {"segments", segs}});
  }
  return {{"edge_kinds", Kinds()}, {"tiles", tiles}};
}

struct Node {
  Coord cell;
  int segment;  // local index on its tile
};

// Features found by flood fill over (tile, segment) nodes, with the same facts the map keeps.
struct BruteFeature {
  std::set<int> segments;  // global ids
  int open_edges = 0, open_ends = 0, cows = 0;
  bool operator==(const BruteFeature&) const = default;
};

std::vector<BruteFeature> BruteForce(const TileMap& m) {
  static constexpr int kDelta[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
  const TileSet& set = m.set();
  std::map<int, std::vector<int>> adj;  // global segment -> joined segments
  std::map<int, int> open;              // global segment -> its sides facing empty cells
  for (const Coord& c : m.order()) {
    const auto* p = m.At(c.row, c.col);
    const TileDef& t = set.tiles[static_cast<size_t>(p->tile)];
    for (size_t i = 0; i < t.segments.size(); ++i) {
      const int g = p->first_segment + static_cast<int>(i);
      open[g] += 0;
      for (int side = 0; side < 4; ++side) {
        if (!(m.SegmentSides(c.row, c.col, static_cast<int>(i)) & (1 << side))) continue;
        const int nr = c.row + kDelta[side][0], nc = c.col + kDelta[side][1];
        const auto* n = m.At(nr, nc);
        if (!n) {
          ++open[g];
          continue;
        }
        for (int j = 0; j < m.SegmentCount(nr, nc); ++j)
          if (m.SegmentSides(nr, nc, j) & (1 << ((side + 2) & 3))) adj[g].push_back(m.Segment(nr, nc, j));
      }
    }
  }
  std::set<int> seen;
  std::vector<BruteFeature> out;
  for (const auto& [start, unused] : open) {
    if (seen.count(start)) continue;
    BruteFeature f;
    std::vector<int> stack{start};
    seen.insert(start);
    while (!stack.empty()) {
      const int s = stack.back();
      stack.pop_back();
      f.segments.insert(s);
      f.open_edges += open[s];
      for (int n : adj[s])
        if (seen.insert(n).second) stack.push_back(n);
    }
    for (int s : f.segments) {
      for (const Coord& c : m.order()) {
        const int first = m.Segment(c.row, c.col, 0);
        if (first < 0 || s < first || s >= first + m.SegmentCount(c.row, c.col)) continue;
        const TileSegmentDef& seg = set.tiles[static_cast<size_t>(m.At(c.row, c.col)->tile)].segments[static_cast<size_t>(s - first)];
        f.cows += seg.tally.count("cow") ? seg.tally.at("cow") : 0;
        for (const auto& e : seg.ends) f.open_ends += e == "stop" ? 0 : 1;
      }
    }
    out.push_back(f);
  }
  return out;
}

// The empty cells a feature encloses, found on a picture of it: each tile is 9x9 pixels; a
// segment on one side is a stub from that side's middle pixel two pixels in, one on two
// adjacent sides is a line from one middle to the other cutting the corner between them, any
// other is a line from each of its sides' middles to the tile's centre. Pixels of the
// feature's lines are walls; a flood over the other pixels (4 ways) from outside the feature's
// bounding box reaches the centre of every empty cell that is not enclosed.
int BruteEmptyInside(const TileMap& m, int root) {
  static constexpr int kMid[4][2] = {{0, 4}, {4, 8}, {8, 4}, {4, 0}};      // N E S W
  static constexpr int kHub[4][2] = {{2, 6}, {6, 6}, {6, 2}, {2, 2}};      // NE SE SW NW
  struct Piece {
    Coord cell;
    uint8_t sides;
  };
  std::vector<Piece> pieces;
  int r0 = INT32_MAX, r1 = INT32_MIN, c0 = INT32_MAX, c1 = INT32_MIN;
  for (const Coord& c : m.order())
    for (int i = 0; i < m.SegmentCount(c.row, c.col); ++i) {
      if (m.FeatureOf(m.Segment(c.row, c.col, i)) != root) continue;
      pieces.push_back({c, m.SegmentSides(c.row, c.col, i)});
      r0 = std::min(r0, c.row), r1 = std::max(r1, c.row), c0 = std::min(c0, c.col), c1 = std::max(c1, c.col);
    }
  if (pieces.empty()) return 0;
  const int h = (r1 - r0 + 3) * 9, w = (c1 - c0 + 3) * 9;
  std::vector<char> wall(static_cast<size_t>(h * w), 0), seen(static_cast<size_t>(h * w), 0);
  auto line = [&](int oy, int ox, int y, int x, int ty, int tx) {
    for (;;) {
      wall[static_cast<size_t>((oy + y) * w + ox + x)] = 1;
      if (y == ty && x == tx) return;
      y += (ty > y) - (ty < y);
      x += (tx > x) - (tx < x);
    }
  };
  for (const Piece& p : pieces) {
    const int oy = (p.cell.row - r0 + 1) * 9, ox = (p.cell.col - c0 + 1) * 9;
    std::vector<int> sides;
    for (int s = 0; s < 4; ++s)
      if (p.sides & (1 << s)) sides.push_back(s);
    if (sides.size() == 1) {
      const int s = sides[0];
      line(oy, ox, kMid[s][0], kMid[s][1], kMid[s][0] + (4 - kMid[s][0]) / 2, kMid[s][1] + (4 - kMid[s][1]) / 2);
    } else if (sides.size() == 2 && (sides[1] - sides[0] == 1 || sides[1] - sides[0] == 3)) {
      const int corner = sides[1] - sides[0] == 1 ? sides[0] : 3;  // NE between N and E ... NW between W and N
      for (int s : sides) line(oy, ox, kMid[s][0], kMid[s][1], kHub[corner][0], kHub[corner][1]);
    } else {
      for (int s : sides) line(oy, ox, kMid[s][0], kMid[s][1], 4, 4);
    }
  }
  std::vector<int> stack{0};
  seen[0] = 1;
  while (!stack.empty()) {
    const int at = stack.back();
    stack.pop_back();
    const int y = at / w, x = at % w;
    const int next[4][2] = {{y - 1, x}, {y + 1, x}, {y, x - 1}, {y, x + 1}};
    for (const auto& n : next) {
      if (n[0] < 0 || n[0] >= h || n[1] < 0 || n[1] >= w) continue;
      const size_t k = static_cast<size_t>(n[0] * w + n[1]);
      if (wall[k] || seen[k]) continue;
      seen[k] = 1;
      stack.push_back(static_cast<int>(k));
    }
  }
  int enclosed = 0;
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c)
      if (!m.At(r, c) && !seen[static_cast<size_t>(((r - r0 + 1) * 9 + 4) * w + (c - c0 + 1) * 9 + 4)]) ++enclosed;
  return enclosed;
}

// Whether the tile fits, by checking every neighbour's shown edge directly.
bool BruteFits(const TileMap& m, int tile, int row, int col, int rot) {
  static constexpr int kDelta[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
  if (m.At(row, col)) return false;
  bool touches = m.size() == 0;
  const TileDef& t = m.set().tiles[static_cast<size_t>(tile)];
  for (int side = 0; side < 4; ++side) {
    const auto* n = m.At(row + kDelta[side][0], col + kDelta[side][1]);
    if (!n) continue;
    touches = true;
    const int mine = t.edges[static_cast<size_t>(((side - rot) % 4 + 4) % 4)];
    const int theirs = m.set().tiles[static_cast<size_t>(n->tile)].edges[static_cast<size_t>((((side + 2) % 4 - n->rotation) % 4 + 4) % 4)];
    if (mine != theirs) return false;
  }
  return touches;
}

TEST(TileMapBruteForce, FeaturesAndPlacementsMatchAFloodFillOnThousandsOfRandomMaps) {
  Random r{std::mt19937_64(20261126)};
  int maps = 0, features_checked = 0, completions = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    auto set = std::make_shared<TileSet>(Load(RandomTiles(r)));
    TileMap m(set, {"stop"});
    const int tiles = r.Int(1, 25);
    std::set<int> completed_seen;
    for (int k = 0; k < tiles; ++k) {
      const int tile = r.Int(0, static_cast<int>(set->tiles.size()) - 1);
      std::vector<TilePlacement> p;
      m.Placements(tile, &p);
      // Every listed placement fits by brute force, and every frontier cell and rotation
      // that fits by brute force is listed (up to symmetric rotations).
      for (const auto& pl : p) ASSERT_TRUE(BruteFits(m, tile, pl.cell.row, pl.cell.col, pl.rotation));
      if (m.size() > 0)
        for (const Coord& c : m.Frontier())
          for (int rot = 0; rot < 4; ++rot)
            if (BruteFits(m, tile, c.row, c.col, rot)) {
              const bool listed = std::any_of(p.begin(), p.end(), [&](const TilePlacement& x) { return x.cell == c; });
              ASSERT_TRUE(listed) << "trial " << trial << ": a fitting cell is missing";
            }
      if (p.empty()) continue;
      const TilePlacement pick = p[static_cast<size_t>(r.Int(0, static_cast<int>(p.size()) - 1))];
      std::vector<int> done;
      std::string why;
      ASSERT_TRUE(m.Place(tile, pick.cell.row, pick.cell.col, pick.rotation, &done, &why)) << why;
      for (int f : done) {
        EXPECT_TRUE(m.Complete(f));
        EXPECT_TRUE(completed_seen.insert(f).second) << "a feature completed twice";
        ++completions;
      }
    }
    // Features: the same partition, open edges, open ends, tallies and completeness.
    const std::vector<BruteFeature> brute = BruteForce(m);
    std::vector<int> roots = m.Features(-1);
    ASSERT_EQ(roots.size(), brute.size()) << "trial " << trial;
    for (const BruteFeature& b : brute) {
      const auto f = m.Feature(*b.segments.begin());
      EXPECT_EQ(std::set<int>(f.segments.begin(), f.segments.end()), b.segments);
      EXPECT_EQ(f.open_edges, b.open_edges) << "trial " << trial;
      EXPECT_EQ(f.open_ends, b.open_ends) << "trial " << trial;
      EXPECT_EQ(f.tally.count("cow") ? f.tally.at("cow") : 0, b.cows);
      EXPECT_EQ(f.complete, b.open_edges == 0 && b.open_ends == 0);
      ++features_checked;
    }
    // The save form rebuilds the same map, features and all.
    if (m.segment_count() > 0) m.Occupy(0, 1, 2);
    TileMap back;
    std::string error;
    ASSERT_TRUE(TileMap::FromJson(json::parse(m.ToJson().dump()), set, &back, &error)) << error;
    EXPECT_TRUE(back == m) << "trial " << trial;
    EXPECT_EQ(back.ToJson(), m.ToJson());
    ++maps;
  }
  EXPECT_EQ(maps, 2000);
  EXPECT_GT(features_checked, 10000);
  EXPECT_GT(completions, 100);
}

// Maps that build rings: the random tiles plus city bands, corners and T pieces with field
// elsewhere. Each map draws 1 to 3 rectangles and lays city pieces along their edges in random
// order (mostly the piece that closes a ring facing the inside with field, sometimes any city
// piece that fits), among random tiles kept off the rectangles' insides; then some inside
// cells are filled (half the time with a plain field tile, which fits any ring's hole). The empty cells each city encloses are checked against the picture above
// after both phases, completeness with them, and every feature complete at the end was
// reported complete by the placement that completed it, once (a ring is reported by the tile
// that fills its last hole).
TEST(TileMapBruteForce, EnclosedEmptyCellsMatchAPictureOfTheFeatureOnMapsBuildingRings) {
  Random r{std::mt19937_64(31031)};
  int maps = 0, enclosing = 0, freed_completions = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    json doc = RandomTiles(r);
    const int random_tiles = static_cast<int>(doc["tiles"].size());
    doc["tiles"].push_back({{"id", "band"}, {"edges", {"field", "city", "field", "city"}},
                            {"segments", {{{"kind", "city"}, {"sides", {"E", "W"}}}}}});
    doc["tiles"].push_back({{"id", "corner"}, {"edges", {"city", "city", "field", "field"}},
                            {"segments", {{{"kind", "city"}, {"sides", {"N", "E"}}}}}});
    doc["tiles"].push_back({{"id", "tee"}, {"edges", {"city", "city", "field", "city"}},
                            {"segments", {{{"kind", "city"}, {"sides", {"N", "E", "W"}}}}}});
    doc["tiles"].push_back({{"id", "plain"}, {"edges", {"field", "field", "field", "field"}}});
    const int band = random_tiles, corner = random_tiles + 1;
    auto set = std::make_shared<TileSet>(Load(doc));
    TileMap m(set, {"stop"}, {"city"});
    struct Box {
      int r0, c0, r1, c1;
    };
    std::vector<Box> boxes;
    std::set<std::pair<int, int>> inside, edge;
    for (int k = r.Int(1, 3); k > 0; --k) {
      const int r0 = r.Int(-3, 1), c0 = r.Int(-3, 1);
      boxes.push_back({r0, c0, r0 + r.Int(2, 4), c0 + r.Int(2, 3)});
    }
    for (const Box& b : boxes)
      for (int row = b.r0; row <= b.r1; ++row)
        for (int col = b.c0; col <= b.c1; ++col)
          (row == b.r0 || row == b.r1 || col == b.c0 || col == b.c1 ? edge : inside).insert({row, col});
    std::set<int> reported;
    auto place_at = [&](int tile, int row, int col, int rot) {
      std::vector<int> done;
      std::string why;
      ASSERT_TRUE(m.Place(tile, row, col, rot, &done, &why)) << why;
      const auto* placed = m.At(row, col);
      for (int f : done) {
        EXPECT_TRUE(m.Complete(f));
        EXPECT_TRUE(reported.insert(f).second) << "trial " << trial << ": a feature completed twice";
        bool own = false;
        for (int i = 0; i < m.SegmentCount(row, col); ++i) own = own || m.FeatureOf(placed->first_segment + i) == f;
        if (!own) ++freed_completions;
      }
    };
    // A random tile at a random place, inside the rectangles or outside them.
    auto place_random = [&](bool into_inside) {
      const int tile = into_inside && r.Int(0, 1) ? random_tiles + 3 : r.Int(0, static_cast<int>(set->tiles.size()) - 1);
      std::vector<TilePlacement> p, keep;
      m.Placements(tile, &p);
      for (const auto& pl : p)
        if (inside.count({pl.cell.row, pl.cell.col}) == static_cast<size_t>(into_inside)) keep.push_back(pl);
      if (keep.empty()) return;
      const TilePlacement pick = keep[static_cast<size_t>(r.Int(0, static_cast<int>(keep.size()) - 1))];
      place_at(tile, pick.cell.row, pick.cell.col, pick.rotation);
    };
    // A city piece on a rectangle's edge: the one closing the ring, or any that fits.
    auto place_edge = [&] {
      const Box& b = boxes[static_cast<size_t>(r.Int(0, static_cast<int>(boxes.size()) - 1))];
      const int row = r.Int(b.r0, b.r1);
      const int col = row == b.r0 || row == b.r1 ? r.Int(b.c0, b.c1) : (r.Int(0, 1) ? b.c0 : b.c1);
      if (m.At(row, col) || inside.count({row, col})) return;
      int tile = band, rot = row == b.r0 || row == b.r1 ? 0 : 1;
      if ((row == b.r0 || row == b.r1) && (col == b.c0 || col == b.c1)) {
        tile = corner;
        rot = row == b.r0 ? (col == b.c0 ? 1 : 2) : (col == b.c1 ? 3 : 0);
      }
      if (r.Int(0, 7) == 0) tile = random_tiles + r.Int(0, 2), rot = r.Int(0, 3);
      if (m.size() == 0 || m.Fits(tile, row, col, rot, nullptr)) place_at(tile, row, col, rot);
    };
    for (int k = r.Int(40, 160); k > 0; --k) {
      if (r.Int(0, 7) > 0) place_edge();
      else place_random(false);
    }
    auto check = [&] {
      for (int root : m.Features(-1)) {
        const auto f = m.Feature(root);
        const int brute = f.kind == "city" ? BruteEmptyInside(m, root) : 0;
        ASSERT_EQ(f.empty_inside, brute) << "trial " << trial << ": feature " << root;
        EXPECT_EQ(f.complete, f.open_edges == 0 && f.open_ends == 0 && brute == 0);
        EXPECT_EQ(m.Complete(root), f.complete);
        if (brute > 0) ++enclosing;
      }
    };
    check();
    for (int k = r.Int(0, 24); k > 0; --k) place_random(true);
    check();
    for (int root : m.Features(-1))
      EXPECT_EQ(m.Complete(root), reported.count(root) == 1) << "trial " << trial << ": feature " << root;
    TileMap back;
    std::string error;
    ASSERT_TRUE(TileMap::FromJson(json::parse(m.ToJson().dump()), set, &back, &error)) << error;
    EXPECT_TRUE(back == m) << "trial " << trial;
    ++maps;
  }
  EXPECT_EQ(maps, 1000);
  // The maps did build rings, and filling their holes completed some.
  EXPECT_GT(enclosing, 60);
  EXPECT_GT(freed_completions, 20);
  std::printf("rings: %d features enclosing empty cells checked, %d completed by filling a hole\n", enclosing,
              freed_completions);
}

TEST(TileMapSave, HandEditedMapsAreRefusedNamingThePlace) {
  auto set = std::make_shared<TileSet>(Load({{"edge_kinds", Kinds()},
                                             {"tiles", {{{"id", "plain"}, {"edges", {"field", "field", "field", "field"}}},
                                                        {{"id", "end"}, {"edges", {"road", "field", "field", "field"}},
                                                         {"segments", {{{"kind", "road"}, {"sides", {"N"}}, {"ends", {"x"}}}}}}}}}));
  auto error_of = [&](const json& j) {
    TileMap m;
    std::string error;
    EXPECT_FALSE(TileMap::FromJson(j, set, &m, &error));
    return error;
  };
  EXPECT_EQ(error_of({{"tiles", {{0, 0, "plain", 0}, {0, 0, "plain", 0}}}}), "tiles/1: cell [0, 0] already holds a tile");
  EXPECT_EQ(error_of({{"tiles", {{0, 0, "plain", 0}, {1, 0, "end", 0}}}}),
            "tiles/1: the north edge is road but the neighbouring tile shows field");
  EXPECT_EQ(error_of({{"tiles", {{0, 0, "lake", 0}}}}), "tiles/0: unknown tile id 'lake'");
  EXPECT_EQ(error_of({{"tiles", {{0, 0, "plain", 45}}}}), "tiles/0: rotation 45 is not 0, 90, 180 or 270");
  EXPECT_EQ(error_of({{"tiles", {{0, 0, "plain", 0}}}, {"occupants", {{7, 0, 1}}}}),
            "occupants/0: [segment, owner, pieces] with a segment of the map, an owner seat from 0 and 1 to 1000000 pieces");
}

// Two maps a script cannot tell apart: the save form, every feature, the frontier, versions.
bool SameMap(const TileMap& a, const TileMap& b) {
  if (!(a == b) || a.ToJson() != b.ToJson() || a.version() != b.version() || a.Frontier() != b.Frontier()) return false;
  for (int s = 0; s < a.segment_count(); ++s) {
    const auto fa = a.Feature(s), fb = b.Feature(s);
    if (a.FeatureVersion(s) != b.FeatureVersion(s) || fa.complete != fb.complete || fa.empty_inside != fb.empty_inside ||
        fa.segments != fb.segments || fa.occupants != fb.occupants || fa.tally != fb.tally || fa.open_ends != fb.open_ends)
      return false;
  }
  return true;
}

// A bot's trial placement is taken back by the map's journal, not by a copy: after any run of
// placements, pieces and tallies recorded in a journal and undone, the map is the copy made
// before it in everything a script can ask (the save form, features, the frontier, enclosed
// cells, versions), and both go on to grow the same way afterwards.
TEST(TileMapJournal, UndoingAJournalLeavesTheMapAsACopyMadeBeforeItWouldBe) {
  Random r{std::mt19937_64(20261128)};
  int undone = 0, placements = 0;
  auto random_change = [&](TileMap& m, TileMap::Journal* j, int tile_count) {
    const int what = r.Int(0, 9);
    if (what >= 4 || m.segment_count() == 0) {
      const int tile = r.Int(0, tile_count - 1);
      std::vector<TilePlacement> p;
      m.Placements(tile, &p);
      if (p.empty()) return false;
      const TilePlacement pick = p[static_cast<size_t>(r.Int(0, static_cast<int>(p.size()) - 1))];
      std::vector<int> done;
      std::string why;
      EXPECT_TRUE(m.Place(tile, pick.cell.row, pick.cell.col, pick.rotation, &done, &why, j)) << why;
      return true;
    }
    const int seg = r.Int(0, m.segment_count() - 1);
    if (what <= 1) m.Occupy(seg, r.Int(0, 3), r.Int(1, 2), j);
    else if (what == 2) m.Vacate(seg, j);
    else m.AddTally(seg, "cow", r.Int(-2, 2), j);
    return false;
  };
  for (int trial = 0; trial < 600; ++trial) {
    auto set = std::make_shared<TileSet>(Load(RandomTiles(r)));
    const int tile_count = static_cast<int>(set->tiles.size());
    // Half the maps count a city complete only with no empty cell inside: their journals keep
    // the enclosed cells too.
    TileMap m(set, {"stop"}, trial % 2 ? std::vector<std::string>{"city"} : std::vector<std::string>{});
    for (int k = r.Int(0, 20); k > 0; --k) random_change(m, nullptr, tile_count);
    const TileMap before = m;
    TileMap::Journal j;
    for (int k = r.Int(1, 8); k > 0; --k) placements += random_change(m, &j, tile_count);
    m.Undo(&j);
    ASSERT_TRUE(SameMap(m, before)) << "trial " << trial;
    EXPECT_FALSE(j.started);
    // The same changes afterwards give the same maps: nothing hidden was left behind.
    TileMap copy = before;
    const auto seed = r.rng();
    for (TileMap* x : {&m, &copy}) {
      Random again{std::mt19937_64(seed)};
      std::swap(r, again);
      for (int k = 0; k < 6; ++k) random_change(*x, nullptr, tile_count);
      std::swap(r, again);
    }
    EXPECT_TRUE(m == copy && m.ToJson() == copy.ToJson() && m.Frontier() == copy.Frontier()) << "trial " << trial;
    ++undone;
  }
  EXPECT_EQ(undone, 600);
  EXPECT_GT(placements, 1000);
}

// The enclosed cells are in the journal too: a ring closed around an empty cell and then
// filled (completing it), or a ring already closed whose hole a trial fills, is taken back.
TEST(TileMapJournal, ARingClosedOrFilledInAJournalIsTakenBack) {
  json doc = {{"edge_kinds", Kinds()}, {"tiles", json::array()}};
  doc["tiles"].push_back({{"id", "band"}, {"edges", {"field", "city", "field", "city"}},
                          {"segments", {{{"kind", "city"}, {"sides", {"E", "W"}}}}}});
  doc["tiles"].push_back({{"id", "corner"}, {"edges", {"city", "city", "field", "field"}},
                          {"segments", {{{"kind", "city"}, {"sides", {"N", "E"}}}}}});
  doc["tiles"].push_back({{"id", "plain"}, {"edges", {"field", "field", "field", "field"}}});
  auto set = std::make_shared<TileSet>(Load(doc));
  const int band = 0, corner = 1, plain = 2;
  // A ring around (1, 1), its last piece at (1, 0).
  const int ring[8][4] = {{corner, 0, 0, 1}, {band, 0, 1, 0}, {corner, 0, 2, 2}, {band, 1, 2, 1},
                          {corner, 2, 2, 3}, {band, 2, 1, 0}, {corner, 2, 0, 0}, {band, 1, 0, 1}};
  auto place = [](TileMap& m, int tile, int row, int col, int rot, TileMap::Journal* j) {
    std::vector<int> done;
    std::string why;
    EXPECT_TRUE(m.Place(tile, row, col, rot, &done, &why, j)) << why;
    return done;
  };
  for (const bool closed_before : {false, true}) {
    TileMap m(set, {}, {"city"});
    for (int i = 0; i < (closed_before ? 8 : 7); ++i) place(m, ring[i][0], ring[i][1], ring[i][2], ring[i][3], nullptr);
    const TileMap before = m;
    const int seg = m.Segment(0, 0, 0);
    EXPECT_EQ(m.EmptyInside(seg), closed_before ? 1 : 0);
    TileMap::Journal j;
    if (!closed_before) place(m, band, 1, 0, 1, &j);
    EXPECT_EQ(m.EmptyInside(seg), 1);
    EXPECT_FALSE(m.Complete(seg));
    EXPECT_EQ(place(m, plain, 1, 1, 0, &j).size(), 1u);
    EXPECT_TRUE(m.Complete(seg));
    m.Occupy(seg, 2, 1, &j);
    m.Undo(&j);
    EXPECT_TRUE(SameMap(m, before)) << (closed_before ? "ring closed before" : "ring closed in the journal");
    EXPECT_EQ(m.EmptyInside(seg), closed_before ? 1 : 0);
    // And the hole is still a hole: filling it again completes the ring again.
    if (!closed_before) place(m, band, 1, 0, 1, nullptr);
    EXPECT_EQ(place(m, plain, 1, 1, 0, nullptr).size(), 1u);
  }
}

// What a bot reads instead of trying a placement: PlacementChanges leaves the map as it was and
// describes exactly the features the placement makes that hold one of the tile's segments or
// enclosed the cell, each as the placed map describes it, with the features it took in; every
// other feature of the placed map is one that was there before, unchanged.
TEST(TileMapJournal, PlacementChangesDescribeThePlacedMapWithoutPlacingOccupiedOnlyToo) {
  Random r{std::mt19937_64(20261129)};
  int placements = 0, joins = 0, occupied_changes = 0;
  for (int trial = 0; trial < 300; ++trial) {
    auto set = std::make_shared<TileSet>(Load(RandomTiles(r)));
    const int tile_count = static_cast<int>(set->tiles.size());
    TileMap m(set, {"stop"}, trial % 2 ? std::vector<std::string>{"city"} : std::vector<std::string>{});
    for (int k = r.Int(1, 25); k > 0; --k) {
      const int tile = r.Int(0, tile_count - 1);
      std::vector<TilePlacement> p;
      m.Placements(tile, &p);
      if (p.empty()) continue;
      if (m.segment_count() > 0 && r.Int(0, 2) == 0) m.Occupy(r.Int(0, m.segment_count() - 1), r.Int(0, 2), 1);
      const TileMap before = m;
      for (const TilePlacement& pl : p) {
        std::vector<TileMap::FeatureChange> changes;
        std::string why;
        ASSERT_TRUE(m.PlacementChanges(tile, pl.cell.row, pl.cell.col, pl.rotation, &changes, &why)) << why;
        ASSERT_TRUE(SameMap(m, before)) << "trial " << trial;
        TileMap placed = before;
        ASSERT_TRUE(placed.Place(tile, pl.cell.row, pl.cell.col, pl.rotation, nullptr, &why)) << why;
        std::set<int> changed_roots, taken_in;
        for (const auto& c : changes) {
          const auto f = placed.Feature(c.after.id, false);
          EXPECT_EQ(c.after.id, f.id);
          EXPECT_TRUE(c.after.kind == f.kind && c.after.complete == f.complete && c.after.tally == f.tally &&
                      c.after.occupants == f.occupants && c.after.open_edges == f.open_edges &&
                      c.after.empty_inside == f.empty_inside)
              << "trial " << trial;
          changed_roots.insert(c.after.id);
          for (int old : c.joined) {
            EXPECT_EQ(before.FeatureOf(old), old) << "a joined id is a feature's id before the placement";
            EXPECT_EQ(placed.FeatureOf(old), c.after.id) << "trial " << trial;
            EXPECT_TRUE(taken_in.insert(old).second) << "a feature taken in twice";
            ++joins;
          }
        }
        // Every feature of the placed map that is not a change was there before, as it was.
        for (int root : placed.Features(-1)) {
          if (changed_roots.count(root)) continue;
          EXPECT_FALSE(taken_in.count(root)) << "trial " << trial;
          ASSERT_LT(root, before.segment_count()) << "a new feature not described, trial " << trial;
          const auto a = placed.Feature(root, false), b = before.Feature(root, false);
          EXPECT_TRUE(a.complete == b.complete && a.tally == b.tally && a.occupants == b.occupants &&
                      a.open_edges == b.open_edges)
              << "trial " << trial << ": feature " << root << " changed but was not described";
        }
        // Only the occupied ones, in the same order, however the placement is answered.
        std::vector<TileMap::FeatureChange> held;
        ASSERT_TRUE(m.PlacementChanges(tile, pl.cell.row, pl.cell.col, pl.rotation, &held, &why, true)) << why;
        ASSERT_TRUE(SameMap(m, before)) << "trial " << trial;
        std::vector<int> want, got;
        for (const auto& c : changes)
          for (const auto& o : c.after.occupants)
            if (o.second > 0) {
              want.push_back(c.after.id);
              break;
            }
        for (const auto& c : held) {
          got.push_back(c.after.id);
          ++occupied_changes;
          const auto full = std::find_if(changes.begin(), changes.end(),
                                         [&](const auto& x) { return x.after.id == c.after.id; });
          ASSERT_NE(full, changes.end());
          EXPECT_EQ(c.joined, full->joined) << "trial " << trial;
          EXPECT_TRUE(c.after.occupants == full->after.occupants && c.after.tally == full->after.tally);
        }
        EXPECT_EQ(got, want) << "trial " << trial;
        ++placements;
      }
      const TilePlacement pick = p[static_cast<size_t>(r.Int(0, static_cast<int>(p.size()) - 1))];
      std::string why;
      ASSERT_TRUE(m.Place(tile, pick.cell.row, pick.cell.col, pick.rotation, nullptr, &why)) << why;
    }
  }
  EXPECT_GT(placements, 2000);
  EXPECT_GT(joins, 1000);
  EXPECT_GT(occupied_changes, 200);
  std::vector<TileMap::FeatureChange> none;
  std::string why;
  TileMap empty(std::make_shared<TileSet>(Load(RandomTiles(r))), {"stop"});
  ASSERT_TRUE(empty.PlacementChanges(0, 0, 0, 0, &none, &why)) << why;
  ASSERT_TRUE(empty.Place(0, 0, 0, 0, nullptr, &why)) << why;
  EXPECT_FALSE(empty.PlacementChanges(0, 0, 0, 0, &none, &why));
  EXPECT_NE(why.find("already holds a tile"), std::string::npos) << why;
}

}  // namespace
}  // namespace plateau
