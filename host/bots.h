// Bots that play any game through the Rules contract: `random` (a uniformly random legal
// move) and `greedy` (one ply: the move whose resulting state the game's evaluation likes
// best, ties broken at random). Each bot has its own RNG, so bot choices never consume
// the game's random numbers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/game.h"

namespace plateau {

class Bot {
 public:
  virtual ~Bot() = default;
  virtual const char* name() const = 0;
  virtual Status Choose(Rules& rules, const State& state, int seat, Move* out) = 0;
};

// Known names: "random", "greedy". Returns null and sets *error for others.
std::unique_ptr<Bot> MakeBot(const std::string& name, uint64_t seed, std::string* error);
std::vector<std::string> BotNames();

struct PlayResult {
  ScoreTable scores;
  int moves = 0;
};

// Plays until no seat must move. bots[i] plays seat i (pseudo-seats never move).
Status PlayOut(Rules& rules, State* state, const std::vector<Bot*>& bots, PlayResult* result, int max_moves = 100000);

}  // namespace plateau
