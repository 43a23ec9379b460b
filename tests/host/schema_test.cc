// Host schemas: loading schemas/ from the Plateau home and validating manifests with pointed errors.
#include "host/schema.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "host/home.h"
#include "host/json_io.h"

namespace plateau {
namespace {

const SchemaSet& Loaded() {
  std::string error;
  const SchemaSet& set = Schemas(&error);
  EXPECT_TRUE(error.empty()) << error;
  return set;
}

Json Manifest() {
  return {{"id", "demo"}, {"api_version", 1}, {"name", {{"en", "Demo"}}}, {"players", {{"min", 1}, {"max", 4}}}};
}

std::vector<std::string> Errors(const std::string& schema, const Json& doc, const std::string& file) {
  std::vector<std::string> errors;
  EXPECT_FALSE(Loaded().Validate(schema, doc, file, &errors)) << doc.dump();
  EXPECT_FALSE(errors.empty());
  return errors;
}

TEST(Schema, PlateauHomeDefaultsToTheSourceTree) {
  const char* env = std::getenv("PLATEAU_HOME");
  const std::string saved = env ? env : "";
  unsetenv("PLATEAU_HOME");
  EXPECT_EQ(PlateauHome(), PLATEAU_SOURCE_DIR_STR);
  struct stat st;
  EXPECT_EQ(stat((PlateauHome() + "/schemas/game.schema.json").c_str(), &st), 0);
  setenv("PLATEAU_HOME", "/somewhere/else", 1);
  EXPECT_EQ(PlateauHome(), "/somewhere/else");
  setenv("PLATEAU_HOME", "", 1);  // empty means unset
  EXPECT_EQ(PlateauHome(), PLATEAU_SOURCE_DIR_STR);
  if (env) setenv("PLATEAU_HOME", saved.c_str(), 1);
  else unsetenv("PLATEAU_HOME");
}

TEST(Schema, LoadsEverySchemaOfTheInstall) {
  const SchemaSet& set = Loaded();
  EXPECT_TRUE(set.Has("game"));
  EXPECT_TRUE(set.Has("cards"));
  EXPECT_TRUE(set.Has("board"));
  EXPECT_FALSE(set.Has("nope"));
  EXPECT_EQ(&Schemas(nullptr), &set);  // loaded once per process
}

TEST(Schema, TheShippedGameValidates) {
  const std::string folder = PlateauHome() + "/games/ecosysteme-savane";
  Json manifest, cards;
  std::string error;
  ASSERT_TRUE(ReadJsonFile(folder + "/game.json", "game.json", &manifest, &error)) << error;
  ASSERT_TRUE(ReadJsonFile(folder + "/data/cards.json", "cards.json", &cards, &error)) << error;
  std::vector<std::string> errors;
  EXPECT_TRUE(Loaded().Validate("game", manifest, "game.json", &errors)) << (errors.empty() ? "" : errors[0]);
  EXPECT_TRUE(Loaded().Validate("cards", cards, "cards.json", &errors)) << (errors.empty() ? "" : errors[0]);
  EXPECT_TRUE(errors.empty());
}

TEST(Schema, AMinimalManifestValidates) {
  std::vector<std::string> errors;
  EXPECT_TRUE(Loaded().Validate("game", Manifest(), "games/demo/game.json", &errors));
  EXPECT_TRUE(errors.empty());
}

TEST(Schema, GameSchemaRejectsAManifestMissingId) {
  Json m = Manifest();
  m.erase("id");
  const auto errors = Errors("game", m, "games/demo/game.json");
  EXPECT_EQ(errors.front().rfind("games/demo/game.json: at /: ", 0), 0u) << errors.front();
  EXPECT_NE(errors.front().find("'id'"), std::string::npos) << errors.front();
}

TEST(Schema, WrongTypeErrorNamesTheFileAndTheDeepestPointerFirst) {
  Json m = Manifest();
  m["players"]["min"] = "two";
  const auto errors = Errors("game", m, "games/demo/game.json");
  // Worded for a person: what the schema expects, what the file holds (issue 17).
  EXPECT_EQ(errors.front(), "games/demo/game.json: at /players/min: expected integer, got string \"two\"");

  Json n = Manifest();
  n["id"] = 5;
  const auto id_errors = Errors("game", n, "games/demo/game.json");
  EXPECT_EQ(id_errors.front().rfind("games/demo/game.json: at /id: ", 0), 0u) << id_errors.front();
}

TEST(Schema, RejectsOtherManifestMistakes) {
  Json bad_id = Manifest();
  bad_id["id"] = "Has Spaces";
  EXPECT_EQ(Errors("game", bad_id, "g.json").front().rfind("g.json: at /id: ", 0), 0u);

  Json extra = Manifest();
  extra["colour"] = "blue";
  Errors("game", extra, "g.json");

  Json api = Manifest();
  api["api_version"] = 2;
  EXPECT_EQ(Errors("game", api, "g.json").front().rfind("g.json: at /api_version: ", 0), 0u);

  Json param = Manifest();
  param["parameters"] = {{"size", {{"type", "colour"}, {"default", 1}}}};
  EXPECT_EQ(Errors("game", param, "g.json").front().rfind("g.json: at /parameters/size/type: ", 0), 0u);

  Errors("game", Json::array(), "g.json");
}

TEST(Schema, CardsSchemaPointsIntoTheArray) {
  const Json cards = {{"cards", {{{"id", "ok"}}, {{"id", "two"}, {"count", "three"}}}}};
  const auto errors = Errors("cards", cards, "games/demo/data/cards.json");
  // The card's id beside the pointer, so nobody counts list elements from 0.
  EXPECT_EQ(errors.front(), "games/demo/data/cards.json: at /cards/1/count (card 'two'): expected integer, got string \"three\"");
}

// One line per problem: valijson's chain of "Failed to validate ..." lines above each problem
// is left out, and bounds are worded with the schema's own numbers.
TEST(Schema, OneLinePerProblem) {
  const Json cards = {{"cards", {{{"id", "ok"}, {"count", -1}}, {{"id", "two"}, {"kind", 5}}}}};
  const auto errors = Errors("cards", cards, "games/demo/data/cards.json");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "games/demo/data/cards.json: at /cards/0/count (card 'ok'): expected at least 0, got -1");
  EXPECT_EQ(errors[1], "games/demo/data/cards.json: at /cards/1/kind (card 'two'): expected string, got integer 5");
}

TEST(Schema, UnknownSchemaNameIsAnError) {
  std::vector<std::string> errors;
  EXPECT_FALSE(Loaded().Validate("nope", Json::object(), "f.json", &errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "f.json: no schema named 'nope'");
}

class SchemaDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "plateau_schema_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ + "/" + name) << text; }
  std::string dir_;
};

TEST_F(SchemaDir, LoadsSchemasNamedByTheirFileStem) {
  Write("point.schema.json", R"({"type": "object", "required": ["x"], "properties": {"x": {"type": "integer"}}})");
  Write("notes.txt", "not a schema");
  SchemaSet set;
  std::string error;
  ASSERT_TRUE(set.Load(dir_, &error)) << error;
  EXPECT_TRUE(set.Has("point"));
  EXPECT_FALSE(set.Has("notes"));
  std::vector<std::string> errors;
  EXPECT_TRUE(set.Validate("point", Json{{"x", 3}}, "p.json", &errors));
  EXPECT_FALSE(set.Validate("point", Json{{"x", "3"}}, "p.json", &errors));
  EXPECT_EQ(errors.front().rfind("p.json: at /x: ", 0), 0u) << errors.front();
}

TEST_F(SchemaDir, BadSchemaFilesAreReportedByName) {
  Write("broken.schema.json", "{\"type\": ");
  SchemaSet set;
  std::string error;
  EXPECT_FALSE(set.Load(dir_, &error));
  EXPECT_EQ(error.rfind("schemas/broken.schema.json:1:", 0), 0u) << error;
}

TEST_F(SchemaDir, MissingFolderIsAnError) {
  SchemaSet set;
  std::string error;
  EXPECT_FALSE(set.Load(dir_ + "/absent", &error));
  EXPECT_NE(error.find("cannot open schema folder"), std::string::npos) << error;
}

}  // namespace
}  // namespace plateau
