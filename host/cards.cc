// Card name interning (see cards.h).
#include "host/cards.h"

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

}  // namespace plateau
