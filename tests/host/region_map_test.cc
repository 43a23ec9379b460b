// Region maps and scales: Fauna's shipped data checked animal by animal against its own map
// and scales; the loader's refusals of bad maps, scales and animals (naming the file and the
// JSON path); the region map's save form; scale buckets.
#include "host/region_map.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "host/loader.h"

namespace plateau {
namespace {

TEST(FaunaData, EveryAnimalLivesInRegionsOfTheMapAndItsMeasuresFallInABucketOfAnAskedScale) {
  GameFiles files;
  const Status st = LoadGameFiles("fauna", &files);
  ASSERT_TRUE(st.ok()) << st.message;
  ASSERT_TRUE(files.regions && files.scales);
  const Json& animals = files.data.at("animals").at("animals");
  EXPECT_GE(animals.size(), 150u);
  int green = 0, black = 0;
  for (const auto& a : animals) {
    const std::string id = a.at("id");
    (a.at("deck") == "green" ? green : black) += 1;
    EXPECT_FALSE(a.at("regions").empty()) << id;
    for (const auto& r : a.at("regions")) EXPECT_GE(files.regions->Find(r.get<std::string>()), 0) << id << ": " << r;
    std::set<std::string> asks;
    for (const auto& s : a.at("asks")) asks.insert(s.get<std::string>());
    std::set<std::string> measured;
    for (auto it = a.at("measures").begin(); it != a.at("measures").end(); ++it) {
      measured.insert(it.key());
      const Scale* s = files.scales->Find(it.key());
      ASSERT_NE(s, nullptr) << id << ": " << it.key();
      EXPECT_GE(s->BucketOf(it->get<double>()), 0) << id << ": " << it.key() << " " << *it;
    }
    EXPECT_EQ(measured, asks) << id << ": the measures are exactly what the card asks";
    EXPECT_FALSE(a.at("source").get<std::string>().empty()) << id;
  }
  EXPECT_GT(green, 50);
  EXPECT_GT(black, 50);
}

TEST(FaunaData, TheMapHasLandAndSeaRegionsAllConnectedWithSymmetricBorders) {
  GameFiles files;
  ASSERT_TRUE(LoadGameFiles("fauna", &files).ok());
  const RegionSet& set = *files.regions;
  EXPECT_GE(set.size(), 50);
  EXPECT_LE(set.size(), 70);
  int sea = 0;
  for (int r = 0; r < set.size(); ++r) {
    sea += set.regions[static_cast<size_t>(r)].kind == "sea";
    EXPECT_FALSE(set.graph.Neighbors(r).empty()) << set.regions[static_cast<size_t>(r)].id;
    for (int n : set.graph.Neighbors(r)) EXPECT_TRUE(set.graph.Adjacent(n, r));
    EXPECT_GE(set.graph.Distance(0, r), 0) << set.regions[static_cast<size_t>(r)].id << " is cut off";
  }
  EXPECT_GT(sea, 10);
  // A neighbour across the sea: the Congo Basin touches the South Atlantic.
  EXPECT_TRUE(set.graph.Adjacent(set.Find("congo_basin"), set.Find("south_atlantic")));
}

TEST(Scale, ABucketHoldsItsMinButNotItsMax) {
  ScaleSet set;
  std::string error;
  ASSERT_TRUE(ScaleSet::FromJson({{"scales", {{{"id", "w"}, {"unit", "kg"}, {"buckets", {{{"min", 0}, {"max", 1}}, {{"min", 1}, {"max", 10}}}}}}}},
                                 &set, &error))
      << error;
  const Scale& s = set.scales[0];
  EXPECT_EQ(s.BucketOf(0), 0);
  EXPECT_EQ(s.BucketOf(0.99), 0);
  EXPECT_EQ(s.BucketOf(1), 1);
  EXPECT_EQ(s.BucketOf(10), -1);
  EXPECT_EQ(s.BucketOf(std::nan("")), -1);
}

TEST(RegionMapSave, MarksRoundTripAndUnknownRegionsAreRefused) {
  auto set = std::make_shared<RegionSet>();
  std::string error;
  ASSERT_TRUE(RegionSet::FromJson({{"regions", {{{"id", "a"}, {"kind", "land"}}, {{"id", "b"}, {"kind", "sea"}}}}, {"borders", Json::array({Json::array({"a", "b"})})}},
                                  set.get(), &error));
  RegionMap m(set);
  m.Mark(1, 0);
  m.Mark(1, 2);
  RegionMap back;
  ASSERT_TRUE(RegionMap::FromJson(m.ToJson(), set, &back, &error)) << error;
  EXPECT_TRUE(back == m);
  EXPECT_EQ(m.ToJson().dump(), R"({"marks":{"b":[0,2]}})");
  EXPECT_FALSE(RegionMap::FromJson({{"marks", {{"atlantis", {0}}}}}, set, &back, &error));
  EXPECT_EQ(error, "marks/atlantis: unknown region");
}

// A Fauna-like game folder under a temporary directory, with one file changed per test.
class BadFaunaData : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "plateau_regions_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl + "/mini";
    std::filesystem::create_directories(root_ + "/data");
    Write("game.json", Json{{"id", "mini"}, {"api_version", 1}, {"name", {{"en", "Mini"}}}, {"players", {{"min", 2}, {"max", 4}}},
                            {"data", {{"regions", {{"file", "data/regions.json"}, {"schema", "regions"}}},
                                      {"scales", {{"file", "data/scales.json"}, {"schema", "scales"}}},
                                      {"animals", {{"file", "data/animals.json"}, {"schema", "animals"}, {"cards", "animals"},
                                                   {"refs", {{"/animals/*/regions/*", "region"}, {"/animals/*/asks/*", "scale"},
                                                             {"/animals/*/measures", "measures"}}}}}}}});
    regions_ = {{"regions", {{{"id", "plain"}, {"kind", "land"}}, {{"id", "lake"}, {"kind", "sea"}}}}, {"borders", Json::array({Json::array({"plain", "lake"})})}};
    scales_ = {{"scales", {{{"id", "weight"}, {"unit", "kg"}, {"buckets", {{{"min", 0}, {"max", 1}}, {{"min", 1}, {"max", 10}}}}}}}};
    animals_ = {{"animals", {{{"id", "vole"}, {"deck", "green"}, {"class", "mammal"}, {"name", {{"en", "Vole"}, {"fr", "Campagnol"}}},
                              {"scientific", "Microtus arvalis"}, {"regions", Json::array({"plain"})}, {"asks", Json::array({"weight"})},
                              {"measures", {{"weight", 0.03}}}, {"source", "test"}}}}};
  }
  void TearDown() override { std::filesystem::remove_all(std::filesystem::path(root_).parent_path()); }
  void Write(const std::string& file, const Json& j) { std::ofstream(root_ + "/" + file) << j.dump(2); }
  std::string Error() {
    Write("data/regions.json", regions_);
    Write("data/scales.json", scales_);
    Write("data/animals.json", animals_);
    GameFiles files;
    const Status st = LoadGameFiles(root_, &files);
    EXPECT_EQ(st.kind, ErrorKind::kInput) << st.message;
    return st.message;
  }
  std::string root_;
  Json regions_, scales_, animals_;
};

