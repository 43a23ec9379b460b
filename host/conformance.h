// Conformance checks the host runs on any game with no designer effort, over K seeded
// random games: the game ends; seats that must move always have legal moves; legal moves
// apply and illegal ones are refused without changing the state; the same seed gives the
// same moves and states; a save loaded at any point continues identically; scores are
// integers (the rules contract enforces it) and no call hits the budget. Each failure
// carries a reproducer: game, seed, move number and the command that replays it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/game.h"

namespace plateau {

struct ConformanceSpec {
  int games = 100;
  uint64_t seed = 1;
  std::vector<int> player_counts;  // empty: min, max and one in between
  int max_moves = 20000;
  int probes_per_state = 2;        // extra legal moves tried on copies at each decision
  // evaluate_moves' values tried against trials at each decision (0: all of them); the moves
  // are picked from the game's seed and the decision, so a run is repeatable.
  int evaluate_moves_trials = 8;
  // The checks stop after this many failed games: a rule that fails every game would only
  // repeat its failure (and its wait, for a budget kill) in each (--keep-going raises it).
  int max_failures = 1;
  // Games run side by side on this many threads, each on its own rules from `more_rules`
  // (RunConformance); the report is the same for any number (games are taken in seed order and
  // their failures reported in that order).
  int threads = 1;
};

struct ConformanceFailure {
  std::string check;
  std::string message;
  std::string reproducer;  // "plateau play <game> --players N --seed S --bots random" ...
};

struct ConformanceReport {
  int games = 0;
  int moves = 0;
  std::vector<ConformanceFailure> failures;
};

// `folder_arg` is how the user named the game (for reproducer commands). With spec.threads > 1,
// `more_rules` makes the rules each further thread plays on (the first plays on `rules`).
Status RunConformance(Rules& rules, const std::string& folder_arg, const ConformanceSpec& spec, ConformanceReport* out,
                      const std::function<Status(std::unique_ptr<Rules>*)>& more_rules = nullptr);

}  // namespace plateau
