// Host loader: finding and loading game folders, schema-checked data, and errors naming file and path.
#include "host/loader.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "host/home.h"
#include "host/look.h"

namespace plateau {
namespace {

const ParamSpec* Param(const GameInfo& info, const std::string& name) {
  for (const auto& p : info.params)
    if (p.name == name) return &p;
  return nullptr;
}

TEST(Loader, LoadsEcosystemeSavane) {
  GameFiles files;
  const Status st = LoadGameFiles("ecosysteme-savane", &files);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(files.info.id, "ecosysteme-savane");
  EXPECT_EQ(files.info.name, "Ecosystem: Savanna");
  EXPECT_EQ(files.info.names["fr"], "Écosystème – Savane");
  EXPECT_EQ(files.info.min_players, 1);
  EXPECT_EQ(files.info.max_players, 6);
  EXPECT_EQ(files.info.extends, "ecosysteme");
  EXPECT_FALSE(files.info.abstract);
  EXPECT_EQ(files.info.folder, PlateauHome() + "/games/ecosysteme-savane");
  EXPECT_EQ(files.rules_script, "rules.lua");
  ASSERT_EQ(files.roots.size(), 2u);  // its own folder, then the shared Écosystème base
  EXPECT_EQ(files.roots[0].display, "games/ecosysteme-savane");
  EXPECT_EQ(files.roots[1].display, "games/ecosysteme");
  ASSERT_TRUE(files.data.count("cards"));
  EXPECT_EQ(files.data.at("cards")["cards"].size(), 11u);

  ASSERT_NE(files.cards, nullptr);
  EXPECT_EQ(files.cards->size(), 11u);
  EXPECT_EQ(files.cards->Find("waterhole"), 0);  // in data order
  EXPECT_EQ(files.cards->Find("vulture"), 10);
  for (const char* id : {"prairie", "tree", "gazelle", "zebra", "giraffe", "cheetah", "lion", "elephant", "hyena"})
    EXPECT_NE(files.cards->Find(id), kNoCard) << id;
}

TEST(Loader, EcosystemeParametersHaveTheirDefaults) {
  GameFiles files;
  ASSERT_TRUE(LoadGameFiles("ecosysteme-savane", &files).ok());
  EXPECT_EQ(files.info.params.size(), 5u);
  const ParamSpec* hand = Param(files.info, "hand_size");
  ASSERT_NE(hand, nullptr);
  EXPECT_EQ(hand->type, "integer");
  EXPECT_EQ(hand->default_value, 11);
  EXPECT_EQ(hand->minimum, 10);
  EXPECT_EQ(hand->maximum, 15);
  EXPECT_FALSE(hand->doc.empty());
  Json resolved;
  const Status st = ResolveParams(files.info, Json::object(), &resolved);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(resolved, (Json{{"hand_size", 11},
                            {"elephant_floor", 0},
                            {"solo_target_easy", 55},
                            {"solo_target_normal", 75},
                            {"solo_target_hard", 85}}));
  EXPECT_EQ(ResolveParams(files.info, Json{{"hand_size", 16}}, &resolved).kind, ErrorKind::kInput);
}

TEST(Loader, TheAbstractBaseIsFlaggedAndNotInherited) {
  GameFiles base;
  ASSERT_TRUE(LoadGameFiles("ecosysteme", &base).ok());
  EXPECT_TRUE(base.info.abstract);
  EXPECT_TRUE(base.data.empty());  // the games extending it bring their cards
  for (const char* id : {"ecosysteme-savane", "ecosysteme-ocean", "ecosystem"}) {
    GameFiles files;
    ASSERT_TRUE(LoadGameFiles(id, &files).ok()) << id;
    EXPECT_EQ(files.info.extends, "ecosysteme") << id;
    EXPECT_FALSE(files.info.abstract) << id;
  }
}

TEST(Loader, ListsAndResolvesInstalledGames) {
  const auto games = ListGames();
  EXPECT_NE(std::find(games.begin(), games.end(), "ecosysteme-savane"), games.end());
  EXPECT_TRUE(std::is_sorted(games.begin(), games.end()));
  EXPECT_EQ(ResolveGameFolder("ecosysteme-savane"), PlateauHome() + "/games/ecosysteme-savane");
  EXPECT_EQ(ResolveGameFolder("no-such-game"), "");
  EXPECT_EQ(ResolveGameFolder(""), "");
}

TEST(Loader, UnknownGameIdFailsWithInputError) {
  GameFiles files;
  Status st = LoadGameFiles("no-such-game", &files);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  // Every place an id is looked for, in the order they are tried.
  EXPECT_NE(st.message.find("unknown game 'no-such-game': no game.json in ./games/no-such-game, ./no-such-game nor " +
                            PlateauHome() + "/games/no-such-game"),
            std::string::npos)
      << st.message;
  st = LoadGameFiles("/definitely/not/a/folder", &files);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  // A path is only looked for where it says.
  EXPECT_EQ(st.message, "unknown game '/definitely/not/a/folder': no game.json in /definitely/not/a/folder");
}

// A game folder written under a temporary directory, passed to the loader by path.
class TempGame : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "plateau_loader_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  // Writes <root>/<game>/<file>, creating folders.
  void Write(const std::string& game, const std::string& file, const std::string& text) {
    const std::filesystem::path p = std::filesystem::path(root_) / game / file;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  void WriteManifest(const std::string& game, Json manifest) { Write(game, "game.json", manifest.dump(2)); }
  static Json Manifest(const std::string& id) {
    return {{"id", id},
            {"api_version", 1},
            {"name", {{"en", "Test"}}},
            {"players", {{"min", 1}, {"max", 4}}},
            {"data", {{"cards", {{"file", "data/cards.json"}, {"schema", "cards"}}}}}};
  }
  Status Load(const std::string& game, GameFiles* files) { return LoadGameFiles(root_ + "/" + game, files); }
  Status Load(const std::string& game) {
    GameFiles files;
    return Load(game, &files);
  }

  std::string root_;
};

TEST_F(TempGame, AValidFolderLoadsByPath) {
  WriteManifest("mygame", Manifest("mygame"));
  Write("mygame", "data/cards.json", R"({"cards": [{"id": "red", "count": 2}, {"id": "blue"}]})");
  GameFiles files;
  const Status st = Load("mygame", &files);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(files.info.id, "mygame");
  EXPECT_EQ(files.info.max_players, 4);
  EXPECT_EQ(files.cards->size(), 2u);
  EXPECT_EQ(files.cards->Find("blue"), 1);
  EXPECT_EQ(files.roots[0].display, "games/mygame");
}

TEST_F(TempGame, BadDataFileErrorNamesTheFileAndTheJsonPath) {
  WriteManifest("mygame", Manifest("mygame"));
  Write("mygame", "data/cards.json", R"({"cards": [{"id": "red"}, {"id": "blue", "count": "three"}]})");
  const Status st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("games/mygame/data/cards.json: at /cards/1/count"), std::string::npos) << st.message;
}

TEST_F(TempGame, InvalidJsonInADataFileNamesLineAndColumn) {
  WriteManifest("mygame", Manifest("mygame"));
  Write("mygame", "data/cards.json", "{\n  \"cards\": [\n    {\"id\": \"red\",}\n  ]\n}");
  const Status st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_EQ(st.message.rfind("games/mygame/data/cards.json:3:", 0), 0u) << st.message;
}

TEST_F(TempGame, DuplicateCardIdsAreRefused) {
  WriteManifest("mygame", Manifest("mygame"));
  Write("mygame", "data/cards.json", R"({"cards": [{"id": "red"}, {"id": "red"}]})");
  const Status st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("games/mygame/data/cards.json: at /cards/1/id: duplicate card id 'red'"),
            std::string::npos)
      << st.message;
}

