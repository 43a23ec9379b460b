// Replay: a game is its parameters, player count, seed and the moves in its log. Replaying
// those through the rules rebuilds the state exactly (all randomness comes from the state's
// RNG), which is how saves are checked and how a rule failure is reproduced.
#pragma once

#include <string>
#include <vector>

#include "host/game.h"

namespace plateau {

struct LoggedMove {
  int seat;
  Move move;
};

// The moves of a state's log, in order.
Status MovesOfLog(const State& state, std::vector<LoggedMove>* out);
// Starts a new game with the state's parameters, players and seed, and applies `moves`.
// `hashes`, when given, receives the state hash after each move.
Status Replay(Rules& rules, const State& original, const std::vector<LoggedMove>& moves, State* out,
              std::vector<std::string>* hashes = nullptr);

// Checks a loaded save against the rules before anyone plays on from it: its player count
// and parameters against the manifest, then, when `rebuild` is set (the save says these very
// rules played it, and no hot reload happened during the game), that its seed and moves
// rebuild exactly the saved table. A save edited by hand fails here, naming what is wrong,
// instead of playing on from a state the rules could never reach.
Status CheckSave(Rules& rules, const State& saved, bool rebuild);

}  // namespace plateau
