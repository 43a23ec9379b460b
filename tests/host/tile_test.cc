// Host tiles: edges under quarter-turn rotation and edge matching against placed neighbours.
#include "host/tile.h"

#include <gtest/gtest.h>

namespace plateau {
namespace {

constexpr int kRoad = 1, kField = 2, kCity = 3;

// 0: a straight road north-south; 1: all field; 2: city on the north, field elsewhere.
const std::vector<TileType> kTypes = {
    {"road_ns", {kRoad, kField, kRoad, kField}},
    {"field", {kField, kField, kField, kField}},
    {"city_n", {kCity, kField, kField, kField}},
};

TEST(Tile, UnrotatedEdgesAreTheDeclaredOnes) {
  const TileType t{"t", {10, 11, 12, 13}};
  EXPECT_EQ(RotatedEdge(t, 0, kNorth), 10);
  EXPECT_EQ(RotatedEdge(t, 0, kEast), 11);
  EXPECT_EQ(RotatedEdge(t, 0, kSouth), 12);
  EXPECT_EQ(RotatedEdge(t, 0, kWest), 13);
}

TEST(Tile, AQuarterTurnClockwiseMovesNorthToEast) {
  const TileType t{"t", {10, 11, 12, 13}};
  EXPECT_EQ(RotatedEdge(t, 1, kEast), 10);
  EXPECT_EQ(RotatedEdge(t, 1, kSouth), 11);
  EXPECT_EQ(RotatedEdge(t, 1, kWest), 12);
  EXPECT_EQ(RotatedEdge(t, 1, kNorth), 13);
  EXPECT_EQ(RotatedEdge(t, 2, kNorth), 12);
  EXPECT_EQ(RotatedEdge(t, 3, kNorth), 11);
}

TEST(Tile, RotationIsTakenModuloFourIncludingNegativeTurns) {
  const TileType t{"t", {10, 11, 12, 13}};
  for (int side = 0; side < 4; ++side) {
    EXPECT_EQ(RotatedEdge(t, 4, side), RotatedEdge(t, 0, side));
    EXPECT_EQ(RotatedEdge(t, 5, side), RotatedEdge(t, 1, side));
    EXPECT_EQ(RotatedEdge(t, -1, side), RotatedEdge(t, 3, side));
  }
}

TEST(Tile, AnyTileFitsWithNoNeighbours) {
  Grid g(GridRules{0, 0, false});
  std::string why;
  for (int type = 0; type < 3; ++type)
    for (int rot = 0; rot < 4; ++rot) EXPECT_TRUE(TileFits(g, kTypes, 0, 0, type, rot, &why));
}

TEST(Tile, MatchingEdgesFit) {
  Grid g(GridRules{0, 0, true});
  g.Set(0, 0, Cell{0, 0, 0});  // road north-south
  std::string why;
  EXPECT_TRUE(TileFits(g, kTypes, 1, 0, 0, 0, &why)) << why;   // road continues south
  EXPECT_TRUE(TileFits(g, kTypes, 0, 1, 1, 0, &why)) << why;   // field beside field
  EXPECT_TRUE(TileFits(g, kTypes, 0, -1, 0, 0, &why)) << why;  // road tile's west is field
}

TEST(Tile, MismatchedEdgesAreRefusedNamingTheSide) {
  Grid g(GridRules{0, 0, true});
  g.Set(0, 0, Cell{0, 0, 0});
  std::string why;
  EXPECT_FALSE(TileFits(g, kTypes, 1, 0, 1, 0, &why));  // field under a road end
  EXPECT_NE(why.find("north"), std::string::npos) << why;
  EXPECT_FALSE(TileFits(g, kTypes, -1, 0, 1, 0, &why));
  EXPECT_NE(why.find("south"), std::string::npos) << why;
  EXPECT_FALSE(TileFits(g, kTypes, 0, 1, 0, 1, &why));  // road turned east-west meets field
  EXPECT_NE(why.find("west"), std::string::npos) << why;
  EXPECT_FALSE(TileFits(g, kTypes, 0, -1, 0, 1, &why));
  EXPECT_NE(why.find("east"), std::string::npos) << why;
}

TEST(Tile, RotationDecidesTheFit) {
  Grid g(GridRules{0, 0, true});
  g.Set(0, 0, Cell{2, 0, 0});  // city on its north side
  std::string why;
  // Above it, a city tile must show its city on the south: two quarter turns.
  EXPECT_FALSE(TileFits(g, kTypes, -1, 0, 2, 0, &why));
  EXPECT_FALSE(TileFits(g, kTypes, -1, 0, 2, 1, &why));
  EXPECT_TRUE(TileFits(g, kTypes, -1, 0, 2, 2, &why)) << why;
  EXPECT_FALSE(TileFits(g, kTypes, -1, 0, 2, 3, &why));
}

TEST(Tile, ThePlacedNeighbourRotationCounts) {
  Grid g(GridRules{0, 0, true});
  g.Set(0, 0, Cell{0, 1, 0});  // the road tile turned: road runs east-west
  std::string why;
  EXPECT_FALSE(TileFits(g, kTypes, 0, 1, 1, 0, &why));   // field meets the road's east end
  EXPECT_TRUE(TileFits(g, kTypes, 0, 1, 0, 1, &why)) << why;
  EXPECT_TRUE(TileFits(g, kTypes, 1, 0, 1, 0, &why)) << why;  // south side is now field
}

TEST(Tile, EveryNeighbourMustMatch) {
  Grid g(GridRules{0, 0, true});
  g.Set(0, 0, Cell{0, 0, 0});  // road N-S above the target
  g.Set(1, 1, Cell{1, 0, 0});  // field to the target's east
  std::string why;
  EXPECT_TRUE(TileFits(g, kTypes, 1, 0, 0, 0, &why)) << why;  // road N-S: north road, east field
  g.Set(1, 1, Cell{0, 1, 0});                                  // now a road E-W to the east
  EXPECT_FALSE(TileFits(g, kTypes, 1, 0, 0, 0, &why));
  EXPECT_NE(why.find("east"), std::string::npos) << why;
}

}  // namespace
}  // namespace plateau
