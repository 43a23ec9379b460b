// Host drafting: dealing, hidden simultaneous picks, passing, discards, neutral seat and solo opponent.
#include "host/draft.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace plateau {
namespace {

struct Fixture {
  std::shared_ptr<CardSet> cards = std::make_shared<CardSet>();
  CardId a, b, c, d, absent;
  Fixture() {
    a = cards->Intern("a");
    b = cards->Intern("b");
    c = cards->Intern("c");
    d = cards->Intern("d");
    absent = cards->Intern("zz");  // in the card set, never in the deck
  }

  // Two rounds of 3 cards dealt and 2 kept, into 2x2 grids; 24 cards in all.
  DraftConfig Multi(bool neutral = false) const {
    DraftConfig cfg;
    cfg.rounds = {{3, 2, true}, {3, 2, false}};
    cfg.rows = 2;
    cfg.cols = 2;
    cfg.deck = {{a, 6}, {b, 6}, {c, 6}, {d, 6}};
    cfg.neutral = neutral;
    return cfg;
  }

  // The Écosystème solo schedule on a 4x5 grid with exactly the 41 cards it needs.
  DraftConfig Solo() const {
    DraftConfig cfg;
    cfg.rows = 4;
    cfg.cols = 5;
    cfg.deck = {{a, 11}, {b, 10}, {c, 10}, {d, 10}};
    return cfg;
  }

