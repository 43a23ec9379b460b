// Host feature graphs: cell groups on grids, incremental tile features, and region graphs.
#include "host/feature_graph.h"

#include <gtest/gtest.h>

namespace plateau {
namespace {

constexpr CardId kPrairie = 0, kWater = 1;

// Lays out rows of text: 'P' prairie, 'W' water, '.' empty; top-left at (top, left).
Grid Layout(const std::vector<std::string>& rows, int top = 0, int left = 0) {
  Grid g(GridRules{0, 0, false});
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < rows[r].size(); ++c) {
      const char ch = rows[r][c];
      if (ch == '.') continue;
      g.Set(top + static_cast<int>(r), left + static_cast<int>(c), Cell{ch == 'P' ? kPrairie : kWater});
    }
  return g;
}

bool IsPrairie(const Cell& c) { return c.item == kPrairie; }

using Groups = std::vector<std::vector<Coord>>;

TEST(CellGroups, EmptyGridHasNoGroups) {
  Grid g(GridRules{4, 5, true});
  EXPECT_TRUE(CellGroups(g, IsPrairie).empty());
  EXPECT_TRUE(CellGroups(Layout({"WW", "WW"}), IsPrairie).empty());
}

TEST(CellGroups, GroupsOrthogonallyConnectedLikeCellsInRowMajorOrder) {
  const Grid g = Layout({
      "PPW",
      "WPW",
      "PWP",
  });
  EXPECT_EQ(CellGroups(g, IsPrairie), (Groups{{{0, 0}, {0, 1}, {1, 1}}, {{2, 0}}, {{2, 2}}}));
}

TEST(CellGroups, DiagonalsAndHolesDoNotConnect) {
  const Grid g = Layout({
      "P.P",
      ".P.",
      "P.P",
  });
  EXPECT_EQ(CellGroups(g, IsPrairie).size(), 5u);
}

TEST(CellGroups, GroupsAreOrderedByTheirFirstCellAndCellsRowMajor) {
  // The first group's cells start on row 0 but reach further left on row 1.
  const Grid g = Layout({
      ".P.P",
      "PP.P",
  });
  EXPECT_EQ(CellGroups(g, IsPrairie), (Groups{{{0, 1}, {1, 0}, {1, 1}}, {{0, 3}, {1, 3}}}));
}

TEST(CellGroups, AUShapeIsOneGroup) {
  const Grid g = Layout({
      "PWP",
      "PWP",
      "PPP",
  });
  const Groups groups = CellGroups(g, IsPrairie);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].size(), 7u);
  EXPECT_EQ(groups[0].front(), (Coord{0, 0}));
  EXPECT_EQ(groups[0].back(), (Coord{2, 2}));
}

TEST(CellGroups, WorksAtNegativeCoordinates) {
  const Grid g = Layout({"PP", "WP"}, -5, -7);
  EXPECT_EQ(CellGroups(g, IsPrairie), (Groups{{{-5, -7}, {-5, -6}, {-4, -6}}}));
  EXPECT_EQ(CellGroups(g, [](const Cell& c) { return c.item == kWater; }), (Groups{{{-4, -7}}}));
}

// ---------------------------------------------------------------------------------------

TEST(FeatureGraph, SegmentsGetSequentialIdsAndStartAlone) {
  FeatureGraph f;
  EXPECT_EQ(f.AddSegment("road", 2), 0);
  EXPECT_EQ(f.AddSegment("road", 1), 1);
  EXPECT_EQ(f.segment_count(), 2);
  EXPECT_NE(f.Find(0), f.Find(1));
  const auto d = f.Describe(1);
  EXPECT_EQ(d.kind, "road");
  EXPECT_EQ(d.open_edges, 1);
  EXPECT_EQ(d.segments, std::vector<int>{1});
  EXPECT_FALSE(d.complete());
}

TEST(FeatureGraph, ConnectMergesSegmentsAndClosesOneEdgeOnEachSide) {
  FeatureGraph f;
  const int a = f.AddSegment("road", 2), b = f.AddSegment("road", 2);
  std::string why;
  ASSERT_TRUE(f.Connect(a, b, &why)) << why;
  EXPECT_EQ(f.Find(a), f.Find(b));
  const auto d = f.Describe(a);
  EXPECT_EQ(d.open_edges, 2);
  EXPECT_EQ(d.segments, (std::vector<int>{0, 1}));
  EXPECT_EQ(f.Describe(b).open_edges, 2);  // same feature seen from either segment
  EXPECT_EQ(f.connections(), (std::vector<std::pair<int, int>>{{a, b}}));
}

