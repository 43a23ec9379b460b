// Host zones: shuffle determinism, draw, deal round the table, reshuffle, passing hands, removal.
#include "host/zone.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace plateau {
namespace {

Zone Numbered(int n, const std::string& name = "deck") {
  Zone z;
  z.name = name;
  z.cards.resize(static_cast<size_t>(n));
  std::iota(z.cards.begin(), z.cards.end(), 0);
  return z;
}

std::vector<CardId> Sorted(std::vector<CardId> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(Zone, ShuffleIsDeterministicPerSeed) {
  Zone a = Numbered(52), b = Numbered(52), c = Numbered(52);
  Rng ra(1234), rb(1234), rc(4321);
  Shuffle(&a, &ra);
  Shuffle(&b, &rb);
  Shuffle(&c, &rc);
  EXPECT_EQ(a.cards, b.cards);
  EXPECT_NE(a.cards, c.cards);
  EXPECT_NE(a.cards, Numbered(52).cards);
}

TEST(Zone, ShuffleIsAPermutation) {
  Zone z = Numbered(40);
  z.cards.push_back(3);  // duplicates survive too
  const auto before = Sorted(z.cards);
  Rng r(7);
  Shuffle(&z, &r);
  EXPECT_EQ(Sorted(z.cards), before);
}

TEST(Zone, ShuffleOfEmptyAndSingleZonesIsHarmless) {
  Zone empty, one = Numbered(1);
  Rng r(1);
  Shuffle(&empty, &r);
  Shuffle(&one, &r);
  EXPECT_TRUE(empty.cards.empty());
  EXPECT_EQ(one.cards, std::vector<CardId>{0});
}

TEST(Zone, DrawTakesFromTheTopInOrder) {
  Zone deck = Numbered(5), hand;
  EXPECT_EQ(Draw(&deck, &hand, 2), 2);
  EXPECT_EQ(hand.cards, (std::vector<CardId>{4, 3}));
  EXPECT_EQ(deck.cards, (std::vector<CardId>{0, 1, 2}));
}

TEST(Zone, DrawReturnsFewerWhenTheDeckRunsOut) {
  Zone deck = Numbered(3), hand;
  EXPECT_EQ(Draw(&deck, &hand, 10), 3);
  EXPECT_TRUE(deck.cards.empty());
  EXPECT_EQ(hand.cards.size(), 3u);
  EXPECT_EQ(Draw(&deck, &hand, 1), 0);
  EXPECT_EQ(Draw(&deck, &hand, 0), 0);
}

TEST(Zone, DealGivesOneCardAtATimeRoundTheTable) {
  Zone deck = Numbered(8), h0, h1, h2;
  ASSERT_TRUE(Deal(&deck, {&h0, &h1, &h2}, 2));
  // The top is the back: 7 to seat 0, 6 to seat 1, 5 to seat 2, then 4, 3, 2.
  EXPECT_EQ(h0.cards, (std::vector<CardId>{7, 4}));
  EXPECT_EQ(h1.cards, (std::vector<CardId>{6, 3}));
  EXPECT_EQ(h2.cards, (std::vector<CardId>{5, 2}));
  EXPECT_EQ(deck.cards, (std::vector<CardId>{0, 1}));
}

TEST(Zone, DealReturnsFalseWhenTheDeckIsShort) {
  Zone deck = Numbered(5), h0, h1;
  EXPECT_FALSE(Deal(&deck, {&h0, &h1}, 3));
  EXPECT_TRUE(deck.cards.empty());
  EXPECT_EQ(h0.cards.size() + h1.cards.size(), 5u);
}

TEST(Zone, DealOfExactlyTheDeckSucceeds) {
  Zone deck = Numbered(6), h0, h1;
  EXPECT_TRUE(Deal(&deck, {&h0, &h1}, 3));
  EXPECT_TRUE(deck.cards.empty());
  EXPECT_EQ(h0.cards.size(), 3u);
  EXPECT_EQ(h1.cards.size(), 3u);
}

TEST(Zone, ReshuffleMovesTheDiscardIntoTheDeckAndShuffles) {
  Zone deck = Numbered(3), discard;
  for (CardId c = 10; c < 30; ++c) discard.cards.push_back(c);
  std::vector<CardId> all = deck.cards;
  all.insert(all.end(), discard.cards.begin(), discard.cards.end());
  Zone deck2 = deck, discard2 = discard;
  Rng r1(77), r2(77);
  Reshuffle(&discard, &deck, &r1);
  Reshuffle(&discard2, &deck2, &r2);
  EXPECT_TRUE(discard.cards.empty());
  EXPECT_EQ(Sorted(deck.cards), Sorted(all));
  EXPECT_NE(deck.cards, all);               // shuffled
  EXPECT_EQ(deck.cards, deck2.cards);       // deterministic
}

TEST(Zone, PassLeftGivesHandIToSeatIPlusOne) {
  Zone h0, h1, h2;
  h0.cards = {1, 1};
  h1.cards = {2};
  h2.cards = {3, 3, 3};
  PassHands({&h0, &h1, &h2}, /*to_left=*/true);
  EXPECT_EQ(h1.cards, (std::vector<CardId>{1, 1}));
  EXPECT_EQ(h2.cards, (std::vector<CardId>{2}));
  EXPECT_EQ(h0.cards, (std::vector<CardId>{3, 3, 3}));
}

TEST(Zone, PassRightGivesHandIToSeatIMinusOne) {
  Zone h0, h1, h2;
  h0.cards = {1};
  h1.cards = {2};
  h2.cards = {3};
  PassHands({&h0, &h1, &h2}, /*to_left=*/false);
  EXPECT_EQ(h0.cards, std::vector<CardId>{2});
  EXPECT_EQ(h1.cards, std::vector<CardId>{3});
  EXPECT_EQ(h2.cards, std::vector<CardId>{1});
}

TEST(Zone, PassLeftThenRightRestoresEveryHand) {
  Zone h[4];
  for (int i = 0; i < 4; ++i) h[i].cards = {i, i + 10};
  std::vector<Zone*> hands = {&h[0], &h[1], &h[2], &h[3]};
  PassHands(hands, true);
  PassHands(hands, false);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(h[i].cards, (std::vector<CardId>{i, i + 10}));
}

TEST(Zone, PassWithTwoHandsSwapsAndWithOneDoesNothing) {
  Zone a, b;
  a.cards = {1};
  b.cards = {2};
  PassHands({&a, &b}, true);
  EXPECT_EQ(a.cards, std::vector<CardId>{2});
  EXPECT_EQ(b.cards, std::vector<CardId>{1});
  PassHands({&a}, true);
  EXPECT_EQ(a.cards, std::vector<CardId>{2});
}

TEST(Zone, RemoveCardTakesOnlyTheFirstCopy) {
  Zone z;
  z.cards = {5, 7, 5, 9};
  EXPECT_TRUE(RemoveCard(&z, 5));
  EXPECT_EQ(z.cards, (std::vector<CardId>{7, 5, 9}));
  EXPECT_TRUE(RemoveCard(&z, 5));
  EXPECT_EQ(z.cards, (std::vector<CardId>{7, 9}));
  EXPECT_FALSE(RemoveCard(&z, 5));
  EXPECT_EQ(z.cards, (std::vector<CardId>{7, 9}));
}

TEST(Zone, VisibilityNamesRoundTrip) {
  for (Visibility v : {Visibility::kHidden, Visibility::kOwner, Visibility::kPublic}) {
    Visibility back = Visibility::kHidden;
    ASSERT_TRUE(ParseVisibility(VisibilityName(v), &back));
    EXPECT_EQ(back, v);
  }
  Visibility out = Visibility::kOwner;
  EXPECT_FALSE(ParseVisibility("secret", &out));
  EXPECT_EQ(out, Visibility::kOwner);
}

}  // namespace
}  // namespace plateau
