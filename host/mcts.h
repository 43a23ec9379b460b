// The host's Monte Carlo tree search bot, for any game played through the Rules contract.
// Hidden and random information is handled by sampling (determinization): each iteration
// deals the cards the bot cannot see afresh and reseeds the game RNG, then searches an
// open-loop tree (nodes are move sequences, so chance outcomes share statistics).
#pragma once

#include <memory>

#include "host/bots.h"

namespace plateau {

struct MctsOptions {
  std::vector<std::pair<std::string, double>> game_options;  // for the game's evaluation
  int iterations = 200;     // iterations per decision (0: no limit, needs time_ms)
  double time_ms = 0;       // wall-clock budget per decision (0: none; makes runs non-repeatable)
  int rollout_depth = 40;   // random moves after the tree before judging the position
  double exploration = 0.7; // UCB1 constant on rewards in [0, 1]
};

std::unique_ptr<Bot> MakeMctsBot(const MctsOptions& options, uint64_t seed);

}  // namespace plateau
