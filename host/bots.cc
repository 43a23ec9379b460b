// Random and greedy bots and the bot play loop (see bots.h).
#include "host/bots.h"

namespace plateau {
namespace {

class RandomBot : public Bot {
 public:
  explicit RandomBot(uint64_t seed) : rng_(seed) {}
  const char* name() const override { return "random"; }
  Status Choose(Rules& rules, const State& state, int seat, Move* out) override {
    return rules.RandomMove(state, seat, &rng_, out);
  }

 private:
  Rng rng_;
};

class GreedyBot : public Bot {
 public:
  explicit GreedyBot(uint64_t seed) : rng_(seed) {}
  const char* name() const override { return "greedy"; }
  Status Choose(Rules& rules, const State& state, int seat, Move* out) override {
    Status st = rules.LegalMoves(state, seat, &moves_);
    if (!st.ok()) return st;
    if (moves_.empty()) return Status::Illegal("no legal move");
    double best = -1e300;
    int ties = 0;
    size_t pick = 0;
    State next;
    for (size_t i = 0; i < moves_.size(); ++i) {
      st = rules.Preview(state, seat, moves_[i], &next);
      if (!st.ok()) return st;
      double v;
      st = rules.Evaluate(next, seat, &v);
      if (!st.ok()) return st;
      if (v > best) {
        best = v;
        pick = i;
        ties = 1;
      } else if (v == best && rng_.Below(static_cast<uint32_t>(++ties)) == 0) {
        pick = i;  // reservoir sampling keeps ties uniform
      }
    }
    *out = moves_[pick];
    return Status::Ok();
  }

 private:
  Rng rng_;
  std::vector<Move> moves_;
};

}  // namespace

std::vector<std::string> BotNames() { return {"random", "greedy"}; }

std::unique_ptr<Bot> MakeBot(const std::string& name, uint64_t seed, std::string* error) {
  if (name == "random") return std::make_unique<RandomBot>(seed);
  if (name == "greedy") return std::make_unique<GreedyBot>(seed);
  std::string known;
  for (const auto& n : BotNames()) known += (known.empty() ? "" : ", ") + n;
  *error = "unknown bot '" + name + "' (known: " + known + ")";
  return nullptr;
}

Status PlayOut(Rules& rules, State* state, const std::vector<Bot*>& bots, PlayResult* result, int max_moves) {
  std::vector<int> seats;
  int moves = 0;
  for (;;) {
    Status st = rules.ToMove(*state, &seats);
    if (!st.ok()) return st;
    if (seats.empty()) break;
    for (int seat : seats) {
      if (seat < 0 || seat >= static_cast<int>(bots.size()) || !bots[static_cast<size_t>(seat)])
        return Status::Input("no bot for seat " + std::to_string(seat + 1));
      Move m;
      st = bots[static_cast<size_t>(seat)]->Choose(rules, *state, seat, &m);
      if (!st.ok()) return st;
      st = rules.Apply(state, seat, m);
      if (!st.ok()) {
        if (st.kind == ErrorKind::kIllegal)
          st.message = "bot '" + std::string(bots[static_cast<size_t>(seat)]->name()) + "' chose an illegal move " +
                       MoveToString(m, *state->cards) + ": " + st.message;
        return st;
      }
      if (++moves > max_moves) return Status::Input("the game did not end within " + std::to_string(max_moves) + " moves");
    }
  }
  result->moves = moves;
  return rules.Score(*state, &result->scores);
}

}  // namespace plateau
