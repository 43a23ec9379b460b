// Replaying move logs (see replay.h).
#include "host/replay.h"

namespace plateau {

Status MovesOfLog(const State& state, std::vector<LoggedMove>* out) {
  out->clear();
  for (size_t i = 0; i < state.log.size(); ++i) {
    const LogEntry& e = state.log[i];
    if (e.kind != "move") continue;
    LoggedMove m{e.seat, {}};
    std::string error;
    if (!MoveFromJson(e.detail, *state.cards, &m.move, &error))
      return Status::Input("log entry " + std::to_string(i) + ": " + error);
    out->push_back(std::move(m));
  }
  return Status::Ok();
}

Status Replay(Rules& rules, const State& original, const std::vector<LoggedMove>& moves, State* out,
              std::vector<std::string>* hashes) {
  State s;
  Status st = rules.NewGame(original.params, original.player_count, original.seed, &s);
  if (!st.ok()) return st;
  for (size_t i = 0; i < moves.size(); ++i) {
    st = rules.Apply(&s, moves[i].seat, moves[i].move);
    if (!st.ok()) {
      st.message = "replay of move " + std::to_string(i + 1) + " (" + MoveToString(moves[i].move, *s.cards) + " by seat " +
                   std::to_string(moves[i].seat + 1) + ") failed: " + st.message;
      return st;
    }
    if (hashes) hashes->push_back(s.Hash());
  }
  *out = std::move(s);
  return Status::Ok();
}

}  // namespace plateau