TEST(FeatureGraph, FeatureCompletesWhenItsLastOpenEdgeCloses) {
  FeatureGraph f;
  const int end1 = f.AddSegment("road", 1);  // a village ends the road
  const int mid = f.AddSegment("road", 2);
  const int end2 = f.AddSegment("road", 1);
  std::string why;
  ASSERT_TRUE(f.Connect(end1, mid, &why));
  EXPECT_EQ(f.Describe(mid).open_edges, 1);
  EXPECT_FALSE(f.Describe(mid).complete());
  ASSERT_TRUE(f.Connect(mid, end2, &why));
  EXPECT_EQ(f.Describe(end1).open_edges, 0);
  EXPECT_TRUE(f.Describe(end1).complete());
  EXPECT_EQ(f.Describe(end2).segments, (std::vector<int>{0, 1, 2}));
}

TEST(FeatureGraph, ALoopClosingOnItselfCompletes) {
  FeatureGraph f;
  for (int i = 0; i < 4; ++i) f.AddSegment("road", 2);  // four curves making a ring
  std::string why;
  ASSERT_TRUE(f.Connect(0, 1, &why));
  ASSERT_TRUE(f.Connect(1, 2, &why));
  ASSERT_TRUE(f.Connect(2, 3, &why));
  EXPECT_EQ(f.Describe(0).open_edges, 2);
  ASSERT_TRUE(f.Connect(3, 0, &why));  // both ends already in the same feature
  EXPECT_EQ(f.Describe(2).open_edges, 0);
  EXPECT_TRUE(f.Describe(2).complete());
  EXPECT_EQ(f.Describe(2).segments.size(), 4u);
}

TEST(FeatureGraph, RefusesToJoinDifferentKinds) {
  FeatureGraph f;
  const int road = f.AddSegment("road", 2), city = f.AddSegment("city", 3);
  std::string why;
  EXPECT_FALSE(f.Connect(road, city, &why));
  EXPECT_NE(why.find("cannot join"), std::string::npos) << why;
  EXPECT_NE(f.Find(road), f.Find(city));
  EXPECT_EQ(f.Describe(road).open_edges, 2);
  EXPECT_EQ(f.Describe(city).open_edges, 3);
  EXPECT_TRUE(f.connections().empty());
}

TEST(FeatureGraph, RefusesUnknownSegments) {
  FeatureGraph f;
  f.AddSegment("road", 2);
  std::string why;
  EXPECT_FALSE(f.Connect(0, 1, &why));
  EXPECT_FALSE(why.empty());
  EXPECT_FALSE(f.Connect(-1, 0, &why));
  EXPECT_TRUE(f.connections().empty());
}

TEST(FeatureGraph, OccupantsMergeAcrossConnectAndMajorityListsTies) {
  FeatureGraph f;
  const int a = f.AddSegment("city", 2), b = f.AddSegment("city", 2), c = f.AddSegment("city", 2);
  EXPECT_TRUE(f.Majority(a).empty());  // nobody there
  f.AddOccupant(a, /*owner=*/1);
  f.AddOccupant(b, /*owner=*/2, /*pieces=*/2);
  std::string why;
  ASSERT_TRUE(f.Connect(a, b, &why));
  EXPECT_EQ(f.Describe(a).occupants, (std::map<int, int>{{1, 1}, {2, 2}}));
  EXPECT_EQ(f.Majority(a), std::vector<int>{2});
  f.AddOccupant(c, 1);
  ASSERT_TRUE(f.Connect(b, c, &why));
  EXPECT_EQ(f.Majority(c), (std::vector<int>{1, 2}));  // 2 each: every tied owner
  f.AddOccupant(a, 0, 5);
  EXPECT_EQ(f.Majority(b), std::vector<int>{0});
  f.ClearOccupants(c);  // clears the whole feature
  EXPECT_TRUE(f.Describe(a).occupants.empty());
  EXPECT_TRUE(f.Majority(a).empty());
}

TEST(FeatureGraph, TalliesSumAcrossMergedSegments) {
  FeatureGraph f;
  const int a = f.AddSegment("bush", 3), b = f.AddSegment("bush", 1);
  f.AddTally(a, "lion", 1);
  f.AddTally(a, "zebra", 2);
  f.AddTally(b, "zebra", 1);
  f.AddTally(b, "bird", 4);
  std::string why;
  ASSERT_TRUE(f.Connect(a, b, &why));
  EXPECT_EQ(f.Describe(b).tally, (std::map<std::string, int>{{"bird", 4}, {"lion", 1}, {"zebra", 3}}));
}

