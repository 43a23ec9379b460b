// Card name interning (see cards.h).
#include "host/cards.h"

#include <algorithm>
#include <cstdint>

namespace plateau {

CardId CardSet::Intern(std::string_view name) {
  auto it = ids_.find(std::string(name));
  if (it != ids_.end()) return it->second;
  const CardId id = static_cast<CardId>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(std::string(name), id);
  return id;
}

CardId CardSet::Find(std::string_view name) const {
  auto it = ids_.find(std::string(name));
  return it == ids_.end() ? kNoCard : it->second;
}

void CardSet::SetWhere(CardId id, std::string where) {
  if (id < 0) return;
  if (where_.size() <= static_cast<size_t>(id)) where_.resize(static_cast<size_t>(id) + 1);
  where_[static_cast<size_t>(id)] = std::move(where);
}

namespace {

// Optimal string alignment distance (a swap of two neighbours counts one), bounded: card ids
// are short, and a name over 64 bytes is no typo of one.
size_t Distance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

}  // namespace

std::string CardSet::Suggest(std::string_view name) const {
  if (name.size() > 64) return "";
  // One edit for short ids, two from 5 letters, three from 10: "marmot" finds "marmott". With
  // none that close, one edit more ("hair" for "hare"); with none still, every known id, so the
  // modder sees what the data calls its cards.
  const size_t limit = name.size() < 5 ? 1 : name.size() < 10 ? 2 : 3;
  std::vector<std::pair<size_t, size_t>> close;  // distance, index
  size_t best = SIZE_MAX;
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i].size() > 64) continue;
    const size_t dist = Distance(name, names_[i]);
    best = std::min(best, dist);
    if (dist <= limit + 1) close.emplace_back(dist, i);
  }
  if (names_.empty()) return "";
  if (close.empty()) {
    std::string out = " (the known card ids: ";
    for (size_t i = 0; i < names_.size() && i < 12; ++i) out += (i ? ", " : "") + names_[i];
    if (names_.size() > 12) out += ", ... (" + std::to_string(names_.size()) + " in all)";
    return out + ")";
  }
  std::stable_sort(close.begin(), close.end());
  // Only the second tier when the first is empty.
  if (best <= limit)
    close.erase(std::remove_if(close.begin(), close.end(), [&](const auto& c) { return c.first > limit; }), close.end());
  std::string out = " (did you mean ";
  for (size_t k = 0; k < close.size() && k < 3; ++k) {
    const size_t i = close[k].second;
    out += (k ? " or '" : "'") + names_[i] + "'";
    if (i < where_.size() && !where_[i].empty()) out += " (" + where_[i] + ")";
  }
  return out + "?)";
}

}  // namespace plateau
