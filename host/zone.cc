// Deck and hand operations (see zone.h).
#include "host/zone.h"

#include <algorithm>

namespace plateau {

const char* VisibilityName(Visibility v) {
  switch (v) {
    case Visibility::kHidden: return "hidden";
    case Visibility::kOwner: return "owner";
    case Visibility::kPublic: return "public";
  }
  return "hidden";
}

bool ParseVisibility(const std::string& s, Visibility* out) {
  if (s == "hidden") *out = Visibility::kHidden;
  else if (s == "owner") *out = Visibility::kOwner;
  else if (s == "public") *out = Visibility::kPublic;
  else return false;
  return true;
}

void Shuffle(Zone* zone, Rng* rng) {
  auto& c = zone->cards;
  for (size_t i = c.size(); i > 1; --i) {
    const size_t j = rng->Below(static_cast<uint32_t>(i));
    std::swap(c[i - 1], c[j]);
  }
}

int Draw(Zone* from, Zone* to, int n) {
  int drawn = 0;
  while (drawn < n && !from->cards.empty()) {
    to->cards.push_back(from->cards.back());
    from->cards.pop_back();
    ++drawn;
  }
  return drawn;
}

bool Deal(Zone* deck, const std::vector<Zone*>& hands, int n) {
  for (int k = 0; k < n; ++k)
    for (Zone* h : hands)
      if (Draw(deck, h, 1) != 1) return false;
  return true;
}

void Reshuffle(Zone* discard, Zone* deck, Rng* rng) {
  deck->cards.insert(deck->cards.end(), discard->cards.begin(), discard->cards.end());
  discard->cards.clear();
  Shuffle(deck, rng);
}

void PassHands(const std::vector<Zone*>& hands, bool to_left) {
  const size_t n = hands.size();
  if (n < 2) return;
  if (to_left) {
    std::vector<CardId> last = std::move(hands[n - 1]->cards);
    for (size_t i = n - 1; i > 0; --i) hands[i]->cards = std::move(hands[i - 1]->cards);
    hands[0]->cards = std::move(last);
  } else {
    std::vector<CardId> first = std::move(hands[0]->cards);
    for (size_t i = 0; i + 1 < n; ++i) hands[i]->cards = std::move(hands[i + 1]->cards);
    hands[n - 1]->cards = std::move(first);
  }
}

bool RemoveCard(Zone* zone, CardId card) {
  auto it = std::find(zone->cards.begin(), zone->cards.end(), card);
  if (it == zone->cards.end()) return false;
  zone->cards.erase(it);
  return true;
}

}  // namespace plateau