FeatureGraph BuiltGraph() {
  FeatureGraph f;
  for (int i = 0; i < 6; ++i) f.AddSegment(i < 4 ? "road" : "city", 2);
  std::string why;
  f.Connect(0, 1, &why);
  f.Connect(2, 3, &why);
  f.Connect(1, 2, &why);
  f.Connect(4, 5, &why);
  f.AddOccupant(0, 1, 1);
  f.AddOccupant(3, 2, 1);
  f.AddTally(5, "pennant", 2);
  return f;
}

TEST(FeatureGraph, ExportImportRoundTripsExactly) {
  const FeatureGraph f = BuiltGraph();
  FeatureGraph g;
  std::string why;
  ASSERT_TRUE(FeatureGraph::Import(f.Export(), &g, &why)) << why;
  EXPECT_TRUE(g == f);
  EXPECT_EQ(g.segment_count(), 6);
  EXPECT_EQ(g.connections(), f.connections());
  for (int s = 0; s < 6; ++s) {
    EXPECT_EQ(g.Find(s), f.Find(s));
    const auto a = f.Describe(s), b = g.Describe(s);
    EXPECT_EQ(a.segments, b.segments);
    EXPECT_EQ(a.open_edges, b.open_edges);
    EXPECT_EQ(a.occupants, b.occupants);
    EXPECT_EQ(a.tally, b.tally);
  }
  // The imported graph keeps working: closing the road ends completes it.
  const int end = g.AddSegment("road", 1);
  ASSERT_TRUE(g.Connect(3, end, &why));
  EXPECT_EQ(g.Describe(0).open_edges, 1);
  EXPECT_EQ(g.Describe(0).occupants, (std::map<int, int>{{1, 1}, {2, 1}}));
}

TEST(FeatureGraph, ImportRefusesInconsistentData) {
  const FeatureGraph::Data good = BuiltGraph().Export();
  FeatureGraph out;
  std::string why;

  FeatureGraph::Data d = good;
  d.open.pop_back();
  EXPECT_FALSE(FeatureGraph::Import(d, &out, &why));
  EXPECT_NE(why.find("length"), std::string::npos) << why;

  d = good;
  d.parent[0] = 99;
  EXPECT_FALSE(FeatureGraph::Import(d, &out, &why));
  EXPECT_NE(why.find("parent"), std::string::npos) << why;

  d = good;
  d.connections.push_back({0, 42});
  EXPECT_FALSE(FeatureGraph::Import(d, &out, &why));
  EXPECT_NE(why.find("connection"), std::string::npos) << why;
}

TEST(FeatureGraph, ImportRefusesParentCycles) {
  // A corrupt save whose union-find parents loop would make every later Find spin forever.
  FeatureGraph::Data d;
  d.kind = {"road", "road"};
  d.open = {2, 2};
  d.parent = {1, 0};
  d.rank = {0, 0};
  d.occupants.resize(2);
  d.tally.resize(2);
  FeatureGraph out;
  std::string why;
  EXPECT_FALSE(FeatureGraph::Import(d, &out, &why));
  EXPECT_NE(why.find("parent"), std::string::npos) << why;
}

// Version: a script keeps what it worked out from one feature by (id, version), so every change
// of that feature changes it, a change of another feature does not, and a copy keeps it.
TEST(FeatureGraph, AFeaturesVersionChangesWithItAloneAndACopyKeepsIt) {
  FeatureGraph g;
  const int a = g.AddSegment("trail", 2), b = g.AddSegment("trail", 2), c = g.AddSegment("bush", 1);
  const uint64_t va = g.Version(a), vc = g.Version(c);
  EXPECT_NE(va, g.Version(b));
  ASSERT_TRUE(g.Connect(a, b, nullptr));
  EXPECT_NE(g.Version(a), va);
  EXPECT_EQ(g.Version(a), g.Version(b));  // one feature, one version
  EXPECT_EQ(g.Version(c), vc);            // untouched
  uint64_t before = g.Version(a);
  g.AddOccupant(b, 1);
  EXPECT_NE(g.Version(a), before);
  before = g.Version(a);
  g.AddTally(a, "lion", 1);
  EXPECT_NE(g.Version(a), before);
  before = g.Version(a);
  g.ClearOccupants(a);
  EXPECT_NE(g.Version(a), before);
  EXPECT_EQ(g.Version(c), vc);
  const FeatureGraph copy = g;
  EXPECT_EQ(copy.Version(a), g.Version(a));
  EXPECT_TRUE(copy == g);
  // A graph rebuilt from a save is the same content with versions of its own.
  FeatureGraph imported;
  ASSERT_TRUE(FeatureGraph::Import(g.Export(), &imported, nullptr));
  EXPECT_TRUE(imported == g);
  EXPECT_NE(imported.Version(a), g.Version(a));
}

