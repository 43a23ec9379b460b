// Dice with notation ("d6", "2d6", "3d4+1"), rolled through the host RNG.
// Every roll is appended to the game's chance log; tests may queue forced results
// ("the next 2d6 is 7") which are consumed before the RNG is touched.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "host/rng.h"

namespace plateau {

struct DiceSpec {
  int count = 1;
  int sides = 6;
  int modifier = 0;
  int Min() const { return count + modifier; }
  int Max() const { return count * sides + modifier; }
  std::string ToString() const;
};

// Parses "NdS[+-M]"; N defaults to 1. Returns nullopt and fills *error on bad notation.
std::optional<DiceSpec> ParseDice(const std::string& notation, std::string* error);

struct DiceRoll {
  std::string notation;
  std::vector<int> faces;
  int total = 0;
  bool forced = false;
};

class Dice {
 public:
  // Rolls with the RNG unless a forced result for this notation is queued.
  DiceRoll Roll(const DiceSpec& spec, Rng* rng);
  // Queues a forced total for the next roll of `notation` (tests only). The total must be reachable.
  bool Force(const std::string& notation, int total, std::string* error);
  void ClearForced() { forced_.clear(); }
  bool HasForced() const { return !forced_.empty(); }

 private:
  struct Forced {
    std::string notation;
    int total;
  };
  std::deque<Forced> forced_;
};

}  // namespace plateau
