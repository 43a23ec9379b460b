// The contract between the host and a game's rules. The host drives play through this
// interface only; scripting::LuaRules implements it for games written in Lua, and tests
// may implement it natively. A failed Apply leaves the state exactly as it was.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "host/state.h"

namespace plateau {

// Why something failed. kIllegal: a move was refused; kScript/kBudget/kMemory/kSandbox:
// a rule script failed; kInput: bad files, data or arguments.
enum class ErrorKind { kNone, kIllegal, kInput, kScript, kBudget, kMemory, kSandbox };
const char* ErrorKindName(ErrorKind k);

struct Status {
  ErrorKind kind = ErrorKind::kNone;
  std::string message;    // "games/<id>/<file>.lua:<line>: message" for script errors
  std::string traceback;  // script errors only
  std::string context;    // hook, move number, seed
  // Not run: a hook that already ran past the wall-clock backstop in this run is not called
  // again (plateau test reports the cases that needed it as skipped, for that reason).
  bool skipped = false;
  bool ok() const { return kind == ErrorKind::kNone; }
  static Status Ok() { return {}; }
  static Status Illegal(std::string why) { return {ErrorKind::kIllegal, std::move(why), {}, {}}; }
  static Status Input(std::string why) { return {ErrorKind::kInput, std::move(why), {}, {}}; }
  // Script, budget, memory and sandbox failures: the rules are at fault (exit code 1).
  bool script_failure() const { return kind >= ErrorKind::kScript; }
  std::string ToString() const;
};

struct ParamSpec {
  std::string name;
  std::string type;  // "integer", "number", "boolean", "string"
  Json default_value;
  Json minimum, maximum;          // null when unbounded
  std::vector<std::string> choices;  // strings only; empty: any
  std::string doc;
};

struct GameInfo {
  std::string id;
  std::string name;       // display name
  Json names;             // {"fr": ..., "en": ...}
  int min_players = 1;
  int max_players = 1;
  std::vector<ParamSpec> params;
  std::string folder;     // the game folder on disk
  std::string extends;    // id of the base game, if any
  bool abstract = false;  // a base that games extend, never played itself ("abstract": true)
  // Options the game's evaluate hook takes from a bot spec ("knowledge"), with their ranges.
  std::map<std::string, std::pair<double, double>> bot_options;
  bool has_score_bounds = false;
  int64_t score_min = 0, score_max = 0;  // every seat's final total lies in [min, max]
};

struct ScoreLine {
  int seat = -1;
  std::string name;
  int64_t total = 0;
  std::vector<std::pair<std::string, int64_t>> breakdown;  // in the rulebook's order
};

// Time spent in one of the rules' own calls (a script hook, for scripted rules), for the
// designer's profile of a simulation.
struct RulesCallStat {
  int64_t calls = 0;
  double seconds = 0;
};

struct ScoreTable {
  std::vector<ScoreLine> lines;
  Json extra = Json::object();  // game-specific results (solo targets, winners, ...)
};

class Rules {
 public:
  virtual ~Rules() = default;
  virtual const GameInfo& info() const = 0;
  // Creates the starting state. `params` are already validated against info().params.
  virtual Status NewGame(const Json& params, int players, uint64_t seed, State* out) = 0;
  // Seats that must move now; several seats move simultaneously. Empty when the game is over.
  virtual Status ToMove(const State& state, std::vector<int>* seats) = 0;
  virtual Status LegalMoves(const State& state, int seat, std::vector<Move>* out) = 0;
  // A uniformly random legal move; games with large move sets override it to avoid listing.
  // *listed, when given, is set to how many legal moves it chose among (0: not counted).
  virtual Status RandomMove(const State& state, int seat, Rng* rng, Move* out, int* listed);
  Status RandomMove(const State& state, int seat, Rng* rng, Move* out) { return RandomMove(state, seat, rng, out, nullptr); }
  // Applies a move for `seat`. Refuses illegal moves with kIllegal and a reason; on any
  // failure the state is left unchanged.
  virtual Status Apply(State* state, int seat, const Move& move) = 0;
  // The state after `seat` plays `move`, with its own effect visible at once even when the
  // move is a hidden simultaneous choice (what a one-ply bot needs to evaluate it).
  virtual Status Preview(const State& state, int seat, const Move& move, State* out);
  // Applies a move to be taken back by UndoTrial (bots weighing their options on a scratch
  // state): cheaper than Preview when the rules can undo what a move touched. Trials nest
  // and are undone last first; a failed TryMove leaves the state unchanged and needs no undo.
  // The default keeps a copy.
  virtual Status TryMove(State* state, int seat, const Move& move);
  virtual void UndoTrial(State* state);
  // One move's value for `seat` by a trial on `state` itself, put back as it was, its RNG
  // included; *chance is set when the trial drew random numbers (EvaluateMoves' base move).
  Status TryValue(State* state, int seat, const Move& move, const std::vector<std::pair<std::string, double>>& options,
                  double* value, bool* chance);
  virtual Status Score(const State& state, ScoreTable* out) = 0;
  // Each seat's total as Score gives it (0 for a seat without a line), for measures of a game
  // in progress: the score over time of a designer's report. Rules with a faster way than a
  // whole score table (a script's `totals` hook) override it.
  virtual Status CurrentTotals(const State& state, std::vector<int64_t>* out);
  // Heuristic value of the state for `seat` (greedy bots); defaults to the score margin.
  virtual Status Evaluate(const State& state, int seat, double* out);
  // The same with the options a bot spec gave for the game (greedy:knowledge=0.5), which the
  // game declares in its manifest ("bot_options"). Rules that take none ignore them.
  virtual Status EvaluateWith(const State& state, int seat, const std::vector<std::pair<std::string, double>>& options,
                              double* out) {
    (void)options;
    return Evaluate(state, seat, out);
  }
  // What the rules' own host code relies on in a state that comes from outside (a save loaded
  // from other rules: structure only): a drafting game's hands, grids and commitments for every
  // seat. Ok when there is nothing to check.
  virtual Status CheckLoaded(const State& state) {
    (void)state;
    return Status::Ok();
  }
  // The bots' measure of every candidate of one decision at once (a script's `evaluate_moves`
  // hook): (*out)[i] is exactly what EvaluateWith(state after moves[i], seat, options) gives, or
  // NaN where the rules leave that move to a trial (TryMove, then EvaluateWith). *out is left
  // empty when the rules have no such way: the bots then try every move.
  // With *base >= 0 the values are relative to moves[*base]: each is what that move adds to the
  // base move's value, which the caller finds by one trial of the base (a game knows what an
  // action changes far more easily than what the turn's end does after it). (*out)[*base] is 0.
  virtual Status EvaluateMoves(const State& state, int seat, const std::vector<Move>& moves,
                               const std::vector<std::pair<std::string, double>>& options, std::vector<double>* out,
                               int* base) {
    (void)state, (void)seat, (void)moves, (void)options;
    out->clear();
    *base = -1;
    return Status::Ok();
  }
  // Whether a move `seat` makes in `state` is a hidden simultaneous choice that other seats
  // are still to make: it is kept aside until they have chosen, so whatever the move, its trial
  // leaves the same visible state and the same value (the bots then try one move for all).
  virtual bool ChoiceIsHidden(const State& state, int seat) {
    (void)state, (void)seat;
    return false;
  }
  // Conformance: every value EvaluateMoves gives for `moves` (the seat's legal moves here) is the
  // one a trial of that move gives. With `max_trials` > 0, that many valued moves at most are
  // tried, picked by `pick` (every value is still checked for count and NaN): in a game with a
  // hundred moves a decision, trying them all at every decision of every checked game was most
  // of `plateau test`'s time. Ok when there is nothing to check.
  virtual Status CheckEvaluateMoves(const State& state, int seat, const std::vector<Move>& moves, int max_trials = 0,
                                    uint64_t pick = 0) {
    (void)state, (void)seat, (void)moves, (void)max_trials, (void)pick;
    return Status::Ok();
  }
  // Conformance: a random move drawn the rules' own way (a script's `random_move` hook) is the
  // move the legal list holds at the same draw: drawn once among exactly `moves.size()` (the
  // seat's legal moves here), with an RNG seeded by `seed`. Ok when there is nothing to check.
  virtual Status CheckRandomMove(const State& state, int seat, const std::vector<Move>& moves, uint64_t seed) {
    (void)state, (void)seat, (void)moves, (void)seed;
    return Status::Ok();
  }
  // Rules that give the bots' measure a faster way than Score (a script's `totals` hook)
  // check here that it agrees with Score's totals on this state; the conformance checks call
  // it on every state they reach. Ok when there is nothing to check.
  virtual Status CheckTotals(const State& state) {
    (void)state;
    return Status::Ok();
  }
  // Game-specific measurements of a finished game for designer reports (simulate): see
  // scripting/README.md, `stats`. Defaults to none.
  virtual Status Stats(const State& state, Json* out) {
    *out = Json::object();
    (void)state;
    return Status::Ok();
  }
  // Text lines describing the table as `seat` may see it (-1: everyone's public view).
  virtual std::string View(const State& state, int seat) = 0;
  // Counting the rules' own calls by name, with the time they take (`simulate --profile`).
  // Rules without calls of their own to count report none.
  // Whether the game counts rounds (flow.round), even while it stays in its first one: a
  // round that runs too many moves is then a loop, not a game without rounds.
  virtual bool CountsRounds() const { return false; }
  virtual void EnableCallStats(bool on) { (void)on; }
  virtual void AddCallStats(std::map<std::string, RulesCallStat>* out) const { (void)out; }

 protected:
  std::vector<State> trial_copies_;  // the default trials' saved states, last first
};

// Validates parameter values against their specs and fills defaults. Unknown names are errors.
Status ResolveParams(const GameInfo& info, const Json& given, Json* resolved);

}  // namespace plateau
