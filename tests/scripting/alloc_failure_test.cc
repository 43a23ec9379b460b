// Failed allocations, injected one at a time at every allocation a rule call makes (the way
// Lua's own ltests.c tests its allocator paths): in each shipped game, at the start, the middle
// and the end of a seeded game, every call that meets a failed allocation either succeeds with
// the answer it gives without one, or ends as a memory error with the state unchanged. The
// process never aborts, and the same VM answers as before on the next call.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/bots.h"
#include "scripting/lua_rules.h"

namespace plateau::scripting {
namespace {

std::string GameFolder(const std::string& id) { return std::string(PLATEAU_SOURCE_DIR_STR) + "/games/" + id; }

// One rule call on a copy of a state, and what it answered, as text to compare.
struct Op {
  const char* name;
  std::function<Status(LuaRules&, State*, std::string*)> run;
};

std::string ScoreText(const ScoreTable& t) {
  std::string out;
  for (const auto& line : t.lines) {
    out += line.name + "=" + std::to_string(line.total) + "(";
    for (const auto& [k, v] : line.breakdown) out += k + ":" + std::to_string(v) + ",";
    out += ")";
  }
  return out;
}

std::vector<Op> Ops() {
  return {
      {"to_move and legal_moves",
       [](LuaRules& r, State* s, std::string* out) {
         std::vector<int> seats;
         Status st = r.ToMove(*s, &seats);
         for (size_t i = 0; st.ok() && i < seats.size(); ++i) {
           std::vector<Move> moves;
           st = r.LegalMoves(*s, seats[i], &moves);
           for (const Move& m : moves) *out += MoveToString(m, *s->cards) + ";";
         }
         return st;
       }},
      {"apply the first legal move",
       [](LuaRules& r, State* s, std::string* out) {
         std::vector<int> seats;
         std::vector<Move> moves;
         Status st = r.ToMove(*s, &seats);
         if (st.ok() && !seats.empty()) st = r.LegalMoves(*s, seats[0], &moves);
         if (st.ok() && !moves.empty()) st = r.Apply(s, seats[0], moves[0]);
         *out = s->Hash();
         return st;
       }},
      {"score",
       [](LuaRules& r, State* s, std::string* out) {
         ScoreTable t;
         Status st = r.Score(*s, &t);
         *out = ScoreText(t);
         return st;
       }},
      {"evaluate",
       [](LuaRules& r, State* s, std::string* out) {
         double v = 0;
         Status st = r.Evaluate(*s, 0, &v);
         *out = std::to_string(v);
         return st;
       }},
  };
}

// States along one seeded random game: after setup, at the middle, and before the last move.
std::vector<State> StatesAlongAGame(LuaRules& rules, int players, uint64_t seed) {
  Json params;
  EXPECT_TRUE(ResolveParams(rules.info(), Json::object(), &params).ok());
  State s;
  Status st = rules.NewGame(params, players, seed, &s);
  EXPECT_TRUE(st.ok()) << st.message;
  std::vector<State> all{s};
  Rng bot(seed);
  for (int i = 0; i < 2000; ++i) {
    std::vector<int> seats;
    if (!rules.ToMove(s, &seats).ok() || seats.empty()) break;
    Move m;
    if (!rules.RandomMove(s, seats.front(), &bot, &m).ok() || !rules.Apply(&s, seats.front(), m).ok()) break;
    all.push_back(s);
  }
  all.pop_back();  // the finished game: no move to apply
  return {all.front(), all[all.size() / 2], all.back()};
}

void CheckGame(const std::string& id, int players) {
  std::unique_ptr<LuaRules> rules;
  Status st = LuaRules::Load(GameFolder(id), Limits{}, &rules);
  ASSERT_TRUE(st.ok()) << st.message;
  Runtime& rt = rules->runtime();
  const std::vector<State> states = StatesAlongAGame(*rules, players, 21);
  int failures = 0, recovered = 0;
  for (size_t at = 0; at < states.size(); ++at) {
    const State& start = states[at];
    for (const Op& op : Ops()) {
      const std::string where = id + ", state " + std::to_string(at) + ", " + op.name;
      State copy = start;
      std::string expected;
      Status ref = op.run(*rules, &copy, &expected);
      ASSERT_TRUE(ref.ok()) << where << ": " << ref.message;
      bool reached_the_end = false;
      for (int64_t k = 0; k < 50000 && !reached_the_end; ++k) {
        State trial = start;
        std::string got;
        rt.FailAllocationAfter(k);
        Status run = op.run(*rules, &trial, &got);
        reached_the_end = rt.allocation_failure_pending();  // the call made fewer than k allocations
        rt.FailAllocationAfter(-1);
        if (run.ok()) {
          recovered += !reached_the_end;
          EXPECT_EQ(got, expected) << where << ": allocation " << k << " failed and the call answered otherwise";
        } else {
          ++failures;
          EXPECT_EQ(run.kind, ErrorKind::kMemory) << where << ": allocation " << k << ": " << run.ToString();
          EXPECT_EQ(trial.Hash(), start.Hash()) << where << ": allocation " << k << " left the state changed";
          // The same VM still answers as before.
          State again = start;
          std::string after;
          Status healthy = op.run(*rules, &again, &after);
          ASSERT_TRUE(healthy.ok()) << where << ": after allocation " << k << " failed: " << healthy.ToString();
          EXPECT_EQ(after, expected) << where << ": after allocation " << k << " failed";
        }
        if (::testing::Test::HasFailure()) return;
      }
      EXPECT_TRUE(reached_the_end) << where << ": still allocating after 50,000 allocations";
    }
  }
  EXPECT_GT(failures, 0) << id << ": no call met an injected failure, so the test proves nothing";
  std::printf("%s: %d calls ended as memory errors, %d met a failed allocation and still answered the same\n",
              id.c_str(), failures, recovered);
}

TEST(AllocationFailure, SavaneCallsEndAsMemoryErrorsOrAnswerTheSame) { CheckGame("ecosysteme-savane", 2); }
TEST(AllocationFailure, OceanCallsEndAsMemoryErrorsOrAnswerTheSame) { CheckGame("ecosysteme-ocean", 3); }
TEST(AllocationFailure, ChenillesCallsEndAsMemoryErrorsOrAnswerTheSame) { CheckGame("chenilles", 2); }

}  // namespace
}  // namespace plateau::scripting
