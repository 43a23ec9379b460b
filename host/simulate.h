// Batch simulation: N seeded games between bots on T threads (one rules instance per
// thread), with statistics per seat and per score category and the games per second.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/bots.h"

namespace plateau {

struct SimulationSpec {
  int games = 100;
  int players = 4;
  uint64_t seed = 1;
  std::vector<std::string> bots;  // one per seat (cycled when shorter)
  int threads = 1;
  Json params = Json::object();
  bool progress = false;
};

struct Stat {
  int64_t n = 0;
  double sum = 0, sum2 = 0;
  int64_t min = INT64_MAX, max = INT64_MIN;
  void Add(int64_t v) {
    ++n;
    sum += static_cast<double>(v);
    sum2 += static_cast<double>(v) * static_cast<double>(v);
    min = std::min(min, v);
    max = std::max(max, v);
  }
  void Merge(const Stat& o) {
    n += o.n; sum += o.sum; sum2 += o.sum2;
    min = std::min(min, o.min); max = std::max(max, o.max);
  }
  double Mean() const { return n ? sum / static_cast<double>(n) : 0; }
  double Stdev() const;
};

struct SimulationReport {
  int games = 0;
  int failed = 0;
  double seconds = 0;
  std::vector<std::string> seat_names;     // "P1 (random)"
  std::vector<Stat> seat_totals;           // per seat
  std::vector<double> seat_wins;           // shared wins count as fractions
  std::vector<std::string> categories;     // in first-seen order
  std::vector<std::vector<Stat>> category; // [category][seat]
  std::vector<std::string> first_errors;   // up to 5, with seeds
  Json extra_counts = Json::object();      // counts of values seen in score extras
  double GamesPerSecond() const { return seconds > 0 ? games / seconds : 0; }
  Json ToJson() const;
  std::string ToText() const;
};

using RulesFactory = std::function<Status(std::unique_ptr<Rules>*)>;
Status Simulate(const RulesFactory& factory, const SimulationSpec& spec, SimulationReport* report);

}  // namespace plateau
