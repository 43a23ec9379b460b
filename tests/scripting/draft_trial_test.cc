// A greedy bot's trial of a draft pick runs in place on the state (the card leaves the hand and
// lands on the seat's grid) and UndoTrial puts everything back: these prove the trial shows
// what Preview shows, and that the state after UndoTrial is the state before, to the byte and
// to the placeable cells a grid derives from its bounds.
#include <gtest/gtest.h>

#include "host/bots.h"
#include "host/draft.h"
#include "scripting/lua_rules.h"

namespace plateau::scripting {
namespace {

// A 4-player Savane game `picks` rounds of random picks into its draft.
State MidDraft(LuaRules& rules, int picks, uint64_t seed) {
  Json params;
  EXPECT_TRUE(ResolveParams(rules.info(), Json::object(), &params).ok());
  State s;
  EXPECT_TRUE(rules.NewGame(params, 4, seed, &s).ok());
  Rng bot(seed + 5);
  std::vector<int> seats;
  for (int k = 0; k < picks * 4; ++k) {
    EXPECT_TRUE(rules.ToMove(s, &seats).ok());
    Move m;
    EXPECT_TRUE(rules.RandomMove(s, seats.front(), &bot, &m).ok());
    EXPECT_TRUE(rules.Apply(&s, seats.front(), m).ok());
  }
  return s;
}

std::vector<Coord> PlaceableOf(const State& s, int seat) {
  std::vector<Coord> cells;
  s.FindGrid(draft::GridKey(seat))->Placeable(&cells);
  return cells;
}

TEST(DraftTrial, EveryPickTriedInPlaceShowsThePreviewAndIsTakenBackExactly) {
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load("ecosysteme-savane", {}, &rules).ok());
  for (int picks : {0, 1, 5}) {
    State s = MidDraft(*rules, picks, 40 + static_cast<uint64_t>(picks));
    std::vector<int> seats;
    ASSERT_TRUE(rules->ToMove(s, &seats).ok());
    const int seat = seats.front();
    std::vector<Move> legal;
    ASSERT_TRUE(rules->LegalMoves(s, seat, &legal).ok());
    ASSERT_GT(legal.size(), 1u);
    const Json before = s.ToJson();
    const std::vector<Coord> placeable = PlaceableOf(s, seat);
    for (const Move& m : legal) {
      State preview;
      ASSERT_TRUE(rules->Preview(s, seat, m, &preview).ok());
      ASSERT_TRUE(rules->TryMove(&s, seat, m).ok());
      // What the bot judges is what the player would see.
      EXPECT_EQ(s.ToJson(), preview.ToJson()) << "pick #" << (&m - legal.data());
      const Cell* placed = s.FindGrid(draft::GridKey(seat))->Get(m.cell.row, m.cell.col);
      ASSERT_NE(placed, nullptr);
      EXPECT_EQ(placed->item, m.card);
      rules->UndoTrial(&s);
      ASSERT_EQ(s.ToJson(), before);
      ASSERT_EQ(PlaceableOf(s, seat), placeable);
    }
    // The moves listed after every trial are the moves listed before.
    std::vector<Move> again;
    ASSERT_TRUE(rules->LegalMoves(s, seat, &again).ok());
    EXPECT_EQ(again, legal);
  }
}

TEST(DraftTrial, AnIllegalPickIsRefusedAndChangesNothing) {
  std::unique_ptr<LuaRules> rules;
  ASSERT_TRUE(LuaRules::Load("ecosysteme-savane", {}, &rules).ok());
  State s = MidDraft(*rules, 2, 7);
  std::vector<int> seats;
  ASSERT_TRUE(rules->ToMove(s, &seats).ok());
  std::vector<Move> legal;
  ASSERT_TRUE(rules->LegalMoves(s, seats.front(), &legal).ok());
  const Json before = s.ToJson();
  Move far = legal.front();
  far.cell = {40, 40};  // next to no card
  Status st = rules->TryMove(&s, seats.front(), far);
  EXPECT_EQ(st.kind, ErrorKind::kIllegal) << st.ToString();
  EXPECT_EQ(s.ToJson(), before);
  // UndoTrial with no trial open leaves the state alone.
  rules->UndoTrial(&s);
  EXPECT_EQ(s.ToJson(), before);
}

}  // namespace
}  // namespace plateau::scripting