  State Start(const DraftConfig& cfg, int players, uint64_t seed = 42) const {
    State s;
    s.cards = cards;
    s.seed = seed;
    s.rng.Seed(seed);
    const Status st = draft::Setup(cfg, players, &s);
    EXPECT_TRUE(st.ok()) << st.message;
    return s;
  }
};

std::vector<CardId> Sorted(std::vector<CardId> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<CardId> Without(std::vector<CardId> v, CardId card) {
  auto it = std::find(v.begin(), v.end(), card);
  if (it != v.end()) v.erase(it);
  return v;
}

const std::vector<CardId>& Hand(const State& s, int seat) { return s.FindZone("hand", seat)->cards; }

std::vector<int> ToMove(const DraftConfig& cfg, const State& s) {
  std::vector<int> seats;
  draft::ToMove(cfg, s, &seats);
  return seats;
}

Move FirstLegal(const DraftConfig& cfg, const State& s, int seat) {
  std::vector<Move> moves;
  draft::LegalMoves(cfg, s, seat, &moves);
  EXPECT_FALSE(moves.empty()) << "seat " << seat << " has no legal move";
  return moves.empty() ? Move{} : moves.front();
}

// Every player commits its first legal move; returns the moves by seat and what was revealed.
std::vector<Move> PlayPick(const DraftConfig& cfg, State* s, std::vector<draft::Placement>* revealed) {
  std::vector<Move> picks(static_cast<size_t>(s->player_count));
  for (int seat : ToMove(cfg, *s)) {
    picks[static_cast<size_t>(seat)] = FirstLegal(cfg, *s, seat);
    const Status st = draft::Apply(cfg, s, seat, picks[static_cast<size_t>(seat)], revealed);
    EXPECT_TRUE(st.ok()) << st.message;
  }
  return picks;
}

// Every card of the deck is somewhere: deck, discard, hands, piles or grids.
size_t CardsOnTable(const State& s) {
  size_t n = 0;
  for (const Zone& z : s.zones) n += z.cards.size();
  for (const auto& [key, g] : s.grids) n += static_cast<size_t>(g.count());
  return n;
}

void ExpectIllegal(const DraftConfig& cfg, State* s, int seat, const Move& m, const std::string& fragment) {
  const std::string hash = s->Hash();
  const Json before = s->ToJson();
  std::vector<draft::Placement> revealed;
  const Status st = draft::Apply(cfg, s, seat, m, &revealed);
  EXPECT_EQ(st.kind, ErrorKind::kIllegal) << fragment;
  EXPECT_NE(st.message.find(fragment), std::string::npos) << "message: " << st.message;
  EXPECT_EQ(s->Hash(), hash) << fragment;
  EXPECT_EQ(s->ToJson(), before) << fragment;
  EXPECT_TRUE(revealed.empty());
}

TEST(Draft, SetupDealsEachHandAndCreatesEmptyGrids) {
  Fixture f;
  const DraftConfig cfg = f.Multi();
  const State s = f.Start(cfg, 3);
  ASSERT_EQ(s.seats.size(), 3u);
  EXPECT_EQ(s.player_count, 3);
  for (int seat = 0; seat < 3; ++seat) {
    EXPECT_EQ(s.seats[static_cast<size_t>(seat)].kind, "player");
    EXPECT_EQ(Hand(s, seat).size(), 3u);
    const Grid* g = s.FindGrid(draft::GridKey(seat));
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->count(), 0);
    EXPECT_EQ(g->rules(), (GridRules{2, 2, true}));
  }
  EXPECT_EQ(s.FindZone("deck", -1)->cards.size(), 24u - 9u);
  EXPECT_TRUE(s.FindZone("discard", -1)->cards.empty());
  EXPECT_TRUE(draft::Active(s));
  EXPECT_EQ(ToMove(cfg, s), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(CardsOnTable(s), 24u);
  EXPECT_EQ(draft::GridKey(0), "grid:1");
}

TEST(Draft, SetupIsDeterministicPerSeed) {
  Fixture f;
  const DraftConfig cfg = f.Multi();
  EXPECT_EQ(f.Start(cfg, 3, 7).ToJson(), f.Start(cfg, 3, 7).ToJson());
  EXPECT_NE(f.Start(cfg, 3, 7).Hash(), f.Start(cfg, 3, 8).Hash());
}

TEST(Draft, SetupRefusesADeckTooSmallAndMissingRounds) {
  Fixture f;
  DraftConfig cfg = f.Multi();
  cfg.deck = {{f.a, 17}};
  State s;
  s.cards = f.cards;
  Status st = draft::Setup(cfg, 3, &s);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("17 cards"), std::string::npos) << st.message;

  DraftConfig none = f.Multi();
  none.rounds.clear();
  State t;
  t.cards = f.cards;
  st = draft::Setup(none, 2, &t);
  EXPECT_EQ(st.kind, ErrorKind::kInput);

  DraftConfig solo = f.Solo();
  solo.deck = {{f.a, 40}};  // one short of 10 + 16 + 15
  State u;
  u.cards = f.cards;
  st = draft::Setup(solo, 1, &u);
  EXPECT_EQ(st.kind, ErrorKind::kInput);
  EXPECT_NE(st.message.find("41"), std::string::npos) << st.message;
}

TEST(Draft, FirstPickOffersEveryDistinctCardOnTheOnlyStartingCell) {
  Fixture f;
  const DraftConfig cfg = f.Multi();
  const State s = f.Start(cfg, 3);
  std::vector<Move> moves;
  draft::LegalMoves(cfg, s, 0, &moves);
  std::vector<CardId> distinct = Sorted(Hand(s, 0));
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  ASSERT_EQ(moves.size(), distinct.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    EXPECT_EQ(moves[i].type, "place");
    EXPECT_EQ(moves[i].card, distinct[i]);
    EXPECT_TRUE(moves[i].has_cell);
    EXPECT_EQ(moves[i].cell, (Coord{0, 0}));
  }
}

TEST(Draft, APickStaysHiddenUntilEveryPlayerHasCommitted) {
  Fixture f;
  const DraftConfig cfg = f.Multi();
  State s = f.Start(cfg, 3);
  std::vector<draft::Placement> revealed;
  const Move m0 = FirstLegal(cfg, s, 0);
  ASSERT_TRUE(draft::Apply(cfg, &s, 0, m0, &revealed).ok());
  EXPECT_TRUE(revealed.empty());
  EXPECT_EQ(s.FindGrid("grid:1")->count(), 0);  // not on the table yet
  EXPECT_EQ(Hand(s, 0).size(), 3u);             // nor out of the hand
  EXPECT_EQ(s.flow.committed[0], 1);
  EXPECT_EQ(ToMove(cfg, s), (std::vector<int>{1, 2}));
  std::vector<Move> none;
  draft::LegalMoves(cfg, s, 0, &none);
  EXPECT_TRUE(none.empty());
  Rng rng(1);
  Move ignored;
  EXPECT_FALSE(draft::RandomMove(cfg, s, 0, &rng, &ignored));

  const Move m1 = FirstLegal(cfg, s, 1);
  ASSERT_TRUE(draft::Apply(cfg, &s, 1, m1, &revealed).ok());
  EXPECT_TRUE(revealed.empty());
  EXPECT_EQ(s.FindGrid("grid:2")->count(), 0);
  EXPECT_EQ(ToMove(cfg, s), std::vector<int>{2});

  const Move m2 = FirstLegal(cfg, s, 2);
  ASSERT_TRUE(draft::Apply(cfg, &s, 2, m2, &revealed).ok());
  ASSERT_EQ(revealed.size(), 3u);
  const Move* picks[3] = {&m0, &m1, &m2};
  for (int seat = 0; seat < 3; ++seat) {
    EXPECT_EQ(revealed[static_cast<size_t>(seat)].seat, seat);  // placed in seat order
    EXPECT_EQ(revealed[static_cast<size_t>(seat)].card, picks[seat]->card);
    EXPECT_EQ(revealed[static_cast<size_t>(seat)].cell, (Coord{0, 0}));
    const Grid* g = s.FindGrid(draft::GridKey(seat));
    EXPECT_EQ(g->count(), 1);
    EXPECT_EQ(g->Get(0, 0)->item, picks[seat]->card);
    EXPECT_EQ(Hand(s, seat).size(), 2u);
    EXPECT_EQ(s.flow.committed[static_cast<size_t>(seat)], 0);
  }
  EXPECT_EQ(ToMove(cfg, s), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(s.move_count, 3);
}

TEST(Draft, HandsPassLeftInRoundOneAndRightInRoundTwo) {
  Fixture f;
  const DraftConfig cfg = f.Multi();
  State s = f.Start(cfg, 3);
  std::vector<draft::Placement> revealed;

  std::vector<std::vector<CardId>> before = {Hand(s, 0), Hand(s, 1), Hand(s, 2)};
  std::vector<Move> picks = PlayPick(cfg, &s, &revealed);
  for (int i = 0; i < 3; ++i)  // left: hand i goes to seat i+1
    EXPECT_EQ(Hand(s, (i + 1) % 3), Without(before[static_cast<size_t>(i)], picks[static_cast<size_t>(i)].card))
        << "hand of seat " << i;

  PlayPick(cfg, &s, &revealed);  // last pick of round one
  EXPECT_EQ(s.flow.round, 1);
  EXPECT_EQ(s.flow.step, 0);

  before = {Hand(s, 0), Hand(s, 1), Hand(s, 2)};
  picks = PlayPick(cfg, &s, &revealed);
  for (int i = 0; i < 3; ++i)  // right: hand i goes to seat i-1
    EXPECT_EQ(Hand(s, (i + 2) % 3), Without(before[static_cast<size_t>(i)], picks[static_cast<size_t>(i)].card))
        << "hand of seat " << i;
}

TEST(Draft, LeftoversAreDiscardedAtRoundEndAndTheNextRoundIsDealt) {
  Fixture f;
  const DraftConfig cfg = f.Multi();
  State s = f.Start(cfg, 3);
  std::vector<draft::Placement> revealed;
  PlayPick(cfg, &s, &revealed);
  for (int seat = 0; seat < 3; ++seat) EXPECT_EQ(Hand(s, seat).size(), 2u);
  PlayPick(cfg, &s, &revealed);
  // Each hand had one card left after its second pick: those three are discarded.
  EXPECT_EQ(s.FindZone("discard", -1)->cards.size(), 3u);
  for (int seat = 0; seat < 3; ++seat) {
    EXPECT_EQ(Hand(s, seat).size(), 3u);  // the round-two deal
    EXPECT_EQ(s.FindGrid(draft::GridKey(seat))->count(), 2);
  }
  EXPECT_EQ(s.FindZone("deck", -1)->cards.size(), 24u - 18u);
  EXPECT_EQ(CardsOnTable(s), 24u);

  PlayPick(cfg, &s, &revealed);
  PlayPick(cfg, &s, &revealed);
  EXPECT_FALSE(draft::Active(s));
  EXPECT_EQ(s.flow.phase, "draft_done");
  EXPECT_EQ(s.flow.round, 1) << "a finished draft stays in its last round (round 2 of 2)";
  EXPECT_TRUE(ToMove(cfg, s).empty());
  EXPECT_EQ(s.FindZone("discard", -1)->cards.size(), 6u);
  for (int seat = 0; seat < 3; ++seat) {
    EXPECT_TRUE(Hand(s, seat).empty());
    EXPECT_TRUE(s.FindGrid(draft::GridKey(seat))->Full());
  }
  EXPECT_EQ(CardsOnTable(s), 24u);
  std::vector<Move> moves;
  draft::LegalMoves(cfg, s, 0, &moves);
  EXPECT_TRUE(moves.empty());
  ExpectIllegal(cfg, &s, 0, Move{"place", f.a, true, false, {0, 0}, {}, nullptr}, "over");
}

TEST(Draft, TwoPlayerNeutralHandRotatesAndPilesOneRandomCardPerPick) {
  Fixture f;
  const DraftConfig cfg = f.Multi(/*neutral=*/true);
  State s = f.Start(cfg, 2);
  ASSERT_EQ(s.seats.size(), 3u);
  EXPECT_EQ(s.seats[2].kind, "neutral");
  EXPECT_EQ(s.seats[2].name, "neutral");
  EXPECT_EQ(s.player_count, 2);
  EXPECT_EQ(Hand(s, 2).size(), 3u);
  EXPECT_EQ(s.FindZone("hand", 2)->visibility, Visibility::kHidden);
  ASSERT_NE(s.FindZone("pile", 2), nullptr);
  EXPECT_TRUE(s.FindZone("pile", 2)->cards.empty());
  EXPECT_EQ(s.FindGrid(draft::GridKey(2)), nullptr);  // the neutral seat has no grid
  EXPECT_EQ(ToMove(cfg, s), (std::vector<int>{0, 1}));
  EXPECT_EQ(s.FindZone("deck", -1)->cards.size(), 24u - 9u);
  std::vector<Move> moves;
  draft::LegalMoves(cfg, s, 2, &moves);
  EXPECT_TRUE(moves.empty());
  ExpectIllegal(cfg, &s, 2, Move{"place", Hand(s, 2)[0], true, false, {0, 0}, {}, nullptr}, "does not draft");

  std::vector<draft::Placement> revealed;
  std::vector<std::vector<CardId>> before = {Hand(s, 0), Hand(s, 1), Hand(s, 2)};
  const std::vector<Move> picks = PlayPick(cfg, &s, &revealed);
  const Zone* pile = s.FindZone("pile", 2);
  ASSERT_EQ(pile->cards.size(), 1u);
  const CardId neutral_card = pile->cards[0];
  ASSERT_NE(std::find(before[2].begin(), before[2].end(), neutral_card), before[2].end());
  // Passing left round the three hands: P1 -> P2 -> neutral -> P1.
  EXPECT_EQ(Hand(s, 1), Without(before[0], picks[0].card));
  EXPECT_EQ(Hand(s, 2), Without(before[1], picks[1].card));
  EXPECT_EQ(Sorted(Hand(s, 0)), Sorted(Without(before[2], neutral_card)));
  EXPECT_EQ(CardsOnTable(s), 24u);

  PlayPick(cfg, &s, &revealed);  // end of round one
  EXPECT_EQ(s.FindZone("pile", 2)->cards.size(), 2u);
  EXPECT_EQ(s.FindZone("discard", -1)->cards.size(), 3u);  // the neutral leftover too
  EXPECT_EQ(Hand(s, 2).size(), 3u);                        // dealt again
  int neutral_logs = 0;
  for (const auto& e : s.log) neutral_logs += e.kind == "neutral_pick" && e.seat == 2;
  EXPECT_EQ(neutral_logs, 2);

  // Round two passes right: neutral -> P2.
  before = {Hand(s, 0), Hand(s, 1), Hand(s, 2)};
  const std::vector<Move> picks2 = PlayPick(cfg, &s, &revealed);
  const CardId neutral_card2 = s.FindZone("pile", 2)->cards.back();
  EXPECT_EQ(Sorted(Hand(s, 1)), Sorted(Without(before[2], neutral_card2)));
  EXPECT_EQ(Hand(s, 0), Without(before[1], picks2[1].card));
  EXPECT_EQ(Hand(s, 2), Without(before[0], picks2[0].card));

  PlayPick(cfg, &s, &revealed);
  EXPECT_FALSE(draft::Active(s));
  EXPECT_EQ(s.FindZone("pile", 2)->cards.size(), 4u);
  EXPECT_EQ(CardsOnTable(s), 24u);
}

TEST(Draft, NoNeutralSeatWithoutTheOptionOrWithMoreThanTwoPlayers) {
  Fixture f;
  EXPECT_EQ(f.Start(f.Multi(false), 2).seats.size(), 2u);
  EXPECT_EQ(f.Start(f.Multi(true), 3).seats.size(), 3u);
  EXPECT_EQ(f.Start(f.Multi(true), 3).SeatIndex("neutral"), -1);
}

TEST(Draft, SoloOpponentFillsItsGridInReadingOrderWithTheDrawSchedule) {
  Fixture f;
  const DraftConfig cfg = f.Solo();
  State s = f.Start(cfg, 1);
  ASSERT_EQ(s.seats.size(), 2u);
  EXPECT_EQ(s.seats[1].kind, "opponent");
  const int opp = s.SeatIndex("opponent");
  ASSERT_EQ(opp, 1);
  EXPECT_EQ(s.FindZone("hand", opp), nullptr);
  EXPECT_EQ(Hand(s, 0).size(), 10u);
  EXPECT_EQ(s.FindZone("deck", -1)->cards.size(), 31u);

  size_t expected_hand = 10;
  int drawn_single = 0, drawn_on_row = 0;
  for (int turn = 0; turn < 20; ++turn) {
    ASSERT_EQ(ToMove(cfg, s), std::vector<int>{0}) << "turn " << turn;
    ASSERT_EQ(Hand(s, 0).size(), expected_hand) << "turn " << turn;
    std::vector<Move> moves;
    draft::LegalMoves(cfg, s, 0, &moves);
    ASSERT_FALSE(moves.empty());
    for (const Move& m : moves) ASSERT_EQ(m.type, "place");

    std::vector<draft::Placement> revealed;
    const Move place = moves[moves.size() / 2];
    ASSERT_TRUE(draft::Apply(cfg, &s, 0, place, &revealed).ok());
    ASSERT_EQ(revealed.size(), 1u);  // solo placements are not hidden
    EXPECT_EQ(s.FindGrid("grid:1")->Get(place.cell.row, place.cell.col)->item, place.card);

    draft::LegalMoves(cfg, s, 0, &moves);
    ASSERT_FALSE(moves.empty());
    for (const Move& m : moves) ASSERT_EQ(m.type, "give");
    const Move give = moves.back();
    revealed.clear();
    const size_t deck_before = s.FindZone("deck", -1)->cards.size();
    ASSERT_TRUE(draft::Apply(cfg, &s, 0, give, &revealed).ok());
    const Coord cell{turn / 5, turn % 5};
    ASSERT_EQ(revealed.size(), 1u);
    EXPECT_EQ(revealed[0].seat, opp);
    EXPECT_EQ(revealed[0].cell, cell);
    const Cell* got = s.FindGrid(draft::GridKey(opp))->Get(cell.row, cell.col);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->item, give.card) << "turn " << turn;
    EXPECT_EQ(s.FindGrid(draft::GridKey(opp))->count(), turn + 1);

    const int drawn = static_cast<int>(deck_before - s.FindZone("deck", -1)->cards.size());
    if (turn == 19) {
      EXPECT_EQ(drawn, 0);
    } else if ((turn + 1) % 5 == 0) {
      EXPECT_EQ(drawn, 5) << "the opponent completed a row on turn " << turn;
      drawn_on_row += drawn;
    } else {
      EXPECT_EQ(drawn, 1) << "turn " << turn;
      drawn_single += drawn;
    }
    expected_hand = expected_hand - 2 + static_cast<size_t>(drawn);
  }
  EXPECT_EQ(drawn_single, 16);
  EXPECT_EQ(drawn_on_row, 15);
  EXPECT_FALSE(draft::Active(s));
  EXPECT_TRUE(ToMove(cfg, s).empty());
  EXPECT_TRUE(s.FindZone("deck", -1)->cards.empty());  // 10 + 16 + 15 = 41 cards used
  EXPECT_EQ(s.FindZone("discard", -1)->cards.size(), 1u);
  EXPECT_TRUE(Hand(s, 0).empty());
  EXPECT_TRUE(s.FindGrid("grid:1")->Full());
  const Grid* og = s.FindGrid(draft::GridKey(opp));
  EXPECT_TRUE(og->Full());
  EXPECT_EQ(og->bounds().min_row, 0);
  EXPECT_EQ(og->bounds().min_col, 0);
  EXPECT_EQ(CardsOnTable(s), 41u);
}

TEST(Draft, SoloAlternatesPlaceAndGiveAndRefusesTheOther) {
  Fixture f;
  const DraftConfig cfg = f.Solo();
  State s = f.Start(cfg, 1);
  const CardId in_hand = Hand(s, 0)[0];
  ExpectIllegal(cfg, &s, 0, Move{"give", in_hand, false, false, {}, {}, nullptr}, "'place' move is expected");
  ASSERT_TRUE(draft::Apply(cfg, &s, 0, FirstLegal(cfg, s, 0), nullptr).ok());
  EXPECT_EQ(s.flow.step, 1);
  ExpectIllegal(cfg, &s, 0, Move{"place", Hand(s, 0)[0], true, false, {0, 1}, {}, nullptr},
                "'give' move is expected");
  ExpectIllegal(cfg, &s, 0, Move{"give", f.absent, false, false, {}, {}, nullptr}, "not in the hand");
  ExpectIllegal(cfg, &s, 1, Move{"give", Hand(s, 0)[0], false, false, {}, {}, nullptr}, "does not draft");
  ASSERT_TRUE(draft::Apply(cfg, &s, 0, FirstLegal(cfg, s, 0), nullptr).ok());
  EXPECT_EQ(s.flow.step, 0);
  EXPECT_EQ(s.flow.turn, 1);
}

TEST(Draft, IllegalMovesAreRefusedWithAReasonAndChangeNothing) {
  Fixture f;
  const DraftConfig cfg = f.Multi();
  State s = f.Start(cfg, 3);
  std::vector<draft::Placement> revealed;
  PlayPick(cfg, &s, &revealed);  // every grid now holds a card at (0, 0)
  const CardId mine = Hand(s, 0)[0];

  ExpectIllegal(cfg, &s, 0, Move{"place", f.absent, true, false, {0, 1}, {}, nullptr}, "'zz' is not in the hand");
  ExpectIllegal(cfg, &s, 0, Move{"place", mine, true, false, {5, 5}, {}, nullptr}, "cannot place at [5, 5]");
  ExpectIllegal(cfg, &s, 0, Move{"place", mine, true, false, {1, 1}, {}, nullptr}, "touch");
  ExpectIllegal(cfg, &s, 0, Move{"place", mine, true, false, {0, 0}, {}, nullptr}, "occupied");
  ExpectIllegal(cfg, &s, 0, Move{"place", mine, false, false, {}, {}, nullptr}, "needs a cell");
  ExpectIllegal(cfg, &s, 0, Move{"place", kNoCard, true, false, {0, 1}, {}, nullptr}, "names no card");
  ExpectIllegal(cfg, &s, 0, Move{"give", mine, false, false, {}, {}, nullptr}, "'place' move is expected");
  ExpectIllegal(cfg, &s, 3, Move{"place", mine, true, false, {0, 1}, {}, nullptr}, "does not draft");
  ExpectIllegal(cfg, &s, -1, Move{"place", mine, true, false, {0, 1}, {}, nullptr}, "does not draft");

  ASSERT_TRUE(draft::Apply(cfg, &s, 0, Move{"place", mine, true, false, {0, 1}, {}, nullptr}, &revealed).ok());
  ExpectIllegal(cfg, &s, 0, Move{"place", Hand(s, 0)[1], true, false, {1, 0}, {}, nullptr}, "already chosen");
}

TEST(Draft, RandomMoveIsLegalAndDeterministic) {
  Fixture f;
  const DraftConfig cfg = f.Multi();
  State s = f.Start(cfg, 3);
  std::vector<draft::Placement> revealed;
  PlayPick(cfg, &s, &revealed);
  std::vector<Move> legal;
  draft::LegalMoves(cfg, s, 1, &legal);
  Rng r1(5), r2(5);
  std::vector<Move> seen;
  for (int i = 0; i < 200; ++i) {
    Move m1, m2;
    ASSERT_TRUE(draft::RandomMove(cfg, s, 1, &r1, &m1));
    ASSERT_TRUE(draft::RandomMove(cfg, s, 1, &r2, &m2));
    ASSERT_TRUE(m1 == m2);
    ASSERT_NE(std::find(legal.begin(), legal.end(), m1), legal.end());
    if (std::find(seen.begin(), seen.end(), m1) == seen.end()) seen.push_back(m1);
  }
  EXPECT_EQ(seen.size(), legal.size());  // every legal move turns up
}

TEST(Draft, RandomPlayoutsKeepEveryCardAndFillEveryGrid) {
  Fixture f;
  for (bool neutral : {false, true})
    for (int players : {2, 3, 4}) {
      if (players == 4 && neutral) continue;
      DraftConfig cfg = f.Multi(neutral);
      cfg.deck = {{f.a, 9}, {f.b, 9}, {f.c, 9}, {f.d, 9}};
      State s = f.Start(cfg, players, 100 + static_cast<uint64_t>(players));
      Rng rng(9);
      int guard = 0;
      while (draft::Active(s) && guard++ < 1000) {
        for (int seat : ToMove(cfg, s)) {
          Move m;
          ASSERT_TRUE(draft::RandomMove(cfg, s, seat, &rng, &m));
          const Status st = draft::Apply(cfg, &s, seat, m, nullptr);
          ASSERT_TRUE(st.ok()) << st.message;
        }
        ASSERT_EQ(CardsOnTable(s), 36u);
      }
      EXPECT_FALSE(draft::Active(s));
      for (int seat = 0; seat < players; ++seat) EXPECT_TRUE(s.FindGrid(draft::GridKey(seat))->Full());
    }
}

}  // namespace
}  // namespace plateau
