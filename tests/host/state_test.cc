// Host state: exact JSON round trip of every component, hashing, move JSON, and corrupt saves.
#include "host/state.h"

#include <gtest/gtest.h>

namespace plateau {
namespace {

std::shared_ptr<CardSet> Cards() {
  auto cards = std::make_shared<CardSet>();
  for (const char* n : {"prairie", "lion", "zebra", "tree", "water"}) cards->Intern(n);
  return cards;
}

// A state using every component, with awkward values (negative cells, face-down and rotated
// cells, hidden pending moves, uncapped counters, 64-bit seeds).
State RichState(std::shared_ptr<const CardSet> cards) {
  State s;
  s.cards = cards;
  s.game_id = "test-game";
  s.seed = 0xFEDCBA9876543210ULL;
  s.rng.Seed(s.seed);
  s.rng.Next();
  s.player_count = 2;
  s.params = {{"hand_size", 11}, {"variant", "b"}, {"fast", true}};
  s.seats = {{"Ada", "player"}, {"Bo", "player"}, {"neutral", "neutral"}};

  Zone* deck = s.AddZone("deck", -1, Visibility::kHidden);
  deck->cards = {0, 1, 2, 2, 4};
  s.AddZone("hand", 0, Visibility::kOwner)->cards = {3, 1};
  s.AddZone("hand", 1, Visibility::kOwner);  // empty zone
  s.AddZone("pile", 2, Visibility::kPublic)->cards = {4};

  Grid* g = s.AddGrid(State::Key("grid", 0), GridRules{4, 5, true});
  g->Set(0, 0, Cell{0});
  g->Set(-1, 0, Cell{1, 0, 1});  // face down
  g->Set(-1, -1, Cell{2, 3, 0});  // rotated
  g->Set(0, 1, Cell{3, 2, 1});    // both
  s.AddGrid(State::Key("grid", 1), GridRules{4, 5, true});  // empty grid
  s.AddGrid("board", GridRules{0, 0, false})->Set(-30, 12, Cell{4});

  s.counters["water"] = Counter{3, 0, 5, 7};
  s.counters["score"] = Counter{-12, INT64_MIN, INT64_MAX, 0};
  s.tracks["time"] = Track{12, true, 5, 2};
  s.tracks["score"] = Track{50, false, 49, 0};

  FeatureGraph f;
  f.AddSegment("road", 2);
  f.AddSegment("road", 1);
  f.AddSegment("city", 3);
  std::string why;
  f.Connect(0, 1, &why);
  f.AddOccupant(0, 1, 2);
  f.AddOccupant(2, 0);
  f.AddTally(2, "pennant", 1);
  s.features["safari"] = f;
  s.features["empty"] = FeatureGraph();

  s.data = {{"scores", {1, 2, 3}}, {"note", "é\"\\"}, {"nested", {{"a", nullptr}, {"b", 1.5}}}};

  s.flow.phase = "draft";
  s.flow.round = 1;
  s.flow.step = 3;
  s.flow.turn = 7;
  s.flow.to_move = {1};
  s.flow.committed = {1, 0, 0};
  Move hidden;
  hidden.type = "place";
  hidden.card = 2;
  hidden.has_cell = true;
  hidden.cell = {-1, 1};
  hidden.args = Json{{"bonus", true}};
  s.flow.pending = {hidden, Move{}, Move{}};
  s.flow.terminal = false;
  s.move_count = 17;
  s.Log(-1, "shuffle", {{"zone", "deck"}});
  s.Log(0, "move", {{"type", "place"}, {"card", "zebra"}});
  return s;
}

TEST(State, JsonRoundTripIsExactAndKeepsTheHash) {
  auto cards = Cards();
  const State s = RichState(cards);
  const Json j = s.ToJson();
  State back;
  std::string error;
  ASSERT_TRUE(State::FromJson(j, cards, &back, &error)) << error;
  EXPECT_EQ(back.ToJson(), j);
  EXPECT_EQ(back.ToJson().dump(), j.dump());
  EXPECT_EQ(back.Hash(), s.Hash());
  // And through text, as a save file would go.
  State reread;
  ASSERT_TRUE(State::FromJson(Json::parse(j.dump()), cards, &reread, &error)) << error;
  EXPECT_EQ(reread.ToJson(), j);
  EXPECT_EQ(reread.Hash(), s.Hash());
}

TEST(State, RoundTripRestoresEachComponent) {
  auto cards = Cards();
  const State s = RichState(cards);
  State b;
  std::string error;
  ASSERT_TRUE(State::FromJson(s.ToJson(), cards, &b, &error)) << error;
  EXPECT_EQ(b.game_id, s.game_id);
  EXPECT_EQ(b.seed, s.seed);
  EXPECT_TRUE(b.rng == s.rng);
  EXPECT_EQ(b.seats, s.seats);
  EXPECT_EQ(b.player_count, 2);
  EXPECT_EQ(b.params, s.params);
  EXPECT_EQ(b.zones, s.zones);
  ASSERT_EQ(b.grids.size(), s.grids.size());
  for (size_t i = 0; i < s.grids.size(); ++i) {
    EXPECT_EQ(b.grids[i].first, s.grids[i].first);
    EXPECT_TRUE(b.grids[i].second == s.grids[i].second) << s.grids[i].first;
  }
  const Grid* g = b.FindGrid("grid:1");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->Get(-1, 0)->face_down, 1);
  EXPECT_EQ(g->Get(-1, -1)->rotation, 3);
  EXPECT_EQ(g->Get(0, 1)->rotation, 2);
  EXPECT_EQ(g->Get(0, 1)->face_down, 1);
  EXPECT_EQ(b.counters, s.counters);
  EXPECT_EQ(b.tracks, s.tracks);
  ASSERT_EQ(b.features.size(), 2u);
  EXPECT_TRUE(b.features.at("safari") == s.features.at("safari"));
  EXPECT_EQ(b.features.at("safari").Describe(1).occupants, (std::map<int, int>{{1, 2}}));
  EXPECT_EQ(b.data, s.data);
  EXPECT_EQ(b.flow, s.flow);
  EXPECT_EQ(b.flow.pending[0].cell, (Coord{-1, 1}));
  EXPECT_EQ(b.flow.pending[0].args, (Json{{"bonus", true}}));
  EXPECT_EQ(b.move_count, 17);
  EXPECT_EQ(b.log, s.log);
}

TEST(State, UncommittedPendingMovesAreNotSaved) {
  auto cards = Cards();
  State s = RichState(cards);
  const Json j = s.ToJson();
  EXPECT_FALSE(j["flow"]["pending"][0].is_null());
  EXPECT_TRUE(j["flow"]["pending"][1].is_null());
}

TEST(State, HashChangesWhenACellChanges) {
  auto cards = Cards();
  const State s = RichState(cards);
  State t = s;
  EXPECT_EQ(t.Hash(), s.Hash());
  t.FindGrid("grid:1")->Set(1, 0, Cell{4});
  EXPECT_NE(t.Hash(), s.Hash());

  State u = s;
  u.FindGrid("grid:1")->SetFaceDown(0, 0, true);
  EXPECT_NE(u.Hash(), s.Hash());

  State v = s;
  v.FindGrid("grid:1")->Set(0, 0, Cell{1});  // same cell, different card
  EXPECT_NE(v.Hash(), s.Hash());
  EXPECT_EQ(s.Hash().size(), 16u);
}

TEST(State, HashCoversOtherComponentsButNotTheLog) {
  auto cards = Cards();
  const State s = RichState(cards);
  State a = s;
  a.Log(1, "move", {{"x", 1}});
  EXPECT_EQ(a.Hash(), s.Hash());
  State b = s;
  b.rng.Next();
  EXPECT_NE(b.Hash(), s.Hash());
  State c = s;
  c.counters["water"].Add(1);
  EXPECT_NE(c.Hash(), s.Hash());
  State d = s;
  std::swap(d.zones[0].cards[0], d.zones[0].cards[1]);  // deck order matters
  EXPECT_NE(d.Hash(), s.Hash());
  State e = s;
  e.flow.committed[1] = 1;
  EXPECT_NE(e.Hash(), s.Hash());
}

TEST(State, MoveJsonRoundTrips) {
  auto cards = Cards();
  Move m;
  m.type = "move";
  m.card = cards->Find("lion");
  m.has_cell = true;
  m.cell = {-2, 3};
  m.has_to = true;
  m.to = {4, -5};
  m.args = Json{{"power", 3}, {"tags", {"a", "b"}}};
  const Json j = MoveToJson(m, *cards);
  EXPECT_EQ(j["type"], "move");
  EXPECT_EQ(j["card"], "lion");
  EXPECT_EQ(j["cell"], Json({-2, 3}));
  EXPECT_EQ(j["to"], Json({4, -5}));
  EXPECT_EQ(j["power"], 3);
  Move back;
  std::string error;
  ASSERT_TRUE(MoveFromJson(j, *cards, &back, &error)) << error;
  EXPECT_TRUE(back == m);
  EXPECT_EQ(MoveToString(back, *cards), j.dump());

  Move pass;
  pass.type = "pass";
  Move pass_back;
  ASSERT_TRUE(MoveFromJson(MoveToJson(pass, *cards), *cards, &pass_back, &error)) << error;
  EXPECT_TRUE(pass_back == pass);
  EXPECT_EQ(pass_back.card, kNoCard);
  EXPECT_FALSE(pass_back.has_cell);
}

TEST(State, MoveFromJsonRefusesUnknownCardsAndBadShapes) {
  auto cards = Cards();
  Move out;
  out.type = "untouched";
  std::string error;
  EXPECT_FALSE(MoveFromJson(Json{{"type", "place"}, {"card", "dragon"}}, *cards, &out, &error));
  EXPECT_NE(error.find("unknown card 'dragon'"), std::string::npos) << error;
  EXPECT_EQ(out.type, "untouched");  // output untouched on failure
  EXPECT_FALSE(MoveFromJson(Json::array({1, 2}), *cards, &out, &error));
  EXPECT_NE(error.find("object"), std::string::npos) << error;
  EXPECT_FALSE(MoveFromJson(Json{{"card", "lion"}}, *cards, &out, &error));
  EXPECT_NE(error.find("type"), std::string::npos) << error;
  EXPECT_FALSE(MoveFromJson(Json{{"type", 3}}, *cards, &out, &error));
  EXPECT_FALSE(MoveFromJson(Json{{"type", "place"}, {"cell", {1}}}, *cards, &out, &error));
  EXPECT_NE(error.find("cell"), std::string::npos) << error;
  EXPECT_FALSE(MoveFromJson(Json{{"type", "place"}, {"cell", {"a", 1}}}, *cards, &out, &error));
  EXPECT_FALSE(MoveFromJson(Json{{"type", "slide"}, {"to", {1, 2, 3}}}, *cards, &out, &error));
  EXPECT_NE(error.find("to"), std::string::npos) << error;
}

TEST(State, FromJsonRefusesCorruptInputWithAMessage) {
  auto cards = Cards();
  const Json good = RichState(cards).ToJson();
  std::vector<std::pair<std::string, Json>> cases;
  cases.push_back({"null", Json()});
  cases.push_back({"array", Json::array({1, 2})});
  cases.push_back({"string", "state"});
  {
    Json j = good;
    j.erase("zones");
    cases.push_back({"missing zones", j});
  }
  {
    Json j = good;
    j["format"] = 2;
    cases.push_back({"future format", j});
  }
  {
    Json j = good;
    j["rng"] = "not-hex";
    cases.push_back({"bad rng", j});
  }
  {
    Json j = good;
    j["seed"] = "many";
    cases.push_back({"seed as text", j});
  }
  {
    Json j = good;
    j["zones"][0]["cards"][0] = "dragon";
    cases.push_back({"unknown card in a zone", j});
  }
  {
    Json j = good;
    j["zones"][0]["cards"][0] = 7;
    cases.push_back({"card as number", j});
  }
  {
    Json j = good;
    j["zones"][0]["visibility"] = "sometimes";
    cases.push_back({"bad visibility", j});
  }
  {
    Json j = good;
    j["grids"][0]["cells"][0] = Json::array({0, 0});
    cases.push_back({"short cell", j});
  }
  {
    Json j = good;
    j["grids"][0]["cells"][1] = Json::array({-1, 0, "lion", 0});
    cases.push_back({"cell without face-down flag", j});
  }
  {
    Json j = good;
    j["grids"][0]["cells"].push_back(Json::array({2'000'000'000, 0, "lion"}));
    cases.push_back({"a cell two billion rows away", j});
  }
  {
    Json j = good;
    j["grids"][0]["cells"][0][2] = "unicorn";
    cases.push_back({"unknown card in a grid", j});
  }
  {
    Json j = good;
    j["counters"]["water"].erase("max");
    cases.push_back({"counter without max", j});
  }
  {
    Json j = good;
    j["tracks"]["time"]["length"] = "long";
    cases.push_back({"track length as text", j});
  }
  {
    Json j = good;
    j["features"]["safari"]["parent"] = Json::array({0});
    cases.push_back({"feature arrays of different lengths", j});
  }
  {
    Json j = good;
    j["features"]["safari"]["occupants"][0] = Json{{"x", 1}};
    cases.push_back({"occupant owner not a number", j});
  }
  {
    Json j = good;
    j["flow"]["pending"][0]["card"] = "griffin";
    cases.push_back({"unknown card in a pending move", j});
  }
  {
    Json j = good;
    j["flow"]["to_move"] = "everyone";
    cases.push_back({"to_move not a list", j});
  }
  {
    Json j = good;
    j["log"][0] = 5;
    cases.push_back({"log entry not an object", j});
  }
  for (const auto& [what, j] : cases) {
    State out;
    out.game_id = "untouched";
    std::string error;
    EXPECT_FALSE(State::FromJson(j, cards, &out, &error)) << what;
    EXPECT_FALSE(error.empty()) << what;
    EXPECT_EQ(out.game_id, "untouched") << what;
  }
}

TEST(State, ComponentLookupByNameAndOwner) {
  auto cards = Cards();
  State s = RichState(cards);
  EXPECT_NE(s.FindZone("hand", 0), nullptr);
  EXPECT_EQ(s.FindZone("hand", 2), nullptr);
  EXPECT_EQ(s.ZoneIndex("pile", 2), 3);
  EXPECT_EQ(s.AddZone("deck", -1, Visibility::kPublic), s.FindZone("deck", -1));  // existing zone
  EXPECT_EQ(State::Key("grid", 1), "grid:2");
  EXPECT_EQ(State::Key("board", -1), "board");
  EXPECT_EQ(s.GridIndex("board"), 2);
  EXPECT_EQ(s.FindGrid("nope"), nullptr);
  EXPECT_EQ(s.SeatIndex("neutral"), 2);
  EXPECT_EQ(s.SeatIndex("Bo"), 1);
  EXPECT_EQ(s.SeatIndex("opponent"), -1);
  const auto& ix = s.index();
  EXPECT_EQ(ix.hand, (std::vector<int>{1, 2, -1}));
  EXPECT_EQ(ix.pile, (std::vector<int>{-1, -1, 3}));
  EXPECT_EQ(ix.grid, (std::vector<int>{0, 1, -1}));
  EXPECT_EQ(ix.deck, 0);
  EXPECT_EQ(ix.discard, -1);
}

TEST(StateUndo, SlotsThenWholeKeysRestoreTheDataExactly) {
  State s;
  s.data = Json{{"t", {1, 2, 3}}, {"u", {{"x", 1}}}, {"v", 0}};
  const Json before = s.data;
  StateUndo undo;
  undo.Begin(s);
  Json* t0 = &s.data["t"][0];
  undo.SaveDataSlot(s, "t", t0);
  *t0 = 10;
  undo.SaveDataSlot(s, "t", t0);  // the same slot twice
  *t0 = 11;
  undo.SaveDataSlot(s, "v", &s.data["v"]);
  s.data["v"] = 5;
  undo.SaveDataKey(s, "t");  // a change of shape: the slot of t becomes part of the copy
  s.data["t"].push_back(4);
  undo.SaveDataSlot(s, "t", &s.data["t"][1]);  // already copied whole: nothing more to keep
  s.data["t"][1] = 20;
  undo.SaveDataSlot(s, "u", &s.data["u"]["x"]);
  s.data["u"]["x"] = 2;
  undo.Restore(&s);
  EXPECT_EQ(s.data, before);

  // A number written again and again: past StateUndo::kMaxSlots the key is kept whole.
  undo.Begin(s);
  for (int i = 0; i < 1000; ++i) {
    undo.SaveDataSlot(s, "v", &s.data["v"]);
    s.data["v"] = i;
  }
  undo.SaveDataSlot(s, "t", &s.data["t"][2]);
  s.data["t"][2] = 30;
  undo.Restore(&s);
  EXPECT_EQ(s.data, before);

  // Folding every slot into whole keys, then replacing the whole tree (as a nested trial on a
  // copy does), still restores the data as it was.
  undo.Begin(s);
  undo.SaveDataSlot(s, "v", &s.data["v"]);
  s.data["v"] = 8;
  undo.SaveDataSlot(s, "u", &s.data["u"]["x"]);
  s.data["u"]["x"] = 9;
  undo.FoldAllSlots(s);
  s.data = Json(s.data);  // every node moves
  undo.Restore(&s);
  EXPECT_EQ(s.data, before);

  // A copy of all the data taken after slots were written is the data as it was at Begin.
  undo.Begin(s);
  undo.SaveDataSlot(s, "v", &s.data["v"]);
  s.data["v"] = 9;
  undo.SaveAllData(s);
  s.data = Json{{"other", true}};
  undo.Restore(&s);
  EXPECT_EQ(s.data, before);
}

TEST(State, CopiesGetAFreshIdentity) {
  State a;
  a.Touch();
  State b = a;
  EXPECT_NE(a.identity.uid, b.identity.uid);
  State c;
  c = a;
  EXPECT_NE(c.identity.uid, a.identity.uid);
  EXPECT_EQ(c.identity.generation, 0u);
}

}  // namespace
}  // namespace plateau
