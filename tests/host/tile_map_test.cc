// Tile maps: the tile set's data checks, placement and features, checked against a brute-force
// flood fill over thousands of random maps (random tiles, random placements), and the exact
// save form (a map rebuilt from its JSON equals the original).
#include "host/tile_map.h"

#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace
}  // namespace plateau
