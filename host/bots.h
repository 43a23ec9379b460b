// Bots that play any game through the Rules contract:
//   random     a uniformly random legal move;
//   greedy     one ply: the move whose resulting state the game's evaluation likes best, ties
//              broken at random. It previews on the game's own RNG, so in games with dice it
//              sees the roll it is about to get: use it only for games without chance moves;
//   heuristic  one ply like greedy, but chance is sampled: a move whose preview draws random
//              numbers is previewed `samples` times on fresh RNG streams and judged by the mean;
//   mcts       Monte Carlo tree search (host/mcts.cc), for any game.
// Options follow the name, separated by colons: "heuristic:samples=8", "mcts:iters=400:depth=20".
// Each bot has its own RNG, so bot choices never consume the game's random numbers.
#pragma once

#include <atomic>
#include <functional>
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
  // The same, allowed to try moves on *state as long as it leaves it exactly as it found it
  // (through Rules::TryMove and UndoTrial), which saves a copy per decision. The play loop
  // calls this one.
  virtual Status ChooseIn(Rules& rules, State* state, int seat, Move* out) { return Choose(rules, *state, seat, out); }

  // A flag the caller raises to stop a decision under way (the studio's Cancel and shutdown, a
  // cancelled simulation). A bot that thinks in steps checks it between them (mcts between
  // iterations and rollout moves, greedy and heuristic between tries) and returns
  // BotStopped(). Null: never stopped. The flag must outlive the decisions it may stop.
  void set_stop(const std::atomic<bool>* stop) { stop_ = stop; }

  // What the bot saw in its last decision, for a report's dead turns: how many legal moves it
  // weighed (0: it did not list them) and whether it valued every one of them the same.
  struct Decision {
    int moves = 0;
    bool all_equal = false;
  };
  const Decision& last_decision() const { return decision_; }
  void clear_decision() { decision_ = Decision(); }

 protected:
  bool stopped() const { return stop_ && stop_->load(std::memory_order_relaxed); }
  Decision decision_;

 private:
  const std::atomic<bool>* stop_ = nullptr;
};

// What a bot returns when its stop flag was raised before it chose.
inline Status BotStopped() { return Status::Input("the bot's decision was cancelled"); }

// Bot names with their options parsed: "mcts:iters=200" gives name "mcts", options {iters: 200}.
struct BotSpec {
  std::string name;
  std::vector<std::pair<std::string, double>> options;
  double Get(const std::string& key, double fallback) const;
};
bool ParseBotSpec(const std::string& text, BotSpec* out, std::string* error);

// Known names: BotNames(). Returns null and sets *error for others and for bad options.
// With the game's info, greedy, heuristic and mcts also take the options the game declares
// for its evaluation ("bot_options" in its manifest) and pass them to Rules::EvaluateWith.
std::unique_ptr<Bot> MakeBot(const std::string& name, uint64_t seed, std::string* error, const GameInfo* game = nullptr);
std::vector<std::string> BotNames();

struct PlayResult {
  ScoreTable scores;
  int moves = 0;
  bool stopped = false;  // the round limit ended the game before its rules did
};

// The score over time of one game and what its decisions looked like (a designer's report,
// "How the game feels"): each seat's total at the end of every round and of every turn where
// several seats moved together, or after every move in a game that counts no rounds, the final
// score last.
struct ScoreTrack {
  std::vector<std::vector<int64_t>> totals;  // [sample][seat]
  bool by_round = false;                     // sampled at round ends (else after each move)
  int decisions = 0;
  int single_move = 0;  // decisions with one legal move
  int all_equal = 0;    // decisions where the bot valued every legal move the same (greedy, heuristic)
};

struct PlayLimits {
  int max_moves = 100000;  // more is an error: a game that cannot end
  // More moves without the round changing is an error too, in a game that counts rounds: a
  // question asked again and again never advances the round, so --max-rounds cannot stop it
  // (and its state may grow each time). A game that never counts rounds has max_moves only.
  int max_moves_per_round = 5000;
  int max_rounds = 0;      // 0: none. Past it the game is stopped and scored, not failed
  // Called before each move is applied (simulation statistics such as pick rates).
  std::function<void(const State&, int seat, const Move&)> before_move;
  // When set, filled as the game goes (cleared first).
  ScoreTrack* track = nullptr;
};

// Plays until no seat must move. bots[i] plays seat i (pseudo-seats never move).
Status PlayOut(Rules& rules, State* state, const std::vector<Bot*>& bots, PlayResult* result,
               const PlayLimits& limits = PlayLimits());

}  // namespace plateau
