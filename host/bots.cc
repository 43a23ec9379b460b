// Random, greedy and heuristic bots, bot names with options, and the bot play loop (see bots.h).
#include "host/bots.h"

#include <cmath>

#include <cstdio>
#include <cstdlib>

#include "host/mcts.h"

namespace plateau {
namespace {

class RandomBot : public Bot {
 public:
  explicit RandomBot(uint64_t seed) : rng_(seed) {}
  const char* name() const override { return "random"; }
  Status Choose(Rules& rules, const State& state, int seat, Move* out) override {
    int listed = 0;
    Status st = rules.RandomMove(state, seat, &rng_, out, &listed);
    decision_.moves = listed;  // the play loop's count of choices, without listing them again
    return st;
  }

 private:
  Rng rng_;
};

// One ply on the game's evaluation: each legal move is tried, judged, and taken back; ties
// are broken at random. `greedy` tries each move once on the game's own RNG, so it foresees
// the roll a move is about to get. `heuristic` reseeds the RNG from the bot's own stream
// before each try and averages `samples` tries of a move that drew random numbers (one try
// of a move that drew none is exact). In the play loop the tries run on the game's state
// itself, which the journal puts back exactly; elsewhere on a copy.
class OnePlyBot : public Bot {
 public:
  OnePlyBot(uint64_t seed, int samples, bool sample_chance, std::vector<std::pair<std::string, double>> game_options)
      : rng_(seed), samples_(samples), sample_chance_(sample_chance), game_options_(std::move(game_options)) {}
  const char* name() const override { return sample_chance_ ? "heuristic" : "greedy"; }

  Status Choose(Rules& rules, const State& state, int seat, Move* out) override {
    State scratch = state;
    return ChooseIn(rules, &scratch, seat, out);
  }

  Status ChooseIn(Rules& rules, State* state, int seat, Move* out) override {
    Status st = rules.LegalMoves(*state, seat, &moves_);
    if (!st.ok()) return st;
    if (moves_.empty()) return Status::Illegal("no legal move");
    decision_ = {static_cast<int>(moves_.size()), false};
    if (moves_.size() == 1) {
      *out = moves_[0];
      return Status::Ok();
    }
    // What the tries change besides what the journal puts back: the RNG's seed and the log
    // switch. Restored however the loop ends.
    struct Keep {
      State* s;
      Rng rng;
      bool record;
      ~Keep() {
        s->rng = rng;
        s->record = record;
      }
    } keep{state, state->rng, state->record};
    state->record = false;
    // The game may value every candidate at once (its evaluate_moves hook); a move it leaves
    // to a trial (NaN) is tried. A valued move draws no random numbers (the conformance checks
    // hold it to that), so the heuristic's one reseed for it is drawn as its trial would.
    int base = -1;
    st = rules.EvaluateMoves(*state, seat, moves_, game_options_, &values_, &base);
    if (!st.ok()) return st;
    if (base >= 0) {
      // Values relative to the base move: its own value by one trial. A base that draws random
      // numbers gives nothing to add to (the conformance checks refuse it): every move is tried.
      double from = 0;
      bool chance = false;
      st = rules.TryValue(state, seat, moves_[static_cast<size_t>(base)], game_options_, &from, &chance);
      if (!st.ok()) return st;
      if (chance) values_.clear();
      for (double& v : values_)
        if (!std::isnan(v)) v += from;
    }
    // A hidden simultaneous choice, with other seats still to choose, is only committed: every
    // candidate's trial leaves the same visible state, so one trial values them all (the moves
    // then draw from the bot's RNG as valued moves do, which is what their trials drew).
    if (rules.ChoiceIsHidden(*state, seat)) {
      values_.resize(moves_.size(), std::nan(""));
      size_t first = 0;
      while (first < moves_.size() && !std::isnan(values_[first])) ++first;
      if (first < moves_.size()) {
        const Rng before = state->rng;
        st = rules.TryMove(state, seat, moves_[first]);
        if (!st.ok()) return st;
        double v = 0;
        st = rules.EvaluateWith(*state, seat, game_options_, &v);
        const bool chance = !(state->rng == before);
        rules.UndoTrial(state);
        if (!st.ok()) return st;
        state->rng = before;
        for (double& x : values_)
          if (std::isnan(x) && !chance) x = v;
      }
    }
    double best = -1e300;
    int ties = 0;
    size_t pick = 0;
    for (size_t i = 0; i < moves_.size(); ++i) {
      if (stopped()) return BotStopped();
      double sum = 0;
      int n = 0;
      if (!values_.empty() && !std::isnan(values_[i])) {
        if (sample_chance_) rng_.Next();
        sum = values_[i];
        n = 1;
      } else {
        for (int k = 0; k < samples_; ++k) {
          if (sample_chance_) state->rng.Seed(rng_.Next());
          const Rng before = state->rng;
          st = rules.TryMove(state, seat, moves_[i]);
          if (!st.ok()) return st;
          double v;
          st = rules.EvaluateWith(*state, seat, game_options_, &v);
          const bool chance = !(state->rng == before);
          rules.UndoTrial(state);
          if (!st.ok()) return st;
          sum += v;
          ++n;
          if (!chance) break;
        }
      }
      const double v = sum / n;
      if (v > best) {
        best = v;
        pick = i;
        ties = 1;
      } else if (v == best && rng_.Below(static_cast<uint32_t>(++ties)) == 0) {
        pick = i;  // reservoir sampling keeps ties uniform
      }
    }
    decision_.all_equal = ties == static_cast<int>(moves_.size());
    *out = moves_[pick];
    return Status::Ok();
  }