TEST_F(TempGame, MissingDataFileIsNamed) {
  WriteManifest("mygame", Manifest("mygame"));
  const Status st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("games/mygame/data/cards.json: no such file"), std::string::npos) << st.message;
}

TEST_F(TempGame, ManifestSchemaErrorsNameTheManifestAndPointer) {
  Json m = Manifest("mygame");
  m["players"]["min"] = "one";
  WriteManifest("mygame", m);
  Status st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("games/mygame/game.json: at /players/min"), std::string::npos) << st.message;

  m = Manifest("mygame");
  m.erase("id");
  WriteManifest("mygame", m);
  st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("games/mygame/game.json: at /"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("'id'"), std::string::npos) << st.message;
}

TEST_F(TempGame, InconsistentManifestsAreRefused) {
  Json m = Manifest("mygame");
  m["players"] = {{"min", 5}, {"max", 2}};
  WriteManifest("mygame", m);
  Write("mygame", "data/cards.json", R"({"cards": [{"id": "red"}]})");
  Status st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("games/mygame/game.json: at /players: min is greater than max"), std::string::npos)
      << st.message;

  m = Manifest("mygame");
  m["parameters"] = {{"size", {{"type", "integer"}, {"default", 50}, {"maximum", 10}}}};
  WriteManifest("mygame", m);
  st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("at /parameters/size/default"), std::string::npos) << st.message;

  m = Manifest("mygame");
  m["data"]["cards"]["file"] = "../outside.json";
  WriteManifest("mygame", m);
  Write("", "outside.json", R"({"cards": [{"id": "red"}]})");
  st = Load("mygame");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("must stay inside the game folder"), std::string::npos) << st.message;
}

