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

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, CardId> ids_;
};

}  // namespace plateau