 private:
  Rng rng_;
  int samples_;
  bool sample_chance_;
  std::vector<std::pair<std::string, double>> game_options_;
  std::vector<Move> moves_;
  std::vector<double> values_;
};

}  // namespace

double BotSpec::Get(const std::string& key, double fallback) const {
  for (const auto& [k, v] : options)
    if (k == key) return v;
  return fallback;
}

bool ParseBotSpec(const std::string& text, BotSpec* out, std::string* error) {
  *out = BotSpec{};
  size_t at = text.find(':');
  out->name = text.substr(0, at);
  while (at != std::string::npos) {
    const size_t next = text.find(':', at + 1);
    const std::string opt = text.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    const size_t eq = opt.find('=');
    char* end = nullptr;
    const std::string value = eq == std::string::npos ? "" : opt.substr(eq + 1);
    const double v = value.empty() ? 0 : std::strtod(value.c_str(), &end);
    if (eq == std::string::npos || eq == 0 || value.empty() || *end != '\0') {
      *error = "bot '" + text + "': option '" + opt + "' is not key=number";
      return false;
    }
    // NaN passes every range check (its comparisons are all false): refused here, with the infinities.
    if (!std::isfinite(v) || std::fabs(v) > 1e12) {
      *error = "bot '" + text + "': option '" + opt + "' must be a finite number within ±1e12";
      return false;
    }
    out->options.emplace_back(opt.substr(0, eq), v);
    at = next;
  }
  return true;
}

std::vector<std::string> BotNames() { return {"random", "greedy", "heuristic", "mcts"}; }

std::unique_ptr<Bot> MakeBot(const std::string& text, uint64_t seed, std::string* error, const GameInfo* game) {
  error->clear();
  BotSpec spec;
  if (!ParseBotSpec(text, &spec, error)) return nullptr;
  // Options a bot does not know go to the game's evaluation (bots that evaluate only).
  std::vector<std::pair<std::string, double>> game_options;
  auto split_game = [&](std::initializer_list<const char*> keys) {
    std::vector<std::pair<std::string, double>> own;
    for (const auto& kv : spec.options) {
      bool mine = false;
      for (const char* key : keys) mine |= kv.first == key;
      auto declared = game ? game->bot_options.find(kv.first) : decltype(game->bot_options.end()){};
      if (mine || !game || declared == game->bot_options.end()) {
        own.push_back(kv);  // the bot's own, or unknown: refused below with the bot's options named
        continue;
      }
      if (kv.second < declared->second.first || kv.second > declared->second.second) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "=%g is outside %g..%g", kv.second, declared->second.first, declared->second.second);
        *error = "bot '" + text + "': " + game->id + "'s option " + kv.first + buf;
        return false;
      }
      game_options.push_back(kv);
    }
    spec.options = std::move(own);
    return true;
  };
  auto allow = [&](std::initializer_list<const char*> keys) {
    for (const auto& [k, v] : spec.options) {
      bool ok = false;
      for (const char* key : keys) ok |= k == key;
      if (!ok) {
        std::string known;
        for (const char* key : keys) known += (known.empty() ? "" : ", ") + std::string(key);
        std::string game_known;
        if (game)
          for (const auto& [name, range] : game->bot_options) game_known += (game_known.empty() ? "" : ", ") + name;
        *error = "bot '" + spec.name + "' has no option '" + k + "'" + (known.empty() ? "" : " (options: " + known + ")") +
                 (game_known.empty() ? "" : " and " + game->id + " declares none such (its bot options: " + game_known + ")");
        return false;
      }
    }
    return true;
  };
  auto in_range = [&](const char* key, double lo, double hi, double fallback, double* out) {
    *out = spec.Get(key, fallback);
    if (*out < lo || *out > hi) {
      *error = "bot '" + text + "': " + key + " must be between " + std::to_string(static_cast<long long>(lo)) + " and " +
               std::to_string(static_cast<long long>(hi));
      return false;
    }
    return true;
  };
  if (spec.name == "random" && allow({})) return std::make_unique<RandomBot>(seed);
  if (spec.name == "greedy" && split_game({}) && allow({})) return std::make_unique<OnePlyBot>(seed, 1, false, game_options);
  if (spec.name == "heuristic" && split_game({"samples"}) && allow({"samples"})) {
    double samples;
    if (!in_range("samples", 1, 1000, 4, &samples)) return nullptr;
    return std::make_unique<OnePlyBot>(seed, static_cast<int>(samples), true, game_options);
  }
  if (spec.name == "mcts" && split_game({"iters", "ms", "depth", "c"}) && allow({"iters", "ms", "depth", "c"})) {
    MctsOptions o;
    double iters, ms, depth, c;
    if (!in_range("iters", 0, 1e7, o.iterations, &iters) || !in_range("ms", 0, 1e6, o.time_ms, &ms) ||
        !in_range("depth", 0, 1e6, o.rollout_depth, &depth) || !in_range("c", 0, 100, o.exploration, &c))
      return nullptr;
    if (iters == 0 && ms == 0) {
      *error = "bot '" + text + "': give iters or ms";
      return nullptr;
    }
    o.iterations = static_cast<int>(iters);
    o.time_ms = ms;
    o.rollout_depth = static_cast<int>(depth);
    o.exploration = c;
    o.game_options = game_options;
    return MakeMctsBot(o, seed);
  }
  if (!error->empty()) return nullptr;
  std::string known;
  for (const auto& n : BotNames()) known += (known.empty() ? "" : ", ") + n;
  *error = "unknown bot '" + spec.name + "' (known: " + known + ")";
  return nullptr;
}