TEST(FeatureGraph, CopiesAreIndependent) {
  FeatureGraph f = BuiltGraph();
  FeatureGraph copy = f;
  EXPECT_TRUE(copy == f);
  std::string why;
  const int extra = copy.AddSegment("road", 1);
  copy.Connect(0, extra, &why);
  EXPECT_FALSE(copy == f);
  EXPECT_EQ(f.segment_count(), 6);
  FeatureGraph assigned;
  assigned = f;
  EXPECT_TRUE(assigned == f);
}

// ---------------------------------------------------------------------------------------

RegionGraph Map() {
  // a - b - c - d, plus b - e - d, and an island f.
  RegionGraph g;
  for (const char* id : {"a", "b", "c", "d", "e", "f"}) g.AddRegion(id);
  std::string why;
  g.AddBorder("a", "b", &why);
  g.AddBorder("b", "c", &why);
  g.AddBorder("c", "d", &why);
  g.AddBorder("b", "e", &why);
  g.AddBorder("e", "d", &why);
  return g;
}

TEST(RegionGraph, RegionsAreFoundByNameAndRegisteredOnce) {
  RegionGraph g = Map();
  EXPECT_EQ(g.size(), 6);
  EXPECT_EQ(g.Find("c"), 2);
  EXPECT_EQ(g.Name(2), "c");
  EXPECT_EQ(g.Find("atlantis"), -1);
  EXPECT_EQ(g.AddRegion("c"), 2);
  EXPECT_EQ(g.size(), 6);
}

TEST(RegionGraph, NeighboursAreSortedAndAdjacencyIsSymmetric) {
  const RegionGraph g = Map();
  const int a = g.Find("a"), b = g.Find("b"), c = g.Find("c"), e = g.Find("e"), f = g.Find("f");
  EXPECT_EQ(g.Neighbors(b), (std::vector<int>{a, c, e}));
  EXPECT_TRUE(g.Neighbors(f).empty());
  EXPECT_TRUE(g.Adjacent(a, b));
  EXPECT_TRUE(g.Adjacent(b, a));
  EXPECT_FALSE(g.Adjacent(a, c));
  EXPECT_FALSE(g.Adjacent(a, f));
}

TEST(RegionGraph, DistanceCountsBordersOnTheShortestPath) {
  const RegionGraph g = Map();
  const auto id = [&](const char* n) { return g.Find(n); };
  EXPECT_EQ(g.Distance(id("a"), id("a")), 0);
  EXPECT_EQ(g.Distance(id("a"), id("b")), 1);
  EXPECT_EQ(g.Distance(id("a"), id("d")), 3);
  EXPECT_EQ(g.Distance(id("d"), id("a")), 3);
  EXPECT_EQ(g.Distance(id("c"), id("e")), 2);
  EXPECT_EQ(g.Distance(id("a"), id("f")), -1);  // unreachable island
}

TEST(RegionGraph, UnknownRegionsAndSelfBordersAreRefused) {
  RegionGraph g = Map();
  std::string why;
  EXPECT_FALSE(g.AddBorder("a", "zanzibar", &why));
  EXPECT_NE(why.find("zanzibar"), std::string::npos) << why;
  EXPECT_FALSE(g.AddBorder("nowhere", "a", &why));
  EXPECT_NE(why.find("nowhere"), std::string::npos) << why;
  EXPECT_FALSE(g.AddBorder("a", "a", &why));
  EXPECT_NE(why.find("itself"), std::string::npos) << why;
  EXPECT_EQ(g.Neighbors(g.Find("a")), std::vector<int>{g.Find("b")});
}

TEST(RegionGraph, RepeatedBordersAreStoredOnce) {
  RegionGraph g = Map();
  std::string why;
  EXPECT_TRUE(g.AddBorder("b", "a", &why));
  EXPECT_TRUE(g.AddBorder("a", "b", &why));
  EXPECT_EQ(g.Neighbors(g.Find("a")).size(), 1u);
}

TEST(RegionGraph, CopiesAreIndependent) {
  RegionGraph g = Map();
  RegionGraph copy = g;
  std::string why;
  ASSERT_TRUE(copy.AddBorder("a", "f", &why));
  EXPECT_TRUE(copy.Adjacent(copy.Find("a"), copy.Find("f")));
  EXPECT_FALSE(g.Adjacent(g.Find("a"), g.Find("f")));
  EXPECT_EQ(g.Distance(g.Find("a"), g.Find("f")), -1);
}

}  // namespace
}  // namespace plateau