TEST_F(TempGame, ExtendsInheritsAndOverridesTheBaseGame) {
  Json m = {{"id", "savane-variant"},
            {"api_version", 1},
            {"name", {{"en", "Variant"}}},
            {"extends", "ecosysteme-savane"},
            {"parameters",
             {{"hand_size", {{"type", "integer"}, {"default", 12}, {"minimum", 10}, {"maximum", 15}}},
              {"fog", {{"type", "boolean"}, {"default", false}}}}}};
  WriteManifest("savane-variant", m);
  GameFiles files;
  const Status st = Load("savane-variant", &files);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(files.info.id, "savane-variant");
  EXPECT_EQ(files.info.extends, "ecosysteme-savane");
  EXPECT_EQ(files.look_file, "games/ecosysteme-savane/data/look.json");  // a variant draws as its base
  EXPECT_EQ(files.info.max_players, 6);  // inherited
  EXPECT_EQ(files.cards->size(), 11u);    // the base game's data
  EXPECT_EQ(files.rules_script, "rules.lua");
  EXPECT_EQ(files.info.params.size(), 6u);
  EXPECT_EQ(Param(files.info, "hand_size")->default_value, 12);
  EXPECT_EQ(Param(files.info, "elephant_floor")->default_value, 0);
  EXPECT_EQ(Param(files.info, "fog")->default_value, false);
  ASSERT_EQ(files.roots.size(), 3u);  // the variant, Savane, then the base Savane extends
  EXPECT_EQ(files.roots[0].display, "games/savane-variant");
  EXPECT_EQ(files.roots[1].display, "games/ecosysteme-savane");
  EXPECT_EQ(files.roots[2].display, "games/ecosysteme");
}

TEST_F(TempGame, MissingBaseGameIsReported) {
  Json m = Manifest("orphan");
  m["extends"] = "no-such-base";
  WriteManifest("orphan", m);
  const Status st = Load("orphan");
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("while loading base game 'no-such-base'"), std::string::npos) << st.message;
  EXPECT_NE(st.message.find("unknown game 'no-such-base'"), std::string::npos) << st.message;
}

TEST_F(TempGame, ExtendsCyclesAreRefused) {
  // Game ids also resolve against the current directory, as in a modder's checkout.
  Json a = Manifest("loop-a"), b = Manifest("loop-b");
  a["extends"] = "loop-b";
  b["extends"] = "loop-a";
  WriteManifest("loop-a", a);
  WriteManifest("loop-b", b);
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(chdir(root_.c_str()), 0);
  GameFiles files;
  const Status st = LoadGameFiles("loop-a", &files);
  ASSERT_EQ(chdir(cwd), 0);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("'extends' forms a cycle through 'loop-a'"), std::string::npos) << st.message;
}


