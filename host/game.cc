// Shared pieces of the rules contract: status text, default bot helpers, parameters.
#include "host/game.h"

namespace plateau {

const char* ErrorKindName(ErrorKind k) {
  switch (k) {
    case ErrorKind::kNone: return "ok";
    case ErrorKind::kIllegal: return "illegal move";
    case ErrorKind::kInput: return "bad input";
    case ErrorKind::kScript: return "script error";
    case ErrorKind::kBudget: return "instruction budget exceeded";
    case ErrorKind::kMemory: return "memory cap exceeded";
    case ErrorKind::kSandbox: return "sandbox violation";
  }
  return "error";
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string s = message;
  if (!context.empty()) s += "\n  (" + context + ")";
  if (!traceback.empty()) s += "\n" + traceback;
  return s;
}

Status Rules::RandomMove(const State& state, int seat, Rng* rng, Move* out, int* listed) {
  std::vector<Move> moves;
  Status st = LegalMoves(state, seat, &moves);
  if (!st.ok()) return st;
  if (moves.empty()) return Status::Illegal("no legal move for seat " + std::to_string(seat + 1));
  if (listed) *listed = static_cast<int>(moves.size());
  *out = std::move(moves[rng->Below(static_cast<uint32_t>(moves.size()))]);
  return Status::Ok();
}

Status Rules::Preview(const State& state, int seat, const Move& move, State* out) {
  *out = state;
  out->record = false;
  return Apply(out, seat, move);
}

Status Rules::TryMove(State* state, int seat, const Move& move) {
  trial_copies_.push_back(*state);
  const bool record = state->record;
  state->record = false;
  Status st = Apply(state, seat, move);
  state->record = record;
  if (!st.ok()) {
    *state = std::move(trial_copies_.back());
    trial_copies_.pop_back();
  }
  return st;
}

void Rules::UndoTrial(State* state) {
  if (trial_copies_.empty()) return;
  *state = std::move(trial_copies_.back());
  trial_copies_.pop_back();
}

Status Rules::TryValue(State* state, int seat, const Move& move, const std::vector<std::pair<std::string, double>>& options,
                       double* value, bool* chance) {
  const Rng before = state->rng;
  Status st = TryMove(state, seat, move);
  if (!st.ok()) return st;
  *chance = !(state->rng == before);
  st = EvaluateWith(*state, seat, options, value);
  UndoTrial(state);
  state->rng = before;
  return st;
}

Status Rules::CurrentTotals(const State& state, std::vector<int64_t>* out) {
  ScoreTable table;
  Status st = Score(state, &table);
  if (!st.ok()) return st;
  out->assign(state.seats.size(), 0);
  for (const auto& line : table.lines)
    if (line.seat >= 0 && static_cast<size_t>(line.seat) < out->size()) (*out)[static_cast<size_t>(line.seat)] = line.total;
  return Status::Ok();
}

Status Rules::Evaluate(const State& state, int seat, double* out) {
  ScoreTable table;
  Status st = Score(state, &table);
  if (!st.ok()) return st;
  int64_t mine = 0, best_other = INT64_MIN;
  for (const auto& line : table.lines) {
    if (line.seat == seat) mine = line.total;
    else if (line.total > best_other) best_other = line.total;
  }
  *out = static_cast<double>(mine) - (best_other == INT64_MIN ? 0.0 : 0.5 * static_cast<double>(best_other));
  return Status::Ok();
}

Status ResolveParams(const GameInfo& info, const Json& given, Json* resolved) {
  Json out = Json::object();
  if (!given.is_null() && !given.is_object()) return Status::Input("parameters must be a JSON object");
  if (given.is_object())
    for (auto it = given.begin(); it != given.end(); ++it) {
      bool known = false;
      for (const auto& p : info.params) known |= p.name == it.key();
      if (!known) {
        std::string names;
        for (const auto& p : info.params) names += (names.empty() ? "" : ", ") + p.name;
        return Status::Input("unknown parameter '" + it.key() + "' for game '" + info.id + "' (known: " +
                             (names.empty() ? "none" : names) + ")");
      }
    }
  for (const auto& p : info.params) {
    Json v = p.default_value;
    if (given.is_object() && given.contains(p.name)) v = given.at(p.name);
    const std::string where = "parameter '" + p.name + "' of game '" + info.id + "'";
    if (p.type == "integer" && !v.is_number_integer())
      return Status::Input(where + ": integer expected, got " + v.dump());
    if (p.type == "number" && !v.is_number()) return Status::Input(where + ": number expected, got " + v.dump());
    if (p.type == "boolean" && !v.is_boolean()) return Status::Input(where + ": boolean expected, got " + v.dump());
    if (p.type == "string" && !v.is_string()) return Status::Input(where + ": string expected, got " + v.dump());
    if (v.is_number()) {
      if (!p.minimum.is_null() && v.get<double>() < p.minimum.get<double>())
        return Status::Input(where + ": " + v.dump() + " is below the minimum " + p.minimum.dump());
      if (!p.maximum.is_null() && v.get<double>() > p.maximum.get<double>())
        return Status::Input(where + ": " + v.dump() + " is above the maximum " + p.maximum.dump());
    }
    if (v.is_string() && !p.choices.empty()) {
      bool ok = false;
      for (const auto& c : p.choices) ok |= c == v.get<std::string>();
      if (!ok) return Status::Input(where + ": '" + v.get<std::string>() + "' is not one of its choices");
    }
    out[p.name] = v;
  }
  *resolved = std::move(out);
  return Status::Ok();
}

}  // namespace plateau
