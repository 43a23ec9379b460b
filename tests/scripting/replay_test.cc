// Save/load and replay round trips on a real game (Écosystème Savane): the state serializes
// exactly, the seed plus the move log rebuilds every intermediate state, and a game saved at
// any point continues identically after loading.
#include <gtest/gtest.h>

#include "host/bots.h"
#include "host/replay.h"
#include "scripting/lua_rules.h"

namespace plateau::scripting {
namespace {

struct Played {
  State final_state;
  std::vector<std::string> hashes;  // after each move
};

std::unique_ptr<LuaRules> LoadSavane() {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load("ecosysteme-savane", {}, &rules);
  EXPECT_TRUE(st.ok()) << st.message;
  return rules;
}

Played PlayRandom(LuaRules& rules, int players, uint64_t seed) {
  Json params;
  EXPECT_TRUE(ResolveParams(rules.info(), Json::object(), &params).ok());
  Played p;
  State s;
  EXPECT_TRUE(rules.NewGame(params, players, seed, &s).ok());
  Rng bot(seed * 7 + 1);
  std::vector<int> seats;
  for (;;) {
    EXPECT_TRUE(rules.ToMove(s, &seats).ok());
    if (seats.empty()) break;
    Move m;
    EXPECT_TRUE(rules.RandomMove(s, seats.front(), &bot, &m).ok());
    Status st = rules.Apply(&s, seats.front(), m);
    EXPECT_TRUE(st.ok()) << st.message;
    p.hashes.push_back(s.Hash());
  }
  p.final_state = s;
  return p;
}

TEST(SaveLoad, FinishedGameSerializesToJsonAndBackExactly) {
  auto rules = LoadSavane();
  Played p = PlayRandom(*rules, 4, 21);
  const Json saved = p.final_state.ToJson();
  State loaded;
  std::string error;
  ASSERT_TRUE(State::FromJson(saved, rules->files().cards, &loaded, &error)) << error;
  EXPECT_EQ(loaded.ToJson(), saved);
  EXPECT_EQ(loaded.Hash(), p.final_state.Hash());
  // Text round trip too, as a save file would be.
  State reparsed;
  ASSERT_TRUE(State::FromJson(Json::parse(saved.dump()), rules->files().cards, &reparsed, &error)) << error;
  EXPECT_EQ(reparsed.Hash(), p.final_state.Hash());
}

TEST(Replay, SeedAndMoveLogRebuildEveryIntermediateState) {
  auto rules = LoadSavane();
  for (uint64_t seed : {3u, 8u}) {
    for (int players : {1, 2, 4}) {
      Played p = PlayRandom(*rules, players, seed);
      std::vector<LoggedMove> moves;
      ASSERT_TRUE(MovesOfLog(p.final_state, &moves).ok());
      ASSERT_EQ(moves.size(), p.hashes.size());
      State replayed;
      std::vector<std::string> hashes;
      Status st = Replay(*rules, p.final_state, moves, &replayed, &hashes);
      ASSERT_TRUE(st.ok()) << st.message;
      EXPECT_EQ(hashes, p.hashes) << "players " << players << " seed " << seed;
      EXPECT_EQ(replayed.Hash(), p.final_state.Hash());
    }
  }
}

TEST(SaveLoad, GameSavedAtPowersOfTwoContinuesIdentically) {
  auto rules = LoadSavane();
  Played p = PlayRandom(*rules, 3, 5);
  std::vector<LoggedMove> moves;
  ASSERT_TRUE(MovesOfLog(p.final_state, &moves).ok());
  for (size_t k = 1; k < moves.size(); k *= 2) {
    State partial;
    std::vector<LoggedMove> head(moves.begin(), moves.begin() + static_cast<long>(k));
    ASSERT_TRUE(Replay(*rules, p.final_state, head, &partial).ok());
    // Save, load, and play the rest of the log on the loaded state.
    State loaded;
    std::string error;
    ASSERT_TRUE(State::FromJson(Json::parse(partial.ToJson().dump()), rules->files().cards, &loaded, &error)) << error;
    ASSERT_EQ(loaded.Hash(), partial.Hash());
    for (size_t i = k; i < moves.size(); ++i) {
      Status st = rules->Apply(&loaded, moves[i].seat, moves[i].move);
      ASSERT_TRUE(st.ok()) << "after loading at move " << k << ": " << st.message;
    }
    EXPECT_EQ(loaded.Hash(), p.final_state.Hash()) << "saved at move " << k;
  }
}

TEST(Replay, AlteredLogIsDetected) {
  auto rules = LoadSavane();
  Played p = PlayRandom(*rules, 2, 9);
  std::vector<LoggedMove> moves;
  ASSERT_TRUE(MovesOfLog(p.final_state, &moves).ok());
  moves.pop_back();
  State replayed;
  ASSERT_TRUE(Replay(*rules, p.final_state, moves, &replayed).ok());
  EXPECT_NE(replayed.Hash(), p.final_state.Hash());
}

TEST(Moves, IllegalMoveIsRefusedWithAReasonAndChangesNothing) {
  auto rules = LoadSavane();
  Json params;
  ASSERT_TRUE(ResolveParams(rules->info(), Json::object(), &params).ok());
  State s;
  ASSERT_TRUE(rules->NewGame(params, 2, 4, &s).ok());
  const std::string before = s.Hash();
  Move far;
  far.type = "place";
  far.card = s.zones[static_cast<size_t>(s.index().hand[0])].cards.front();
  far.has_cell = true;
  far.cell = {0, 0};
  ASSERT_TRUE(rules->Apply(&s, 0, far).ok());  // the first card may go anywhere
  Move again = far;
  Status st = rules->Apply(&s, 0, again);       // same seat twice in one pick
  EXPECT_EQ(st.kind, ErrorKind::kIllegal);
  EXPECT_NE(st.message.find("already chosen"), std::string::npos) << st.message;
  State copy = s;
  Move wrong;
  wrong.type = "give";
  wrong.card = far.card;
  st = rules->Apply(&s, 1, wrong);
  EXPECT_EQ(st.kind, ErrorKind::kIllegal);
  EXPECT_EQ(s.Hash(), copy.Hash());
  EXPECT_NE(s.Hash(), before);
}

}  // namespace
}  // namespace plateau::scripting
