// Zones hold ordered cards: decks, discard piles, hands, a neutral player's pile.
// Deck operations (shuffle, draw, deal, reshuffle a discard pile, pass hands) live here
// as plain functions over zones so every game uses the same, logged-by-the-caller rules.
#pragma once

#include <string>
#include <vector>

#include "host/cards.h"
#include "host/rng.h"

namespace plateau {

enum class Visibility { kHidden, kOwner, kPublic };
const char* VisibilityName(Visibility v);
bool ParseVisibility(const std::string& s, Visibility* out);

struct Zone {
  std::string name;
  int owner = -1;  // seat index, or -1 when shared
  Visibility visibility = Visibility::kHidden;
  std::vector<CardId> cards;  // back() is the top of a deck

  bool operator==(const Zone&) const = default;
};

void Shuffle(Zone* zone, Rng* rng);
// Draws up to n cards from the top; returns how many were drawn.
int Draw(Zone* from, Zone* to, int n);
// Deals n cards to each hand in turn, one at a time as at a table. Returns false if short.
bool Deal(Zone* deck, const std::vector<Zone*>& hands, int n);
// Moves every card of `discard` into `deck` and shuffles it.
void Reshuffle(Zone* discard, Zone* deck, Rng* rng);
// Passes hand contents: to the left, hand i goes to seat i+1; to the right, to seat i-1.
void PassHands(const std::vector<Zone*>& hands, bool to_left);
// Removes the first copy of `card`; returns false when absent.
bool RemoveCard(Zone* zone, CardId card);

}  // namespace plateau
