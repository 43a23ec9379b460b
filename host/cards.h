// Card names interned to small integers. A game's card set is fixed when its data loads,
// so components store ids and only serialization and scripts see names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace plateau {

using CardId = int32_t;
inline constexpr CardId kNoCard = -1;

class CardSet {
 public:
  // Returns the id of `name`, adding it if new.
  CardId Intern(std::string_view name);
  // Returns kNoCard when the name is unknown.
  CardId Find(std::string_view name) const;
  const std::string& Name(CardId id) const { return names_.at(static_cast<size_t>(id)); }
  size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  // Where a card is defined ("games/x/data/cards.json /cards/4/id"), for messages.
  void SetWhere(CardId id, std::string where);
  // For a name that is not a card: " (did you mean 'marmott' (games/x/data/cards.json
  // /cards/4/id)?)" naming the closest ids (at most 3, within an edit distance that grows
  // with the name's length), or "" when none is close. A misspelt id on either side, the
  // data's or the rules', is then found from the message alone.
  std::string Suggest(std::string_view name) const;

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, CardId> ids_;
  std::vector<std::string> where_;
};

}  // namespace plateau
