// Dice notation parsing and rolling (see dice.h).
#include "host/dice.h"

#include <cctype>

namespace plateau {

std::string DiceSpec::ToString() const {
  std::string s = (count == 1 ? "" : std::to_string(count)) + "d" + std::to_string(sides);
  if (modifier > 0) s += "+" + std::to_string(modifier);
  if (modifier < 0) s += std::to_string(modifier);
  return s;
}

std::optional<DiceSpec> ParseDice(const std::string& notation, std::string* error) {
  DiceSpec spec;
  size_t i = 0;
  auto read_int = [&](int* out) {
    size_t start = i;
    long v = 0;
    while (i < notation.size() && std::isdigit(static_cast<unsigned char>(notation[i]))) {
      v = v * 10 + (notation[i] - '0');
      if (v > 1000000) return false;
      ++i;
    }
    if (i == start) return false;
    *out = static_cast<int>(v);
    return true;
  };
  if (i < notation.size() && std::isdigit(static_cast<unsigned char>(notation[i]))) {
    if (!read_int(&spec.count)) {
      *error = "bad dice count in '" + notation + "'";
      return std::nullopt;
    }
  }
  // Each die's face is kept in the roll and the game's log: a table's worth, not millions.
  if (spec.count > 1000) {
    *error = "at most 1000 dice in one roll, got '" + notation + "'";
    return std::nullopt;
  }
  if (i >= notation.size() || (notation[i] != 'd' && notation[i] != 'D')) {
    *error = "dice notation expected (like 'd6' or '2d6'), got '" + notation + "'";
    return std::nullopt;
  }
  ++i;
  if (!read_int(&spec.sides)) {
    *error = "dice sides expected after 'd' in '" + notation + "'";
    return std::nullopt;
  }
  if (i < notation.size() && (notation[i] == '+' || notation[i] == '-')) {
    const bool neg = notation[i] == '-';
    ++i;
    if (!read_int(&spec.modifier)) {
      *error = "dice modifier expected in '" + notation + "'";
      return std::nullopt;
    }
    if (neg) spec.modifier = -spec.modifier;
  }
  if (i != notation.size()) {
    *error = "unexpected text after dice notation in '" + notation + "'";
    return std::nullopt;
  }
  if (spec.count < 1 || spec.count > 100 || spec.sides < 2 || spec.sides > 1000) {
    *error = "dice out of range in '" + notation + "' (1..100 dice of 2..1000 sides)";
    return std::nullopt;
  }
  return spec;
}

DiceRoll Dice::Roll(const DiceSpec& spec, Rng* rng) {
  DiceRoll roll;
  roll.notation = spec.ToString();
  for (auto it = forced_.begin(); it != forced_.end(); ++it) {
    if (it->notation != roll.notation) continue;
    // Spread a forced total over the faces so each face stays in range.
    int remaining = it->total - spec.modifier;
    for (int k = 0; k < spec.count; ++k) {
      const int left = spec.count - k - 1;
      int face = remaining - left;
      if (face > spec.sides) face = spec.sides;
      if (face < 1) face = 1;
      roll.faces.push_back(face);
      remaining -= face;
    }
    roll.total = it->total;
    roll.forced = true;
    forced_.erase(it);
    return roll;
  }
  int total = spec.modifier;
  for (int k = 0; k < spec.count; ++k) {
    const int face = 1 + static_cast<int>(rng->Below(static_cast<uint32_t>(spec.sides)));
    roll.faces.push_back(face);
    total += face;
  }
  roll.total = total;
  return roll;
}

bool Dice::Force(const std::string& notation, int total, std::string* error) {
  auto spec = ParseDice(notation, error);
  if (!spec) return false;
  if (total < spec->Min() || total > spec->Max()) {
    *error = "forced total " + std::to_string(total) + " is impossible for " + spec->ToString();
    return false;
  }
  forced_.push_back({spec->ToString(), total});
  return true;
}

}  // namespace plateau