TEST_F(BadFaunaData, TheMiniGameLoads) {
  Write("data/regions.json", regions_);
  Write("data/scales.json", scales_);
  Write("data/animals.json", animals_);
  GameFiles files;
  const Status st = LoadGameFiles(root_, &files);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_NE(files.cards->Find("vole"), kNoCard) << "the animals are cards";
}

TEST_F(BadFaunaData, ABorderNamingAnUnknownRegion) {
  regions_["borders"].push_back(Json::array({"plain", "atlantis"}));
  EXPECT_EQ(Error(), "games/mini/data/regions.json: at /borders/1/1: unknown region 'atlantis'");
}

TEST_F(BadFaunaData, ASelfBorderAndABorderListedTwice) {
  regions_["borders"].push_back(Json::array({"lake", "lake"}));
  EXPECT_EQ(Error(), "games/mini/data/regions.json: at /borders/1: region 'lake' cannot border itself");
  regions_["borders"][1] = Json::array({"lake", "plain"});
  EXPECT_EQ(Error(), "games/mini/data/regions.json: at /borders/1: the border lake / plain is listed twice");
}

TEST_F(BadFaunaData, AnAnimalInAnUnknownRegion) {
  animals_["animals"][0]["regions"].push_back("atlantis");
  EXPECT_EQ(Error(), "games/mini/data/animals.json: at /animals/0/regions/1: unknown region \"atlantis\"");
}

TEST_F(BadFaunaData, AMeasureOutsideEveryBucket) {
  animals_["animals"][0]["measures"]["weight"] = 50;
  EXPECT_EQ(Error(), "games/mini/data/animals.json: at /animals/0/measures/weight: 50 kg falls in no bucket of the weight scale (0 to 10)");
}

TEST_F(BadFaunaData, AskingForAScaleThatDoesNotExist) {
  animals_["animals"][0]["asks"].push_back("wingspan");
  EXPECT_EQ(Error(), "games/mini/data/animals.json: at /animals/0/asks/1: unknown scale \"wingspan\" (scales: weight)");
}

TEST_F(BadFaunaData, BucketsOutOfOrderOrOverlapping) {
  scales_["scales"][0]["buckets"][1] = {{"min", 0.5}, {"max", 10}};
  EXPECT_EQ(Error(), "games/mini/data/scales.json: at /scales/0/buckets/1/min: buckets must be in increasing order without overlap: "
                     "min 0.5 is below the previous bucket's max 1");
  scales_["scales"][0]["buckets"][1] = {{"min", 3}, {"max", 2}};
  EXPECT_EQ(Error(), "games/mini/data/scales.json: at /scales/0/buckets/1: min 3 is not below max 2");
}

}  // namespace
}  // namespace plateau