// ---- a game's look (data/look.json, host/look.h) ------------------------------------------------

TEST(Look, EveryShippedGameDeclaresItsLook) {
  for (const char* id : {"ecosysteme-savane", "ecosysteme-ocean", "ecosystem", "safari", "chenilles", "fauna"}) {
    GameFiles files;
    const Status st = LoadGameFiles(id, &files);
    ASSERT_TRUE(st.ok()) << id << ": " << st.message;
    EXPECT_TRUE(files.look_error.ok()) << files.look_error.message;
    EXPECT_TRUE(files.look.is_object()) << id;
    EXPECT_EQ(files.look_file, std::string("games/") + id + "/data/look.json");
    EXPECT_FALSE(files.look["seat_colours"].empty()) << id;
  }
}

TEST(Look, ColoursParse) {
  EXPECT_TRUE(IsColour("#abc"));
  EXPECT_TRUE(IsColour("#A0b1C2"));
  EXPECT_FALSE(IsColour("#ggg"));
  EXPECT_FALSE(IsColour("red"));
  EXPECT_FALSE(IsColour("#abcd"));
}

TEST_F(TempGame, ALookIsReadWithTheGamesFiles) {
  WriteManifest("mygame", Manifest("mygame"));
  Write("mygame", "data/cards.json", R"({"cards": [{"id": "red", "count": 2, "kind": "warm"}, {"id": "blue"}]})");
  Write("mygame", "data/look.json",
        R"({"seat_colours": ["#c00", "#0000cc"], "cards": [{"from": "cards/cards", "title": "{name}", "colour_by": "kind",
            "colours": {"warm": "#f80"}, "icons": {"red": "R"}}]})");
  GameFiles files;
  Status st = Load("mygame", &files);
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(files.look["seat_colours"][1], "#0000cc");
  EXPECT_EQ(files.look_file, "games/mygame/data/look.json");
}

