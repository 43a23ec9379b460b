// plateau-bench: speed figures printed as one JSON object per line,
// {"name": ..., "value": ..., "unit": ...}. Not part of the product; runs in under two minutes.
// Each figure alternates the runs it compares and keeps the median, so a noisy machine
// disturbs both sides alike.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/savane_native.h"
#include "host/bots.h"
#include "host/simulate.h"
#include "host/loader.h"
#include "scripting/lua_rules.h"
#include "scripting/reload.h"

namespace plateau {
namespace {

using Clock = std::chrono::steady_clock;

// CPU time of this thread: other processes on a noisy machine do not inflate it.
double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void Print(const std::string& name, double value, const std::string& unit) {
  std::printf("{\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\"}\n", name.c_str(), value, unit.c_str());
  std::fflush(stdout);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Games per second of the Lua-scripted game through the same path as `plateau simulate`.
double LuaPlayouts(const std::string& game, int games, bool budget, uint64_t seed) {
  SimulationSpec spec;
  spec.games = games;
  spec.players = 4;
  spec.seed = seed;
  spec.bots = {"random"};
  spec.threads = 1;
  scripting::Limits limits;
  limits.budget = budget;
  Json params;
  std::unique_ptr<scripting::LuaRules> probe;
  if (!scripting::LuaRules::Load(game, limits, &probe).ok()) return 0;
  ResolveParams(probe->info(), Json::object(), &spec.params);
  SimulationReport report;
  const double t0 = ThreadSeconds();
  Status st = Simulate(
      [&](std::unique_ptr<Rules>* out) {
        std::unique_ptr<scripting::LuaRules> r;
        Status s = scripting::LuaRules::Load(game, limits, &r);
        *out = std::move(r);
        return s;
      },
      spec, &report);
  if (!st.ok() || report.failed) {
    std::fprintf(stderr, "bench: %s\n", st.ok() ? report.first_errors.front().c_str() : st.message.c_str());
    return 0;
  }
  // Rules loading is part of the run on purpose: `plateau simulate` pays it too.
  return games / (ThreadSeconds() - t0);
}

double NativePlayouts(int games, uint64_t seed) {
  const double t0 = ThreadSeconds();
  int64_t sink = 0;
  for (int g = 0; g < games; ++g) sink += bench::NativeSavanePlayout(seed + static_cast<uint64_t>(g), 4);
  const double s = ThreadSeconds() - t0;
  if (sink == 42) std::fprintf(stderr, " ");
  return games / s;
}

double ScoreTableMicros() {
  std::unique_ptr<scripting::LuaRules> rules;
  if (!scripting::LuaRules::Load("ecosysteme-savane", {}, &rules).ok()) return 0;
  Json params;
  ResolveParams(rules->info(), Json::object(), &params);
  State state;
  rules->NewGame(params, 4, 7, &state);
  std::vector<std::unique_ptr<Bot>> owned;
  std::vector<Bot*> bots;
  std::string error;
  for (int i = 0; i < 4; ++i) {
    owned.push_back(MakeBot("random", static_cast<uint64_t>(i), &error));
    bots.push_back(owned.back().get());
  }
  PlayResult result;
  if (!PlayOut(*rules, &state, bots, &result).ok()) return 0;
  const int reps = 20000;
  ScoreTable table;
  const double t0 = ThreadSeconds();
  for (int i = 0; i < reps; ++i) rules->Score(state, &table);
  return (ThreadSeconds() - t0) * 1e6 / reps;
}

}  // namespace
}  // namespace plateau

int main() {
  using namespace plateau;
  const int games = 6000;
  std::vector<double> lua, native, on, off;
  for (int rep = 0; rep < 3; ++rep) {
    lua.push_back(LuaPlayouts("ecosysteme-savane", games, true, 1000 + static_cast<uint64_t>(rep)));
    native.push_back(NativePlayouts(games * 4, 1000 + static_cast<uint64_t>(rep)));
  }
  const double lua_rate = Median(lua), native_rate = Median(native);
  Print("savane_playouts_lua_per_s", lua_rate, "games/s");
  Print("savane_playouts_native_per_s", native_rate, "games/s");
  Print("savane_lua_native_ratio", native_rate > 0 ? lua_rate / native_rate : 0, "ratio");
  // Same seeds on and off, alternated in small batches; the ratio of each pair is kept and the
  // median taken, so drift in machine speed cancels out.
  std::vector<double> ratios;
  const uint64_t armed_before = scripting::Runtime::arm_count.load();
  for (int rep = 0; rep < 9; ++rep) {
    const uint64_t seed = 5000 + static_cast<uint64_t>(rep) * 1000;
    const double a = LuaPlayouts("ecosysteme-savane", games / 3, rep % 2 == 0, seed);
    const double b = LuaPlayouts("ecosysteme-savane", games / 3, rep % 2 != 0, seed);
    const double rate_on = rep % 2 == 0 ? a : b, rate_off = rep % 2 == 0 ? b : a;
    if (rate_on > 0) ratios.push_back(rate_off / rate_on);  // time on / time off
  }
  Print("budget_overhead_ratio", ratios.empty() ? 0 : Median(ratios), "ratio");
  Print("budget_hook_armed_calls", static_cast<double>(scripting::Runtime::arm_count.load() - armed_before), "calls");
  Print("savane_score_table_us", ScoreTableMicros(), "us");
  // Hot reload: loading, validating and checking new rules against a game on the table, for
  // every shipped game (plateau watch adds at most 5 ms of polling and a 15 ms quiet period).
  for (const auto& game : ListGames()) {
    std::unique_ptr<scripting::LuaRules> rules;
    if (!scripting::LuaRules::Load(game, {}, &rules).ok()) continue;
    Json params;
    ResolveParams(rules->info(), Json::object(), &params);
    State state;
    const int players = std::max(rules->info().min_players, std::min(3, rules->info().max_players));
    if (!rules->NewGame(params, players, 1, &state).ok()) continue;
    std::vector<double> ms;
    for (int rep = 0; rep < 9; ++rep) {
      const auto t0 = Clock::now();
      scripting::ReloadResult r = scripting::ReloadRules(game, {}, &state, &rules);
      if (!r.ok) break;
      ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    if (ms.empty()) continue;
    std::string name = game;
    for (char& c : name)
      if (c == '-') c = '_';
    Print("reload_ms_" + name, Median(ms), "ms");
    Print("reload_latency_ms_" + name, Median(ms) + 5 + 15, "ms");
  }
  return 0;
}
