// State::Hash streams the state's canonical text into the hash without building the JSON tree:
// it must give exactly the hash of DumpJson(ToJson() without the log), the text golden
// playthroughs, saves and replays have always been checked against. Held to it at every move of
// random games of every shipped game, and on states with unusual strings and move fields.
#include <gtest/gtest.h>

#include "host/bots.h"
#include "host/json_io.h"
#include "scripting/lua_rules.h"

namespace plateau {
namespace {

using scripting::LuaRules;

std::string HashOfText(const State& s) {
  Json j = s.ToJson();
  j.erase("log");
  TextHash h;
  h.Add(DumpJson(j));
  return h.Hex();
}

class StateHash : public ::testing::TestWithParam<std::string> {};

TEST_P(StateHash, StreamedHashIsTheHashOfTheCanonicalTextAtEveryMove) {
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load(GetParam(), {}, &rules).ok());
  Json params;
  ASSERT_TRUE(ResolveParams(rules->info(), Json::object(), &params).ok());
  for (int players = rules->info().min_players; players <= rules->info().max_players; ++players) {
    State s;
    ASSERT_TRUE(rules->NewGame(params, players, 11 + static_cast<uint64_t>(players), &s).ok());
    std::string error;
    auto bot = MakeBot("random", 5, &error);
    for (int move = 0; move < 400; ++move) {
      ASSERT_EQ(s.Hash(), HashOfText(s)) << GetParam() << ", " << players << " players, move " << move;
      std::vector<int> seats;
      ASSERT_TRUE(rules->ToMove(s, &seats).ok());
      if (seats.empty()) break;
      Move m;
      ASSERT_TRUE(bot->ChooseIn(*rules, &s, seats.front(), &m).ok());
      ASSERT_TRUE(rules->Apply(&s, seats.front(), m).ok());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ShippedGames, StateHash,
                         ::testing::Values("ecosysteme-savane", "ecosysteme-ocean", "ecosystem", "chenilles", "safari", "fauna"));

TEST(StateHashText, UnusualStringsAndMoveFieldsHashAsTheirText) {
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load("chenilles", {}, &rules).ok());
  Json params;
  ASSERT_TRUE(ResolveParams(rules->info(), Json::object(), &params).ok());
  State s;
  ASSERT_TRUE(rules->NewGame(params, 2, 3, &s).ok());
  s.data["quote\"and\\back\nslash"] = "caf\xc3\xa9 \x01 \x7f \xff";
  s.data["n"] = {1.5, -0.0, 1e300, 12345678901234567890ULL, -5};
  s.seats[0].name = "P\t1 \"x\"";
  s.counters["c\x02"] = Counter{-3, INT64_MIN, INT64_MAX, 7};
  s.tracks["t"] = Track{10, true, 3, -2};
  Move asked;
  asked.type = "pick";
  asked.args = Json{{"x", 1}, {"args", {{"y", "z"}}}};
  Move plain;
  plain.type = "go \xe2\x86\x92";
  plain.has_cell = true;
  plain.cell = {-3, 4};
  s.flow.asks.assign(s.seats.size(), {});
  s.flow.asks[0] = {asked, plain};
  s.flow.committed.assign(s.seats.size(), 0);
  s.flow.pending.assign(s.seats.size(), Move{});
  s.flow.committed[1] = 1;
  s.flow.pending[1] = asked;
  EXPECT_EQ(s.Hash(), HashOfText(s));
  s.data_overrides = Json::array({{{"path", "a.b"}, {"value", 3}}});
  EXPECT_EQ(s.Hash(), HashOfText(s));
}

}  // namespace
}  // namespace plateau
