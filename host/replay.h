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
  int log_index = -1;  // its entry in state.log, so a failure can name /log/<index>
};

// The moves of a state's log, in order.
Status MovesOfLog(const State& state, std::vector<LoggedMove>* out);
// Starts a new game with the state's parameters, players and seed, and applies `moves`.
// `hashes`, when given, receives the state hash after each move; `failed`, when given, the
// index in `moves` of the move that failed (unchanged on success).
Status Replay(Rules& rules, const State& original, const std::vector<LoggedMove>& moves, State* out,
              std::vector<std::string>* hashes = nullptr, size_t* failed = nullptr);

// Checks a loaded save against the rules before anyone plays on from it: its player count
// and parameters against the manifest, then, when `rebuild` is set (the save says these very
// rules played it, and no hot reload happened during the game), that its seed and moves
// rebuild exactly the saved table. A save edited by hand fails here, naming what is wrong,
// instead of playing on from a state the rules could never reach.
Status CheckSave(Rules& rules, const State& saved, bool rebuild);
// Whether the components a new game of the same rules, players, parameters and seed sets up
// (`fresh`) have the same settings in `saved`: seats' kinds, grid frames, tile maps' closing
// ends, tracks, counters' bounds, zones' visibility. Refused naming the JSON path otherwise.
Status CompareSetup(const State& fresh, const State& saved);

// The rules fingerprint a save records (its "rules": {"fingerprint": ...}), or "" when it has
// none or it is not a string (a save is input).
std::string SavedFingerprint(const Json& save);

// Whether CheckSave should rebuild this save: it records the fingerprint of the rules now
// loaded (`fingerprint`), and no hot reload happened during the game. A save without a
// fingerprint (a scenario test's hand-built table, from g:save()) or from other rules is
// checked for structure only.
bool SaveRebuildable(const Json& save, const State& loaded, const std::string& fingerprint);

}  // namespace plateau
