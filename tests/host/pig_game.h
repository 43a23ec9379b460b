// A tiny native game for testing bots and simulations without Lua: Pig. On your turn, "roll"
// a die (a 1 loses the points of this turn and ends it; anything else adds to them) or
// "hold" (bank them and pass). The first to `target` banked points ends the game. Chance is
// drawn from the state's RNG, like every game's.
#pragma once

#include "host/game.h"

namespace plateau::testing {

inline Move RollOrHold(const char* type) {
  Move m;
  m.type = type;
  return m;
}

class PigGame : public Rules {
 public:
  explicit PigGame(int target = 30, bool endless = false) : target_(target), endless_(endless) {
    info_.id = "pig";
    info_.name = "Pig";
    info_.min_players = 2;
    info_.max_players = 4;
  }
  const GameInfo& info() const override { return info_; }
  Status NewGame(const Json&, int players, uint64_t seed, State* out) override {
    *out = State();
    out->game_id = "pig";
    out->seed = seed;
    out->rng.Seed(seed);
    out->cards = std::make_shared<CardSet>();
    out->player_count = players;
    for (int s = 0; s < players; ++s) out->seats.push_back({"P" + std::to_string(s + 1), "player"});
    out->data = {{"banked", Json::array()}, {"turn", 0}, {"seat", 0}, {"ended", false}};
    for (int s = 0; s < players; ++s) out->data["banked"].push_back(0);
    return Status::Ok();
  }
  Status ToMove(const State& s, std::vector<int>* seats) override {
    seats->clear();
    if (!s.data["ended"].get<bool>()) seats->push_back(s.data["seat"].get<int>());
    return Status::Ok();
  }
  Status LegalMoves(const State& s, int seat, std::vector<Move>* out) override {
    out->clear();
    if (s.data["ended"].get<bool>() || seat != s.data["seat"].get<int>()) return Status::Ok();
    out->push_back(RollOrHold("roll"));
    out->push_back(RollOrHold("hold"));
    return Status::Ok();
  }
  Status Apply(State* s, int seat, const Move& m) override {
    if (s->data["ended"].get<bool>() || seat != s->data["seat"].get<int>()) return Status::Illegal("not your turn");
    int turn = s->data["turn"];
    bool pass = false;
    if (m.type == "roll") {
      const int die = static_cast<int>(s->rng.Int(1, 6));
      if (die == 1) {
        turn = 0;
        pass = true;
      } else {
        turn += die;
      }
    } else if (m.type == "hold") {
      s->data["banked"][static_cast<size_t>(seat)] = s->data["banked"][static_cast<size_t>(seat)].get<int>() + turn;
      turn = 0;
      pass = true;
    } else {
      return Status::Illegal("unknown move " + m.type);
    }
    s->data["turn"] = turn;
    if (pass) {
      const int next = (seat + 1) % s->player_count;
      s->data["seat"] = next;
      if (next == 0) ++s->flow.round;
      if (!endless_ && s->data["banked"][static_cast<size_t>(seat)].get<int>() >= target_) s->data["ended"] = true;
    }
    ++s->move_count;
    s->Touch();
    return Status::Ok();
  }
  Status Score(const State& s, ScoreTable* out) override {
    out->lines.clear();
    for (int p = 0; p < s.player_count; ++p)
      out->lines.push_back({p, s.seats[static_cast<size_t>(p)].name, s.data["banked"][static_cast<size_t>(p)].get<int64_t>(), {}});
    return Status::Ok();
  }
  // Banked points plus the points at risk this turn, so a one-ply bot sees what a roll adds.
  Status Evaluate(const State& s, int seat, double* out) override {
    *out = s.data["banked"][static_cast<size_t>(seat)].get<double>();
    if (s.data["seat"].get<int>() == seat) *out += s.data["turn"].get<double>();
    return Status::Ok();
  }
  Status Stats(const State& s, Json* out) override {
    *out = {{"ending", s.data["ended"].get<bool>() ? "target" : "none"},
            {"tags", Json::array({s.player_count == 2 ? "duel" : "crowd"})},
            {"counts", {{"turn points left", s.data["turn"]}}},
            {"players", Json::array()}};
    for (int p = 0; p < s.player_count; ++p)
      (*out)["players"].push_back({{"reached:target", s.data["banked"][static_cast<size_t>(p)].get<int>() >= target_ ? 1 : 0},
                                   {"reached:never", 0}});
    return Status::Ok();
  }
  std::string View(const State& s, int) override { return s.data.dump(); }

 private:
  GameInfo info_;
  int target_;
  bool endless_;
};

}  // namespace plateau::testing