TEST_F(TempGame, ABadLookIsRefusedNamingTheFileAndTheJsonPath) {
  WriteManifest("mygame", Manifest("mygame"));
  Write("mygame", "data/cards.json", R"({"cards": [{"id": "red", "count": 2, "kind": "warm"}, {"id": "blue"}]})");
  const std::string file = "games/mygame/data/look.json: ";
  // The files load; the look's refusal is kept for the rules' load to give last (LuaRules::Load).
  auto refused = [&](const std::string& look) {
    Write("mygame", "data/look.json", look);
    GameFiles files;
    EXPECT_TRUE(Load("mygame", &files).ok());
    EXPECT_EQ(files.look_error.kind, ErrorKind::kInput);
    EXPECT_TRUE(files.look.is_null());
    return files.look_error.message;
  };
  // A colour that does not parse.
  EXPECT_EQ(refused(R"({"tokens": [{"data": "a", "on": "cell"}, {"data": "b", "on": "cell"}, {"data": "c", "on": "cell", "colour": "#ggg"}]})"),
            file + "at /tokens/2/colour: \"#ggg\" is not a colour (#rgb or #rrggbb, or \"seat\")");
  EXPECT_EQ(refused(R"({"seat_colours": ["#fff", "blue"]})"), file + "at /seat_colours/1: \"blue\" is not a colour (#rgb or #rrggbb)");
  // An element of a kind the look does not know: a place to stand, or a whole section.
  EXPECT_EQ(refused(R"({"tokens": [{"data": "a", "on": "hexagon"}]})"),
            file + "at /tokens/0/on: unknown place \"hexagon\" for a token (cell, corner, edge, region, bucket)");
  EXPECT_EQ(refused(R"({"sprites": {}})"),
            file + "at /sprites: unknown element kind 'sprites' (a look has: $comment, public_data, seat_colours, cards, zones, region_maps, tiles, tokens, "
                   "counters, values, boards, lists, records, tracks, print)");
  EXPECT_EQ(refused(R"({"zones": {"deck": {"show": "fan"}}})"), file + "at /zones/deck/show: unknown way to show a zone \"fan\" (faces, chips, pile)");
  // Anything else the schema refuses, with its JSON path.
  const std::string msg = refused(R"({"tokens": [{"data": "a"}]})");
  EXPECT_EQ(msg.rfind(file + "at /tokens/0", 0), 0u) << msg;
  // A card that does not exist, a value no card has, a data list that does not exist.
  EXPECT_EQ(refused(R"({"cards": [{"from": "cards/cards", "icons": {"red": "R", "purple": "P"}}]})"),
            file + "at /cards/0/icons/purple: no 'purple' in cards/cards (ids: red, blue)");
  EXPECT_EQ(refused(R"({"cards": [{"from": "cards/cards", "colour_by": "kind", "colours": {"cold": "#00f"}}]})"),
            file + "at /cards/0/colours/cold: no entry of cards/cards has kind 'cold' (kind: warm)");
  EXPECT_EQ(refused(R"({"cards": [{"from": "animals/animals"}]})"), file + "at /cards/0/from: no data named 'animals' (data: cards)");
  // plateau print's section: its sheets and the lists it leaves out name data lists; its back a colour.
  EXPECT_EQ(refused(R"({"print": {"sheets": [{"from": "animals/animals"}]}})"),
            file + "at /print/sheets/0/from: no data named 'animals' (data: cards)");
  EXPECT_EQ(refused(R"({"print": {"leave_out": ["cards/nothing"]}})"), file + "at /print/leave_out/0: 'cards/nothing': nothing named 'nothing' in cards");
  EXPECT_EQ(refused(R"({"print": {"back_colour": "navy"}})"), file + "at /print/back_colour: \"navy\" is not a colour (#rgb or #rrggbb)");
  EXPECT_EQ(refused(R"({"counters": [{"data": "p", "at": 1, "names": "cards/resources"}]})"),
            file + "at /counters/0/names: 'cards/resources': nothing named 'resources' in cards");
  // A region where the game has no map.
  EXPECT_EQ(refused(R"({"region_maps": {"world": {"short": {"atlantis": "A"}}}})"),
            file + "at /region_maps/world/short/atlantis: the game has no regions data file");
}

TEST_F(TempGame, ALookNamingARegionOrASpeciesThatDoesNotExistIsRefused) {
  // A copy of Fauna (a map) and of Safari (species), each with one bad reference.
  for (const char* id : {"fauna", "safari"})
    std::filesystem::copy(PlateauHome() + "/games/" + id, root_ + "/" + id, std::filesystem::copy_options::recursive);
  Write("fauna", "data/look.json", R"({"region_maps": {"world": {"short": {"alaska": "AK", "atlantis": "A"}}}})");
  GameFiles files;
  auto look_error = [&](const char* id) {
    files = GameFiles();
    EXPECT_TRUE(Load(id, &files).ok());
    return files.look_error.message;
  };
  EXPECT_EQ(look_error("fauna"), "games/fauna/data/look.json: at /region_maps/world/short/atlantis: unknown region 'atlantis'");
  Write("safari", "data/look.json", R"({"tokens": [{"data": "x", "on": "cell", "icons_of": "safari/species", "icons": {"lion": "L", "unicorn": "U"}}]})");
  EXPECT_EQ(look_error("safari"),
            "games/safari/data/look.json: at /tokens/0/icons/unicorn: no 'unicorn' in safari/species (ids: monkey, elephant, giraffe, lion, zebra)");
  Write("safari", "data/look.json", R"({"tiles": {"kinds": {"trail": "#c8a165", "river": "#00f"}}})");
  const std::string msg = look_error("safari");
  EXPECT_NE(msg.find("games/safari/data/look.json: at /tiles/kinds/river: no tile has an edge or segment of kind 'river'"), std::string::npos)
      << msg;
}
}  // namespace
}  // namespace plateau
