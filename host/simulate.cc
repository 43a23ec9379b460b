// Batch simulation across threads (see simulate.h).
#include "host/simulate.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <thread>

namespace plateau {

double Stat::Stdev() const {
  if (n < 2) return 0;
  const double m = Mean();
  return std::sqrt(std::max(0.0, sum2 / static_cast<double>(n) - m * m));
}

namespace {
struct Partial {
  int games = 0, failed = 0;
  std::vector<Stat> totals;
  std::vector<double> wins;
  std::vector<std::string> categories;
  std::vector<std::vector<Stat>> category;
  std::vector<std::string> errors;
  Json extras = Json::object();
};

void Accumulate(const ScoreTable& t, int seats, Partial* p) {
  if (p->totals.empty()) {
    p->totals.resize(static_cast<size_t>(seats));
    p->wins.assign(static_cast<size_t>(seats), 0);
  }
  int64_t best = INT64_MIN;
  int winners = 0;
  for (const auto& line : t.lines)
    if (line.seat < seats) {
      if (line.total > best) { best = line.total; winners = 1; }
      else if (line.total == best) ++winners;
    }
  for (const auto& line : t.lines) {
    if (line.seat >= seats) continue;
    p->totals[static_cast<size_t>(line.seat)].Add(line.total);
    if (line.total == best) p->wins[static_cast<size_t>(line.seat)] += 1.0 / winners;
    for (const auto& [cat, v] : line.breakdown) {
      size_t k = 0;
      while (k < p->categories.size() && p->categories[k] != cat) ++k;
      if (k == p->categories.size()) {
        p->categories.push_back(cat);
        p->category.emplace_back(static_cast<size_t>(seats));
      }
      p->category[k][static_cast<size_t>(line.seat)].Add(v);
    }
  }
  for (auto it = t.extra.begin(); it != t.extra.end(); ++it)
    if (it->is_string() || it->is_boolean()) {
      const std::string v = it->is_string() ? it->get<std::string>() : (it->get<bool>() ? "true" : "false");
      Json& counts = p->extras[it.key()];
      if (!counts.is_object()) counts = Json::object();
      counts[v] = counts.value(v, 0) + 1;
    }
}
}  // namespace

Status Simulate(const RulesFactory& factory, const SimulationSpec& spec, SimulationReport* report) {
  if (spec.games < 1) return Status::Input("-n must be at least 1");
  if (spec.threads < 1 || spec.threads > 64) return Status::Input("--threads must be between 1 and 64");
  if (spec.bots.empty()) return Status::Input("at least one bot is needed");
  for (const auto& b : spec.bots) {
    std::string error;
    if (!MakeBot(b, 0, &error)) return Status::Input(error);
  }
  std::atomic<int> next{0}, done{0};
  std::mutex mu;
  std::vector<Partial> parts(static_cast<size_t>(spec.threads));
  Status first_failure;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&](int t) {
    std::unique_ptr<Rules> rules;
    Status st = factory(&rules);
    if (!st.ok()) {
      std::lock_guard<std::mutex> lock(mu);
      if (first_failure.ok()) first_failure = st;
      return;
    }
    Partial& p = parts[static_cast<size_t>(t)];
    for (;;) {
      const int g = next.fetch_add(1);
      if (g >= spec.games) break;
      const uint64_t seed = spec.seed + static_cast<uint64_t>(g);
      std::vector<std::unique_ptr<Bot>> owned;
      std::vector<Bot*> bots;
      for (int s = 0; s < spec.players; ++s) {
        std::string error;
        owned.push_back(MakeBot(spec.bots[static_cast<size_t>(s) % spec.bots.size()], seed * 31 + static_cast<uint64_t>(s), &error));
        bots.push_back(owned.back().get());
      }
      State state;
      st = rules->NewGame(spec.params, spec.players, seed, &state);
      PlayResult result;
      if (st.ok()) {
        state.record = false;
        st = PlayOut(*rules, &state, bots, &result);
      }
      if (!st.ok()) {
        ++p.failed;
        if (p.errors.size() < 5) p.errors.push_back("seed " + std::to_string(seed) + ": " + st.message);
        if (st.kind == ErrorKind::kInput && state.seats.empty()) {
          std::lock_guard<std::mutex> lock(mu);
          if (first_failure.ok()) first_failure = st;
          break;
        }
      } else {
        ++p.games;
        Accumulate(result.scores, spec.players, &p);
      }
      const int d = done.fetch_add(1) + 1;
      if (spec.progress && t == 0 && (d % std::max(1, spec.games / 50) == 0 || d == spec.games)) {
        const int width = 30;
        const int filled = static_cast<int>(static_cast<double>(d) / spec.games * width);
        std::fprintf(stderr, "\r[%s%s] %d/%d", std::string(static_cast<size_t>(filled), '#').c_str(),
                     std::string(static_cast<size_t>(width - filled), '.').c_str(), d, spec.games);
        std::fflush(stderr);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < spec.threads; ++t) threads.emplace_back(worker, t);
  worker(0);
  for (auto& th : threads) th.join();
  if (spec.progress) std::fprintf(stderr, "\r%60s\r", "");
  if (!first_failure.ok()) return first_failure;

  SimulationReport r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.seat_totals.resize(static_cast<size_t>(spec.players));
  r.seat_wins.assign(static_cast<size_t>(spec.players), 0);
  for (int s = 0; s < spec.players; ++s)
    r.seat_names.push_back("P" + std::to_string(s + 1) + " (" + spec.bots[static_cast<size_t>(s) % spec.bots.size()] + ")");
  for (const auto& p : parts) {
    r.games += p.games;
    r.failed += p.failed;
    for (size_t s = 0; s < p.totals.size(); ++s) {
      r.seat_totals[s].Merge(p.totals[s]);
      r.seat_wins[s] += p.wins[s];
    }
    for (size_t k = 0; k < p.categories.size(); ++k) {
      size_t j = 0;
      while (j < r.categories.size() && r.categories[j] != p.categories[k]) ++j;
      if (j == r.categories.size()) {
        r.categories.push_back(p.categories[k]);
        r.category.emplace_back(static_cast<size_t>(spec.players));
      }
      for (size_t s = 0; s < p.category[k].size(); ++s) r.category[j][s].Merge(p.category[k][s]);
    }
    for (const auto& e : p.errors)
      if (r.first_errors.size() < 5) r.first_errors.push_back(e);
    for (auto it = p.extras.begin(); it != p.extras.end(); ++it) {
      Json& counts = r.extra_counts[it.key()];
      if (!counts.is_object()) counts = Json::object();
      for (auto v = it->begin(); v != it->end(); ++v) counts[v.key()] = counts.value(v.key(), 0) + v->get<int>();
    }
  }
  *report = std::move(r);
  return Status::Ok();
}

static Json StatJson(const Stat& s) {
  return {{"mean", s.Mean()}, {"stdev", s.Stdev()}, {"min", s.n ? s.min : 0}, {"max", s.n ? s.max : 0}};
}

Json SimulationReport::ToJson() const {
  Json j;
  j["games"] = games;
  j["failed"] = failed;
  j["seconds"] = seconds;
  j["games_per_second"] = GamesPerSecond();
  Json seats = Json::array();
  for (size_t s = 0; s < seat_totals.size(); ++s) {
    Json e = StatJson(seat_totals[s]);
    e["seat"] = seat_names[s];
    e["win_rate"] = games ? seat_wins[s] / games : 0;
    seats.push_back(std::move(e));
  }
  j["seats"] = std::move(seats);
  Json cats = Json::object();
  for (size_t k = 0; k < categories.size(); ++k) {
    Json per = Json::array();
    Stat all;
    for (const auto& s : category[k]) {
      per.push_back(StatJson(s));
      all.Merge(s);
    }
    cats[categories[k]] = {{"all", StatJson(all)}, {"seats", std::move(per)}};
  }
  j["categories"] = std::move(cats);
  if (!extra_counts.empty()) j["outcomes"] = extra_counts;
  if (!first_errors.empty()) j["errors"] = first_errors;
  return j;
}

std::string SimulationReport::ToText() const {
  std::ostringstream out;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%d games (%d failed) in %.2f s: %.1f games/s\n\n", games, failed, seconds, GamesPerSecond());
  out << buf;
  out << "seat                 mean   stdev    min    max   win rate\n";
  for (size_t s = 0; s < seat_totals.size(); ++s) {
    const Stat& t = seat_totals[s];
    std::snprintf(buf, sizeof buf, "%-18s %6.1f %7.1f %6lld %6lld   %6.1f%%\n", seat_names[s].c_str(), t.Mean(), t.Stdev(),
                  static_cast<long long>(t.n ? t.min : 0), static_cast<long long>(t.n ? t.max : 0),
                  games ? 100.0 * seat_wins[s] / games : 0.0);
    out << buf;
  }
  if (!categories.empty()) {
    out << "\ncategory (mean per seat)";
    for (size_t s = 0; s < seat_totals.size(); ++s) {
      std::snprintf(buf, sizeof buf, "%8s", ("P" + std::to_string(s + 1)).c_str());
      out << buf;
    }
    out << "     all   stdev\n";
    for (size_t k = 0; k < categories.size(); ++k) {
      std::snprintf(buf, sizeof buf, "%-24s", categories[k].c_str());
      out << buf;
      Stat all;
      for (const auto& s : category[k]) {
        std::snprintf(buf, sizeof buf, "%8.2f", s.Mean());
        out << buf;
        all.Merge(s);
      }
      std::snprintf(buf, sizeof buf, "%8.2f%8.2f\n", all.Mean(), all.Stdev());
      out << buf;
    }
  }
  if (!extra_counts.empty()) out << "\noutcomes: " << extra_counts.dump() << "\n";
  for (const auto& e : first_errors) out << "error: " << e << "\n";
  return out.str();
}

}  // namespace plateau
