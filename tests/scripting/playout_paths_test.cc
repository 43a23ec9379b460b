// The two short paths random games and bots' trials take through the rules (issue 29), held to
// the long ones they replace:
//  - RandomMove converts only the move it draws from `legal_moves` (not the whole list) and
//    lets Apply take that very move without listing again; it must draw exactly the move the
//    listed path draws, and any other move is still checked against the list.
//  - A trial on a tile map is taken back by the map's journal (what the move changed), not by a
//    copy of every map; the state after the undo must be the state before it, hash, maps and
//    versions, in nested trials too.
// Both on every decision of random games of the shipped games that list their moves in Lua.
#include <gtest/gtest.h>

#include "host/bots.h"
#include "scripting/lua_rules.h"

namespace plateau {
namespace {

using scripting::LuaRules;

std::unique_ptr<LuaRules> LoadGame(const std::string& id, Json* params) {
  std::unique_ptr<LuaRules> rules;
  EXPECT_TRUE(LuaRules::Load(id, {}, &rules).ok()) << id;
  if (rules) {
    EXPECT_TRUE(ResolveParams(rules->info(), Json::object(), params).ok());
  }
  return rules;
}

class PlayoutPaths : public ::testing::TestWithParam<std::string> {};

TEST_P(PlayoutPaths, ARandomMoveIsTheMoveDrawnFromTheWholeListAndOnlyItSkipsTheCheck) {
  Json params;
  auto rules = LoadGame(GetParam(), &params);
  ASSERT_TRUE(rules);
  int decisions = 0;
  for (int players : {2, 4}) {
    State s;
    ASSERT_TRUE(rules->NewGame(params, players, 40 + static_cast<uint64_t>(players), &s).ok());
    Rng bot(7);
    std::vector<int> seats;
    std::vector<Move> listed;
    for (int k = 0; k < 300; ++k) {
      ASSERT_TRUE(rules->ToMove(s, &seats).ok());
      if (seats.empty()) break;
      const int seat = seats.front();
      // The short path on a state whose list nobody asked for yet...
      State fresh = s;
      Rng a = bot;
      Move quick;
      int count = 0;
      ASSERT_TRUE(rules->RandomMove(fresh, seat, &a, &quick, &count).ok());
      // ...draws what the same draw on the whole list gives.
      ASSERT_TRUE(rules->LegalMoves(s, seat, &listed).ok());
      ASSERT_EQ(count, static_cast<int>(listed.size())) << GetParam() << " decision " << k;
      Rng b = bot;
      ASSERT_EQ(quick, listed[b.Below(static_cast<uint32_t>(listed.size()))]) << GetParam() << " decision " << k;
      // A move that is not legal is refused on that state all the same, though RandomMove just
      // vouched for another.
      Move bogus = quick;
      bogus.type = "no-such-move";
      EXPECT_EQ(rules->Apply(&fresh, seat, bogus).kind, ErrorKind::kIllegal);
      ASSERT_TRUE(rules->Apply(&fresh, seat, quick).ok());
      ASSERT_TRUE(rules->Apply(&s, seat, quick).ok());
      ASSERT_EQ(fresh.Hash(), s.Hash());
      bot = a;
      ++decisions;
    }
  }
  EXPECT_GT(decisions, 100);
}

TEST_P(PlayoutPaths, EveryTrialUndoneLeavesTheStateAsItWasNestedToo) {
  Json params;
  auto rules = LoadGame(GetParam(), &params);
  ASSERT_TRUE(rules);
  State s;
  ASSERT_TRUE(rules->NewGame(params, 3, 19, &s).ok());
  Rng bot(3);
  std::vector<int> seats;
  std::vector<Move> moves, inner;
  int trials = 0;
  auto maps_of = [](const State& st) {
    std::vector<std::pair<Json, uint64_t>> out;
    for (const auto& [name, m] : st.tile_maps) out.emplace_back(m.ToJson(), m.version());
    return out;
  };
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(rules->ToMove(s, &seats).ok());
    if (seats.empty()) break;
    const int seat = seats.front();
    ASSERT_TRUE(rules->LegalMoves(s, seat, &moves).ok());
    const std::string hash = s.Hash();
    const auto maps = maps_of(s);
    // Every third decision, a sample of its moves, each with a trial of the next decision's
    // first moves inside it.
    for (size_t i = 0; k % 3 == 0 && i < moves.size(); i += 1 + moves.size() / 6) {
      if (!rules->TryMove(&s, seat, moves[i]).ok()) continue;
      std::vector<int> next;
      ASSERT_TRUE(rules->ToMove(s, &next).ok());
      if (!next.empty()) {
        ASSERT_TRUE(rules->LegalMoves(s, next.front(), &inner).ok());
        const std::string inner_hash = s.Hash();
        for (size_t j = 0; j < inner.size() && j < 3; ++j) {
          if (!rules->TryMove(&s, next.front(), inner[j]).ok()) continue;
          rules->UndoTrial(&s);
          ASSERT_EQ(s.Hash(), inner_hash) << GetParam() << " decision " << k;
        }
      }
      rules->UndoTrial(&s);
      ASSERT_EQ(s.Hash(), hash) << GetParam() << " decision " << k << ", move " << i;
      ASSERT_EQ(maps_of(s), maps) << GetParam() << " decision " << k << ", move " << i;
      ++trials;
    }
    Move m;
    ASSERT_TRUE(rules->RandomMove(s, seat, &bot, &m).ok());
    ASSERT_TRUE(rules->Apply(&s, seat, m).ok());
  }
  EXPECT_GT(trials, 50);
}

INSTANTIATE_TEST_SUITE_P(ShippedGames, PlayoutPaths, ::testing::Values("safari", "fauna", "chenilles"));

}  // namespace
}  // namespace plateau