Status PlayOut(Rules& rules, State* state, const std::vector<Bot*>& bots, PlayResult* result, const PlayLimits& limits) {
  std::vector<int> seats;
  int moves = 0, round = state->flow.round, moves_this_round = 0;
  bool rounds_kept = round > 0 || rules.CountsRounds();  // a game without rounds has only the total limit
  ScoreTrack* track = limits.track;
  bool moved_since_sample = false;
  std::vector<Move> listed;
  auto sample = [&]() {
    std::vector<int64_t> totals;
    Status st = rules.CurrentTotals(*state, &totals);
    if (!st.ok()) return st;
    totals.resize(static_cast<size_t>(state->player_count));
    track->totals.push_back(std::move(totals));
    moved_since_sample = false;
    return Status::Ok();
  };
  if (track) *track = ScoreTrack();
  for (;;) {
    Status st = rules.ToMove(*state, &seats);
    if (!st.ok()) return st;
    if (seats.empty()) break;
    for (int seat : seats) {
      if (seat < 0 || seat >= static_cast<int>(bots.size()) || !bots[static_cast<size_t>(seat)])
        return Status::Input("no bot for seat " + std::to_string(seat + 1));
      Bot* bot = bots[static_cast<size_t>(seat)];
      Move m;
      if (track) bot->clear_decision();
      st = bot->ChooseIn(rules, state, seat, &m);
      if (!st.ok()) return st;
      if (track) {
        // A bot that listed the moves says how many; for the others they are listed here (the
        // rules cache the list of a state, which the bot may just have asked for).
        Bot::Decision d = bot->last_decision();
        if (d.moves == 0) {
          st = rules.LegalMoves(*state, seat, &listed);
          if (!st.ok()) return st;
          d.moves = static_cast<int>(listed.size());
        }
        ++track->decisions;
        if (d.moves == 1) ++track->single_move;
        else if (d.all_equal) ++track->all_equal;
      }
      if (limits.before_move) limits.before_move(*state, seat, m);
      st = rules.Apply(state, seat, m);
      if (!st.ok()) {
        if (st.kind == ErrorKind::kIllegal)
          st.message = "bot '" + std::string(bot->name()) + "' chose an illegal move " +
                       MoveToString(m, *state->cards) + ": " + st.message;
        return st;
      }
      moved_since_sample = true;
      if (++moves > limits.max_moves)
        return {ErrorKind::kScript, "the game did not end within " + std::to_string(limits.max_moves) + " moves", {}, {}};
      bool round_ended = false;
      if (state->flow.round != round) {
        round = state->flow.round;
        moves_this_round = 0;
        // A game that starts counting rounds only now was sampled after every move so far:
        // those samples give way to this one, the end of its first round.
        if (track && !rounds_kept) track->totals.clear();
        rounds_kept = true;
        round_ended = true;
      } else if (++moves_this_round > limits.max_moves_per_round && rounds_kept) {
        return {ErrorKind::kScript,
                "the game did not end: round " + std::to_string(round + 1) + " ran " +
                    std::to_string(limits.max_moves_per_round) +
                    " moves without the round changing (a question asked again and again, or a loop of moves); "
                    "last move " + MoveToString(m, *state->cards),
                {}, {}};
      }
      if (track && (round_ended || !rounds_kept)) {
        st = sample();
        if (!st.ok()) return st;
      }
    }
    // Seats that moved together (a draft's simultaneous picks) make a turn of their own: its end
    // is a score too, as a round's is.
    if (track && seats.size() > 1 && moved_since_sample) {
      Status st = sample();
      if (!st.ok()) return st;
    }
    if (limits.max_rounds > 0 && state->flow.round + 1 > limits.max_rounds) {
      result->stopped = true;
      break;
    }
  }
  result->moves = moves;
  Status st = rules.Score(*state, &result->scores);
  if (!st.ok() || !track) return st;
  // The final score is the last sample (in place of a sample of the same state).
  if (!moved_since_sample && !track->totals.empty()) track->totals.pop_back();
  std::vector<int64_t> final_totals(static_cast<size_t>(state->player_count), 0);
  for (const auto& line : result->scores.lines)
    if (line.seat >= 0 && line.seat < state->player_count) final_totals[static_cast<size_t>(line.seat)] = line.total;
  track->totals.push_back(std::move(final_totals));
  track->by_round = rounds_kept;
  return st;
}

}  // namespace plateau
