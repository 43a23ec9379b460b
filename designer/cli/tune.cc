// plateau tune (see tune.h): knobs and targets parsed and checked before any game runs, the
// search (NLopt: a global DIRECT pass, then a local subplex pass from the best point found),
// the close candidates run again with more games, a confirmation on other seeds, the
// sensitivity of each target to each knob around the best point, and the verdict.
#include "designer/cli/tune.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <nlopt.hpp>
#include <set>
#include <thread>

#include "designer/cli/cli_common.h"
#include "designer/cli/merge.h"
#include "designer/cli/process.h"
#include "host/text.h"
#include "host/json_io.h"
#include "host/simulate.h"

namespace plateau {
namespace {

using scripting::LuaRules;
constexpr double kInf = std::numeric_limits<double>::infinity();
// The confirmation plays other seeds than the search: a setting picked for the noise of the
// search's seeds shows it there.
constexpr uint64_t kConfirmSeedOffset = 1000003;
// A target counts as met "within noise" when it misses by at most this many standard errors.
constexpr double kNoiseSe = 2.0;

// A number the search may change: a parameter or a data value, over [lo, hi] in steps of
// `step` (0: any value in between).
struct Knob {
  std::string name;
  bool param = false;
  bool integer = false;
  double lo = 0, hi = 0, step = 0;
  double start = 0;  // the game's value (with --set and --set-file), moved into [lo, hi]
};

// "<measure> <op> <value>": the measure must lie in [lo, hi] (one side infinite for <=, >=).
struct Target {
  std::string text, measure, kind, name;
  double lo = -kInf, hi = kInf;
};

struct Measured {
  double value = 0, se = 0;
};

struct Candidate {
  std::vector<double> values;
  std::string phase;  // start, global, local, confirm, sensitivity
  int games = 0;
  uint64_t seed = 0;
  std::vector<Measured> measures;
  std::vector<double> misses;  // per target: how far outside its range, in standard errors (0: met)
  double distance = 0;         // the objective: the sum of the squared misses
  double seconds = 0;
  int failed = 0;
  std::string failure;  // why the rules failed at this setting ("" when they did not)
};

const char* const kKinds[][2] = {
    {"rounds", "mean game length"},
    {"top_score", "mean winning total"},
    {"spread", "mean winner-minus-last"},
    {"stopped", "share of games stopped by a round limit"},
    {"win_spread", "best seat's win rate minus worst seat's"},
    {"win_rate:<seat or bot>", "win rate of a seat (P1, 1) or a bot (greedy)"},
    {"score:<seat>", "mean total of a seat"},
    {"seat_edge:<seat or bot>", "win rate minus a fair share (the report's seat balance; a bot: with --rotate-seats)"},
    {"ending:<name>", "share of games that ended so"},
    {"count:<name>", "mean per game of one of the game's counts"},
    {"player:<name>", "mean per player-game of a per-player stat"},
    {"per_game:<name>", "a per-player stat summed over the seats, per game"},
    {"happened:<name>", "share of player-games where a per-player stat was above 0"},
    {"win_when:<name>", "win rate of the players for whom it happened"},
    {"tag:<name>", "share of games with the tag"},
    {"category:<name>", "mean points per player-game in a score category"},
    {"card_points:<card>", "points per copy placed"},
    {"pick_rate:<card>", "share of offers where the card was picked"},
    {"lead_changes", "mean changes of the sole leader per game (README \"How the game feels\")"},
    {"lead_for_good", "share of the game played before the winner leads for good (mean)"},
    {"drama", "share of games the winner won from last place or from far behind"},
    {"score_gap:<25|50|75|100>", "mean gap between leader and second at that % of the game"},
    {"dead_turns", "mean share of a game's decisions with one legal move or moves all valued the same"},
    {"kingmaking", "share of sampled games where a player who could no longer win chose who wins"},
};

std::string KindList() {
  std::string out;
  for (const auto& k : kKinds) out += std::string("\n  ") + k[0] + ": " + k[1];
  return out;
}

// Knob bounds and target values: finite, within ±1e15 (an integer knob stays exact).
bool ParseNumber(const std::string& text, double* v) {
  std::string ignored;
  return ParseReal(text, -1e15, 1e15, "", v, &ignored);
}

std::string Num(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return Format("%.0f", v);
  return Format("%.4g", v);
}

Json KnobJson(const Knob& k, double v) {
  if (k.integer) return static_cast<int64_t>(std::llround(v));
  return v;
}

std::string ValuesText(const std::vector<Knob>& knobs, const std::vector<double>& values) {
  std::string out;
  for (size_t i = 0; i < knobs.size(); ++i) out += (i ? "  " : "") + knobs[i].name + "=" + Num(values[i]);
  return out;
}

// The knobs' names cut to the shortest endings of two or more segments that still tell them
// apart ("insurer.price" for chenilles.events.insurer.price), for the one line per candidate.
std::vector<std::string> ShortNames(const std::vector<Knob>& knobs) {
  auto ending = [](const std::string& name, int segments) {
    size_t at = name.size();
    for (int i = 0; i < segments; ++i) {
      if (at == 0 || at == std::string::npos) return name;
      at = name.rfind('.', at - 1);
      if (at == std::string::npos) return name;
    }
    return name.substr(at + 1);
  };
  std::vector<std::string> out;
  for (const auto& k : knobs) {
    std::string name = k.name;
    for (int segments = 2; segments < 16; ++segments) {
      const std::string tail = ending(k.name, segments);
      bool unique = true;
      for (const auto& other : knobs)
        if (&other != &k && ending(other.name, segments) == tail) unique = false;
      if (unique || tail == k.name) {
        name = tail;
        break;
      }
    }
    out.push_back(name);
  }
  return out;
}

// ---- knobs -----------------------------------------------------------------------------------

Status ParseKnob(const std::string& arg, const LuaRules& rules, const Json& params, Knob* k) {
  const size_t eq = arg.find('=');
  const std::string form = "--vary " + arg + ": expected <name or data.path>=<lo>..<hi>[:<step>], e.g. chenilles.powers.dromedary_income=0..3";
  if (eq == std::string::npos || eq == 0) return Status::Input(form);
  k->name = arg.substr(0, eq);
  const std::string range = arg.substr(eq + 1);
  const size_t dots = range.find("..");
  if (dots == std::string::npos) return Status::Input(form);
  std::string lo_text = range.substr(0, dots), hi_text = range.substr(dots + 2), step_text;
  const size_t colon = hi_text.find(':');
  if (colon != std::string::npos) {
    step_text = hi_text.substr(colon + 1);
    hi_text = hi_text.substr(0, colon);
  }
  if (!ParseNumber(lo_text, &k->lo) || !ParseNumber(hi_text, &k->hi) || (!step_text.empty() && !ParseNumber(step_text, &k->step)))
    return Status::Input(form);
  if (k->lo > k->hi) return Status::Input("--vary " + arg + ": the range is empty (" + lo_text + " > " + hi_text + ")");
  if (!step_text.empty() && k->step <= 0) return Status::Input("--vary " + arg + ": the step must be positive");
  // What the knob is now, and whether it holds integers.
  Json current;
  if (k->name.find('.') == std::string::npos) {
    k->param = true;
    const ParamSpec* spec = nullptr;
    for (const auto& p : rules.info().params)
      if (p.name == k->name) spec = &p;
    if (!spec) {
      std::string names;
      for (const auto& p : rules.info().params)
        if (p.type == "integer" || p.type == "number") names += (names.empty() ? "" : ", ") + p.name;
      return Status::Input("--vary " + k->name + ": " + rules.info().id + " has no parameter '" + k->name +
                           "' (numeric parameters: " + (names.empty() ? "none" : names) +
                           "; a data value is named <data>.<path>)");
    }
    if (spec->type != "integer" && spec->type != "number")
      return Status::Input("--vary " + k->name + ": the parameter is a " + spec->type + "; only numbers can be tuned");
    k->integer = spec->type == "integer";
    current = params.contains(k->name) ? params[k->name] : spec->default_value;
  } else {
    Status st = ReadDataValue(rules.files(), k->name, &current, "--vary");
    if (!st.ok()) return st;
    if (!current.is_number())
      return Status::Input("--vary " + k->name + ": its value is " + DumpJson(current) + "; only numbers can be tuned");
    k->integer = current.is_number_integer();
  }
  if (k->integer) {
    if (k->lo != std::floor(k->lo) || k->hi != std::floor(k->hi) || (k->step != 0 && k->step != std::floor(k->step)))
      return Status::Input("--vary " + arg + ": " + k->name + " holds integers; give whole numbers for the range and step");
    if (k->step == 0) k->step = 1;
  }
  const double now = current.is_number() ? current.get<double>() : k->lo;
  k->start = std::clamp(now, k->lo, k->hi);
  if (k->step > 0) k->start = k->lo + std::round((k->start - k->lo) / k->step) * k->step;
  k->start = std::min(k->start, k->hi);
  return Status::Ok();
}

// The knob's value at u in [0, 1]: on the step grid, inside the range.
double Snap(const Knob& k, double u) {
  double v = k.lo + std::clamp(u, 0.0, 1.0) * (k.hi - k.lo);
  if (k.step > 0) v = k.lo + std::round((v - k.lo) / k.step) * k.step;
  v = std::clamp(v, k.lo, k.hi);
  if (k.integer) return std::round(v);
  return std::round(v * 1e9) / 1e9;
}

double Unit(const Knob& k, double v) { return k.hi > k.lo ? (v - k.lo) / (k.hi - k.lo) : 0.5; }

// --set arguments that put the knobs at `values`.
std::vector<std::string> KnobSets(const std::vector<Knob>& knobs, const std::vector<double>& values) {
  std::vector<std::string> out;
  for (size_t i = 0; i < knobs.size(); ++i) out.push_back(knobs[i].name + "=" + KnobJson(knobs[i], values[i]).dump());
  return out;
}

// ---- targets ---------------------------------------------------------------------------------

Status ParseTarget(const std::string& arg, Target* t) {
  t->text = arg;
  const std::string form = "--target " + arg +
                           ": expected <measure><op><value> with op one of <= >= < > =, or <measure>=<lo>..<hi>, "
                           "e.g. rounds=12..16 or happened:insured>=0.05";
  const size_t at = arg.find_first_of("<>=");
  if (at == std::string::npos || at == 0) return Status::Input(form);
  std::string op(1, arg[at]);
  size_t value_at = at + 1;
  if (value_at < arg.size() && arg[value_at] == '=' && op != "=") {
    op += "=";
    ++value_at;
  }
  t->measure = arg.substr(0, at);
  while (!t->measure.empty() && t->measure.back() == ' ') t->measure.pop_back();
  std::string value = arg.substr(value_at);
  while (!value.empty() && value.front() == ' ') value.erase(value.begin());
  double v = 0;
  const size_t dots = value.find("..");
  if (op == "=" && dots != std::string::npos) {
    if (!ParseNumber(value.substr(0, dots), &t->lo) || !ParseNumber(value.substr(dots + 2), &t->hi)) return Status::Input(form);
    if (t->lo > t->hi) return Status::Input("--target " + arg + ": the range is empty (from > to)");
  } else {
    if (!ParseNumber(value, &v)) return Status::Input(form);
    // A simulation's measures are averages: "<" and "<=" ask the same of them.
    if (op == "<" || op == "<=") t->hi = v;
    else if (op == ">" || op == ">=") t->lo = v;
    else t->lo = t->hi = v;
  }
  const size_t colon = t->measure.find(':');
  t->kind = t->measure.substr(0, colon);
  t->name = colon == std::string::npos ? "" : t->measure.substr(colon + 1);
  for (const auto& k : kKinds) {
    std::string kind = k[0];
    const bool named = kind.find(':') != std::string::npos;
    kind = kind.substr(0, kind.find(':'));
    if (kind != t->kind) continue;
    if (named && t->name.empty())
      return Status::Input("--target " + arg + ": " + kind + " needs a name: " + k[0]);
    if (!named && colon != std::string::npos)
      return Status::Input("--target " + arg + ": " + kind + " takes no name");
    return Status::Ok();
  }
  return Status::Input("--target " + arg + ": unknown measure '" + t->measure + "'; the measures are:" + KindList());
}

// A share of n trials: its standard error, kept away from 0 at the ends (k = 0 or n) so that a
// target on a rare event still has a finite scale.
double ShareSe(double k, double n) {
  if (n <= 0) return 0.5;
  const double p = (k + 1) / (n + 2);
  return std::sqrt(p * (1 - p) / n);
}

double MeanSe(const Stat& s) { return s.n > 1 ? s.Stdev() / std::sqrt(static_cast<double>(s.n)) : std::fabs(s.Mean()) + 1; }

// The seat a target names: "P2", "2", or a seat's full name.
int SeatIndex(const SimulationReport& r, const std::string& name) {
  for (size_t s = 0; s < r.seat_names.size(); ++s) {
    const std::string& full = r.seat_names[s];
    if (full == name || full.substr(0, full.find(' ')) == name || std::to_string(s + 1) == name) return static_cast<int>(s);
  }
  return -1;
}

template <class Map>
std::string Keys(const Map& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + k;
  return out.empty() ? "none" : out;
}

// The measure of `t` in `r`, or an error listing the names the report has for its kind.
Status Measure(const SimulationReport& r, const Target& t, Measured* m) {
  const double games = r.games;
  auto missing = [&](const std::string& what, const std::string& names) {
    return Status::Input("--target " + t.text + ": no " + what + " '" + t.name + "' in " + std::to_string(r.games) +
                         " games of this setting (" + what + "s: " + names + ")");
  };
  if (t.kind == "rounds" || t.kind == "top_score" || t.kind == "spread") {
    const Stat& s = t.kind == "rounds" ? r.rounds : t.kind == "top_score" ? r.top_score : r.spread;
    *m = {s.Mean(), MeanSe(s)};
  } else if (t.kind == "stopped") {
    *m = {games ? r.stopped / games : 0, ShareSe(r.stopped, games)};
  } else if (t.kind == "win_spread") {
    double best = 0, worst = 1;
    for (double w : r.seat_wins) {
      best = std::max(best, games ? w / games : 0);
      worst = std::min(worst, games ? w / games : 0);
    }
    const double p = r.players ? 1.0 / r.players : 0.5;
    *m = {best - worst, std::sqrt(2 * p * (1 - p) / std::max(1.0, games))};
  } else if (t.kind == "win_rate" || t.kind == "score") {
    const int seat = SeatIndex(r, t.name);
    if (seat >= 0) {
      const size_t s = static_cast<size_t>(seat);
      if (t.kind == "win_rate") *m = {games ? r.seat_wins[s] / games : 0, ShareSe(r.seat_wins[s], games)};
      else *m = {r.seat_totals[s].Mean(), MeanSe(r.seat_totals[s])};
    } else if (t.kind == "win_rate" && r.bots.count(t.name)) {
      const BotRecord& b = r.bots.at(t.name);
      const double n = static_cast<double>(b.player_games);
      *m = {n ? b.wins / n : 0, ShareSe(b.wins, n)};
    } else {
      std::string names;
      for (const auto& s : r.seat_names) names += (names.empty() ? "" : ", ") + s.substr(0, s.find(' '));
      if (t.kind == "win_rate") names += "; bots: " + Keys(r.bots);
      return Status::Input("--target " + t.text + ": no seat" + (t.kind == "win_rate" ? " or bot" : "") + " '" + t.name +
                           "' (seats: " + names + ")");
    }
  } else if (t.kind == "seat_edge") {
    const int seat = SeatIndex(r, t.name);
    WinBalance b;
    if (seat >= 0) b = r.SeatBalance(static_cast<size_t>(seat));
    else if (r.bots.count(t.name)) b = r.BotBalance(t.name);
    else return Status::Input("--target " + t.text + ": no seat or bot '" + t.name + "' (bots: " + Keys(r.bots) + ")");
    if (!b.tested)
      return Status::Input("--target " + t.text + ": '" + t.name + "' has no fair share to measure an edge against (a seat "
                           "needs another seat played by the same bot; a bot needs --rotate-seats and another bot)");
    *m = {b.edge, ShareSe(b.rate * b.n, b.n)};
  } else if (t.kind == "ending") {
    const auto it = r.endings.find(t.name);
    if (it == r.endings.end() && r.endings.size() == 0) return missing("ending", "none");
    const double k = it == r.endings.end() ? 0 : static_cast<double>(it->second);
    *m = {games ? k / games : 0, ShareSe(k, games)};
  } else if (t.kind == "count") {
    const auto it = r.counts.find(t.name);
    if (it == r.counts.end()) return missing("count", Keys(r.counts));
    *m = {it->second.Mean(), MeanSe(it->second)};
  } else if (t.kind == "player" || t.kind == "per_game" || t.kind == "happened" || t.kind == "win_when") {
    const auto it = r.metrics.find(t.name);
    if (it == r.metrics.end()) return missing("per-player stat", Keys(r.metrics));
    const PlayerMetric& pm = it->second;
    const double n = static_cast<double>(pm.value.n), h = static_cast<double>(pm.happened);
    if (t.kind == "player") *m = {pm.value.Mean(), MeanSe(pm.value)};
    else if (t.kind == "per_game") *m = {games ? pm.value.sum / games : 0, MeanSe(pm.value) * std::max(1, r.players)};
    else if (t.kind == "happened") *m = {n ? h / n : 0, ShareSe(h, n)};
    else *m = {h ? pm.wins_when / h : 0, ShareSe(pm.wins_when, h)};
  } else if (t.kind == "tag") {
    const auto it = r.tags.find(t.name);
    // A tag that did not come up in these games is a share of 0, unless no game has tags at all.
    if (it == r.tags.end() && r.tags.empty()) return missing("tag", "none");
    const double k = it == r.tags.end() ? 0 : static_cast<double>(it->second.games);
    *m = {games ? k / games : 0, ShareSe(k, games)};
  } else if (t.kind == "category") {
    size_t k = 0;
    while (k < r.categories.size() && r.categories[k] != t.name) ++k;
    if (k == r.categories.size()) {
      std::string names;
      for (const auto& c : r.categories) names += (names.empty() ? "" : ", ") + c;
      return missing("category", names.empty() ? "none" : names);
    }
    Stat all;
    for (const auto& s : r.category[k]) all.Merge(s);
    *m = {all.Mean(), MeanSe(all)};
  } else if (t.kind == "card_points" || t.kind == "pick_rate") {
    const auto it = r.cards.find(t.name);
    if (it == r.cards.end()) return missing("card", Keys(r.cards));
    const CardBalance& b = it->second;
    if (t.kind == "card_points") {
      const double copies = static_cast<double>(b.copies), holders = static_cast<double>(b.points.n);
      const double per_holder = holders ? copies / holders : 1;
      *m = {b.PerCopy(), MeanSe(b.points) / std::max(1.0, per_holder)};
    } else {
      *m = {b.offered ? static_cast<double>(b.picked) / static_cast<double>(b.offered) : 0,
            ShareSe(static_cast<double>(b.picked), static_cast<double>(b.offered))};
    }
  } else if (t.kind == "lead_changes" || t.kind == "lead_for_good" || t.kind == "dead_turns" || t.kind == "score_gap") {
    const FeelRecord& f = r.feel;
    if (f.games == 0)
      return Status::Input("--target " + t.text + ": no game's score over time to measure (it needs two players or more)");
    const Stat* s = t.kind == "lead_changes" ? &f.lead_changes : t.kind == "lead_for_good" ? &f.lead_for_good
                                                                                            : t.kind == "dead_turns" ? &f.dead
                                                                                                                     : nullptr;
    if (!s) {
      for (int i = 0; i < 4; ++i)
        if (t.name == Format("%.0f", 100 * kGapAt[i]) || t.name == Format("%.0f%%", 100 * kGapAt[i])) s = &f.gap[i];
      if (!s) return Status::Input("--target " + t.text + ": score_gap is read at 25, 50, 75 or 100 (% of the game), not '" + t.name + "'");
    }
    *m = {s->Mean(), MeanSe(*s)};
  } else if (t.kind == "drama") {
    const double n = static_cast<double>(r.feel.lead_for_good.n);
    *m = {n ? static_cast<double>(r.feel.drama) / n : 0, ShareSe(static_cast<double>(r.feel.drama), n)};
  } else if (t.kind == "kingmaking") {
    const double n = static_cast<double>(r.feel.kingmaking_games);
    if (n == 0)
      return Status::Input("--target " + t.text + ": no game was searched for kingmaking (--kingmaking 0, or fewer than 3 "
                           "players: with two, a player who cannot win has no one else to hand the win to)");
    *m = {static_cast<double>(r.feel.kingmaking_found) / n, ShareSe(static_cast<double>(r.feel.kingmaking_found), n)};
  } else {
    return Status::Input("--target " + t.text + ": unknown measure");
  }
  return Status::Ok();
}

// How far the measure lies outside the target's range, in standard errors (0 inside). The
// scale never falls under a small share of the bound, so a measure without noise still ranks
// candidates by how far they miss.
double Miss(const Target& t, const Measured& m) {
  const double outside = m.value < t.lo ? t.lo - m.value : m.value > t.hi ? m.value - t.hi : 0;
  if (outside <= 0) return 0;
  const double bound = std::isfinite(t.lo) ? t.lo : t.hi;
  const double scale = std::max(m.se, 1e-3 * std::max(1.0, std::fabs(bound)));
  return outside / scale;
}

std::string Verdict(double miss) {
  if (miss <= 0) return "met";
  if (miss <= kNoiseSe) return "within noise";
  return "missed";
}

// An effect is within noise when it lies less than kNoiseSe standard errors from no change.
bool WithinNoise(double change, double se) { return std::fabs(change) < kNoiseSe * se; }

std::string RangeText(const Target& t) {
  if (t.lo == t.hi) return "= " + Num(t.lo);
  if (!std::isfinite(t.lo)) return "<= " + Num(t.hi);
  if (!std::isfinite(t.hi)) return ">= " + Num(t.lo);
  return "in " + Num(t.lo) + ".." + Num(t.hi);
}

// ---- candidates on many machines (--shards, --runner) -------------------------------------

std::string SelfPath() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("plateau");
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

}  // namespace

// The argument vector that runs slice k of n: the runner's words (split as a shell would split
// them, but never handed to one) with {cmd} standing alone for the slice's plateau command as
// words of their own, {shell_cmd} inside a word for that command quoted for a shell at the
// other end (ssh), and {k}, {n} for the slice's number.
Status RunnerArgv(const std::string& runner, const std::vector<std::string>& cmd, int k, int n,
                  std::vector<std::string>* out) {
  out->clear();
  std::vector<std::string> words;
  std::string error;
  if (!SplitWords(runner, &words, &error)) return Status::Input("--runner " + TerminalText(runner) + ": " + error);
  std::string shell_cmd;
  for (const auto& a : cmd) shell_cmd += (shell_cmd.empty() ? "" : " ") + ShellWord(a);
  bool has_cmd = false;
  const std::string program = words.front().substr(words.front().rfind('/') == std::string::npos ? 0 : words.front().rfind('/') + 1);
  for (const auto& w : words) {
    if (w == "{cmd}") {
      // ssh joins its arguments into one line for the remote shell: words would be re-split there.
      if (program == "ssh")
        return Status::Input("--runner " + TerminalText(runner) + ": ssh hands its command to the remote shell; write "
                             "{shell_cmd} there (the command quoted for that shell), not {cmd}");
      out->insert(out->end(), cmd.begin(), cmd.end());
      has_cmd = true;
      continue;
    }
    if (w.find("{cmd}") != std::string::npos)
      return Status::Input("--runner " + TerminalText(runner) + ": {cmd} stands alone as words of its own; inside a word "
                           "(a command line for a shell) write {shell_cmd}");
    if (w.find("{shell_cmd}") != std::string::npos) has_cmd = true;
    out->push_back(Replaced(Replaced(Replaced(w, "{shell_cmd}", shell_cmd), "{k}", std::to_string(k)), "{n}", std::to_string(n)));
  }
  if (!has_cmd)
    return Status::Input("--runner " + TerminalText(runner) + ": the command must contain {cmd} (or {shell_cmd}), where each "
                         "slice's plateau command goes (e.g. --runner 'srun -N1 {cmd}' or 'ssh host{k} {shell_cmd}')");
  return Status::Ok();
}

namespace {

// The plateau command of one candidate's slices, without its --shard.
std::vector<std::string> SliceCommand(const ReportOptions& run, const std::vector<std::string>& sets) {
  std::string game = run.game;
  if (game.find('/') != std::string::npos) {
    char* full = realpath(game.c_str(), nullptr);
    if (full) {
      game = full;
      free(full);
    }
  }
  std::vector<std::string> cmd = {SelfPath(), "simulate", game, "-n", std::to_string(run.games), "--seed",
                                  std::to_string(run.seed), "--bots", run.bots, "--max-rounds", std::to_string(run.max_rounds),
                                  "--format", "json"};
  if (run.players) cmd.insert(cmd.end(), {"--players", std::to_string(run.players)});
  if (run.rotate_seats) cmd.push_back("--rotate-seats");
  cmd.insert(cmd.end(), {"--kingmaking", std::to_string(run.kingmaking)});
  for (const auto& s : sets) cmd.insert(cmd.end(), {"--set", s});
  return cmd;
}

// One candidate's run as `shards` slices, each a `plateau simulate --shard k/N` command run by the
// runner, side by side; their reports merged. A slice whose command fails, or prints no report,
// makes the candidate fail with the command's last words.
Status RunSharded(const TuneOptions& o, const ReportOptions& run, const std::vector<std::string>& sets,
                  SimulationReport* report) {
  const std::vector<std::string> base = SliceCommand(run, sets);
  const int n = o.shards;
  std::vector<ProcessResult> results(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int k = 1; k <= n; ++k) {
    std::vector<std::string> cmd = base;
    cmd.insert(cmd.end(), {"--shard", std::to_string(k) + "/" + std::to_string(n)});
    std::vector<std::string> argv;
    Status st = RunnerArgv(o.runner, cmd, k, n, &argv);
    if (!st.ok()) {
      for (auto& t : threads) t.join();
      return st;
    }
    threads.emplace_back([&results, k, argv = std::move(argv)] { results[static_cast<size_t>(k - 1)] = RunProcess(argv); });
  }
  for (auto& t : threads) t.join();
  std::vector<std::pair<std::string, Json>> docs;
  for (int k = 1; k <= n; ++k) {
    const size_t i = static_cast<size_t>(k - 1);
    const std::string name = "shard " + std::to_string(k) + "/" + std::to_string(n);
    Json j;
    std::string parse_error;
    const bool parsed = ParseJsonLimited(results[i].out, name, &j, &parse_error, ShardReportLimits());
    if (!results[i].ok() || !parsed || !j.is_object()) {
      std::string said = results[i].err;
      while (!said.empty() && said.back() == '\n') said.pop_back();
      if (said.size() > 2000) said = "..." + said.substr(said.size() - 2000);
      return Status::Input(name + ": the runner's command " +
                           (results[i].ok() ? std::string("printed no report") : results[i].Describe()) +
                           (said.empty() ? std::string() : ": " + TerminalText(said, true)));
    }
    docs.emplace_back(name, std::move(j));
  }
  ReportOptions merged;
  SimulationSpec spec;
  Json card_data;
  return MergeShardReports(std::move(docs), &merged, &spec, report, &card_data);
}

// ---- the search ------------------------------------------------------------------------------

struct Search {
  const TuneOptions& options;
  std::vector<Knob> knobs;
  std::vector<Target> targets;
  bool text = true;
  bool progress = false;
  std::vector<Candidate> candidates;       // every run, in order
  std::map<std::string, size_t> cache;     // values + games + seed -> index into candidates
  int budget_candidates = 0;               // 0: no limit on the number
  double budget_seconds = 0;               // 0: no time limit
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  int searched = 0;                        // distinct candidates of the start, global and local phases
  bool out_of_budget = false;
  Status error = Status::Ok();             // a failed run stops the search; this says why

  explicit Search(const TuneOptions& o) : options(o) {}

  double Elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  bool BudgetLeft() const {
    if (budget_candidates > 0 && searched >= budget_candidates) return false;
    if (budget_seconds > 0 && Elapsed() >= budget_seconds) return false;
    return true;
  }

  static std::string Key(const std::vector<double>& values, int games, uint64_t seed) {
    std::string k;
    for (double v : values) k += Format("%.12g,", v);
    return k + Format("n%d,s%llu", games, static_cast<unsigned long long>(seed));
  }

  // Runs (or finds) the candidate; returns its index, or -1 once `error` is set.
  long Evaluate(const std::vector<double>& values, const std::string& phase, int games, uint64_t seed) {
    if (!error.ok()) return -1;
    const std::string key = Key(values, games, seed);
    const auto hit = cache.find(key);
    if (hit != cache.end()) return static_cast<long>(hit->second);
    std::vector<std::string> sets = options.run.sets;
    for (auto& s : KnobSets(knobs, values)) sets.push_back(std::move(s));
    ReportOptions run = options.run;
    run.games = games;
    run.seed = seed;
    SimulationReport report;
    SimulationSpec spec;
    const auto t0 = std::chrono::steady_clock::now();
    Status st = options.shards > 0 ? RunSharded(options, run, sets, &report) : RunReport(run, sets, false, &report, &spec);
    Candidate c;
    c.values = values;
    c.phase = phase;
    c.games = report.games;
    c.seed = seed;
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // A setting the rules refuse or fail at (a range wider than the rules allow, a bug that only
    // shows at some numbers) is a candidate that lost, not the end of the search: the search
    // goes on and the verdict lists it.
    if (!st.ok() || report.failed) {
      c.failure = !st.ok() ? (st.script_failure() ? st.ToString() : st.message)
                           : (report.first_errors.empty() ? std::string("a game failed") : report.first_errors.front());
      // The message and where it happened; `plateau simulate` at that setting shows the traceback.
      const size_t trace = c.failure.find("\nstack traceback:");
      if (trace != std::string::npos) c.failure.resize(trace);
      c.failed = 1;
      c.measures.assign(targets.size(), Measured{});
      c.misses.assign(targets.size(), kInf);
      c.distance = kInf;
      return Add(std::move(c), key);
    }
    for (const auto& t : targets) {
      // An ending or a tag may come up only at some settings, so a name the first candidate's
      // games never showed is a warning (its share is 0 there), not an error like a typo in a
      // stat's name, which every game reports.
      if (candidates.empty() && t.kind == "ending" && !report.endings.count(t.name))
        std::fprintf(stderr, "plateau: warning: --target %s: no game of the first candidate ended '%s' (endings seen: %s)\n",
                     t.text.c_str(), t.name.c_str(), Keys(report.endings).c_str());
      if (candidates.empty() && t.kind == "tag" && !report.tags.count(t.name))
        std::fprintf(stderr, "plateau: warning: --target %s: no game of the first candidate had the tag '%s' (tags seen: %s)\n",
                     t.text.c_str(), t.name.c_str(), Keys(report.tags).c_str());
      Measured m;
      st = Measure(report, t, &m);
      if (!st.ok()) {
        error = st;
        return -1;
      }
      c.measures.push_back(m);
      c.misses.push_back(Miss(t, m));
      c.distance += c.misses.back() * c.misses.back();
    }
    return Add(std::move(c), key);
  }

  long Add(Candidate c, const std::string& key) {
    const std::string phase = c.phase;
    candidates.push_back(std::move(c));
    cache[key] = candidates.size() - 1;
    if (phase == "start" || phase == "global" || phase == "local") ++searched;
    Print(candidates.back(), candidates.size());
    return static_cast<long>(candidates.size() - 1);
  }

  // One line per candidate: its values, each target's measure and verdict ("near": within
  // two standard errors), and the distance the search minimises.
  void Print(const Candidate& c, size_t number) const {
    const std::vector<std::string> short_names = ShortNames(knobs);
    std::string line = Format("#%-3zu %-11s", number, c.phase.c_str());
    for (size_t i = 0; i < knobs.size(); ++i) line += " " + short_names[i] + "=" + Num(c.values[i]);
    line += "  |";
    if (c.failed) line += " failed: " + c.failure.substr(0, c.failure.find('\n'));
    for (size_t i = 0; i < targets.size() && !c.failed; ++i) {
      const char* verdict = c.misses[i] <= 0 ? "met" : c.misses[i] <= kNoiseSe ? "near" : "miss";
      line += Format("%s %s %s %s", i ? "," : "", targets[i].measure.c_str(), Format("%.3g", c.measures[i].value).c_str(), verdict);
    }
    if (!c.failed) line += Format("  | distance %.3g (%d games, %.1f s)", c.distance, c.games, c.seconds);
    if (text) std::printf("%s\n", line.c_str());
    else if (progress) std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stdout);
  }

  // One NLopt pass over the unit cube from `u`; true when it stopped by itself (it settled),
  // false when the budget stopped it.
  bool Pass(nlopt::algorithm algorithm, std::vector<double>* u, const std::string& phase, int max_new) {
    const unsigned d = static_cast<unsigned>(knobs.size());
    nlopt::opt opt(algorithm, d);
    opt.set_lower_bounds(std::vector<double>(d, 0.0));
    opt.set_upper_bounds(std::vector<double>(d, 1.0));
    // Below half a step the snapped values no longer change: the pass has settled.
    std::vector<double> xtol(d), dx(d);
    for (unsigned i = 0; i < d; ++i) {
      const Knob& k = knobs[i];
      const double width = k.hi - k.lo;
      const double step = k.step > 0 && width > 0 ? k.step / width : 1e-3;
      xtol[i] = step / 2;
      dx[i] = std::max(2 * step, 0.1);
    }
    opt.set_xtol_abs(xtol);
    if (algorithm != nlopt::GN_DIRECT_L) opt.set_initial_step(dx);
    // Repeated points cost nothing (cached); the cap on calls only guards against a pass that
    // keeps asking for the same few points.
    opt.set_maxeval(std::max(50, 40 * max_new));
    struct Ctx {
      Search* self;
      nlopt::opt* opt;
      std::string phase;
      int new_left;
      bool stopped_by_budget = false;
    } ctx{this, &opt, phase, max_new};
    opt.set_min_objective(
        [](unsigned n, const double* x, double*, void* data) -> double {
          auto* c = static_cast<Ctx*>(data);
          Search* s = c->self;
          std::vector<double> values(n);
          for (unsigned i = 0; i < n; ++i) values[i] = Snap(s->knobs[i], x[i]);
          const std::string key = Key(values, s->options.run.games, s->options.run.seed);
          const auto hit = s->cache.find(key);
          if (hit != s->cache.end()) return std::min(s->candidates[hit->second].distance, 1e300);
          if (c->new_left <= 0 || !s->BudgetLeft() || !s->error.ok()) {
            c->stopped_by_budget = s->error.ok();
            c->opt->force_stop();
            return 1e300;
          }
          --c->new_left;
          const long at = s->Evaluate(values, c->phase, s->options.run.games, s->options.run.seed);
          if (at < 0) {
            c->opt->force_stop();
            return 1e300;
          }
          return std::min(s->candidates[static_cast<size_t>(at)].distance, 1e300);
        },
        &ctx);
    double best = 0;
    try {
      opt.optimize(*u, best);
    } catch (const nlopt::forced_stop&) {
    } catch (const std::exception&) {
      // A roundoff-limited end or similar: the points it ran stay in `candidates`.
    }
    if (opt.get_numevals() >= opt.get_maxeval()) ctx.stopped_by_budget = true;
    return !ctx.stopped_by_budget;
  }

  size_t Best(const std::set<std::string>& phases) const {
    size_t best = candidates.size();
    for (size_t i = 0; i < candidates.size(); ++i)
      if (phases.count(candidates[i].phase) && (best == candidates.size() || candidates[i].distance < candidates[best].distance))
        best = i;
    return best;
  }
};

Status ParseBudget(const std::string& text, int* candidates, double* seconds) {
  *candidates = 0;
  *seconds = 0;
  const std::string form = "--budget " + text + ": give a number of candidates (40) or a time (90s, 5m)";
  if (text.empty()) return Status::Input(form);
  const char unit = text.back();
  double v = 0;
  if (unit == 's' || unit == 'm' || unit == 'h') {
    if (!ParseNumber(text.substr(0, text.size() - 1), &v) || v <= 0) return Status::Input(form);
    *seconds = v * (unit == 's' ? 1 : unit == 'm' ? 60 : 3600);
    return Status::Ok();
  }
  if (!ParseNumber(text, &v) || v < 1 || v != std::floor(v) || v > 100000) return Status::Input(form);
  *candidates = static_cast<int>(v);
  return Status::Ok();
}

Json CandidateJson(const Search& s, const Candidate& c) {
  Json values = Json::object(), measures = Json::array();
  for (size_t i = 0; i < s.knobs.size(); ++i) values[s.knobs[i].name] = KnobJson(s.knobs[i], c.values[i]);
  if (c.failed) return {{"phase", c.phase}, {"values", values}, {"seed", c.seed}, {"failure", c.failure}};
  for (size_t i = 0; i < s.targets.size(); ++i)
    measures.push_back({{"target", s.targets[i].text}, {"value", c.measures[i].value}, {"se", c.measures[i].se},
                        {"miss_se", c.misses[i]}, {"verdict", Verdict(c.misses[i])}});
  return {{"phase", c.phase},   {"values", values},     {"games", c.games}, {"seed", c.seed},
          {"measures", measures}, {"distance", c.distance}, {"seconds", c.seconds}};
}

}  // namespace

int RunTune(const TuneOptions& options) {
  if (options.format != "text" && options.format != "json") return Fail(Status::Input("--format must be text or json"));
  if (options.vary.empty()) return Fail(Status::Input("give at least one --vary <name or data.path>=<lo>..<hi>[:<step>]"));
  if (options.targets.empty()) return Fail(Status::Input("give at least one --target <measure><op><value>"));
  Search s(options);
  s.text = options.format == "text";
  s.progress = isatty(2);
  Status st = ParseBudget(options.budget, &s.budget_candidates, &s.budget_seconds);
  if (!st.ok()) return Fail(st);
  if (options.shards < 0 || options.shards > 4096) return Fail(Status::Input("--shards: from 1 to 4096 slices per candidate"));
  if (options.runner != "{cmd}" && options.shards == 0)
    return Fail(Status::Input("--runner runs the slices of --shards N: give --shards too"));
  // The overlay the whole search is for: a path it could not be written to is refused first.
  if (!options.write_path.empty()) {
    Status st = CheckOutputFile(UserOutput(options.write_path, OutputKind::kOverlay, "--write"));
    if (!st.ok()) return Fail(st);
  }
  if (options.shards > 0) {
    std::vector<std::string> argv;
    Status st = RunnerArgv(options.runner, {"plateau"}, 1, options.shards, &argv);
    if (!st.ok()) return Fail(st);
  }

  // Everything is checked before any game runs: the game, the knobs (names, ranges, and each end
  // of each range against the data's schema or the parameter's bounds), the targets.
  std::vector<DataOverride> data_sets;
  st = ParseDataSets(options.run.sets, &data_sets);
  if (!st.ok()) return Fail(st);
  std::unique_ptr<LuaRules> probe;
  st = LoadRules(options.run.game, &probe, &data_sets);
  if (!st.ok()) return Fail(st);
  Json given, params;
  st = ParseSets(options.run.sets, &given);
  if (st.ok()) st = ResolveParams(probe->info(), given, &params);
  if (!st.ok()) return Fail(st);
  std::set<std::string> names;
  for (const auto& v : options.vary) {
    Knob k;
    st = ParseKnob(v, *probe, params, &k);
    if (!st.ok()) return Fail(st);
    if (!names.insert(k.name).second) return Fail(Status::Input("--vary " + k.name + " is given twice"));
    s.knobs.push_back(k);
  }
  for (int end = 0; end < 2; ++end) {
    std::vector<double> values;
    for (const auto& k : s.knobs) values.push_back(end ? k.hi : k.lo);
    std::vector<std::string> sets = options.run.sets;
    for (auto& x : KnobSets(s.knobs, values)) sets.push_back(std::move(x));
    std::vector<DataOverride> at_end;
    Json at_params, resolved;
    st = ParseDataSets(sets, &at_end);
    std::unique_ptr<LuaRules> check;
    if (st.ok()) st = LoadRules(options.run.game, &check, &at_end);
    if (st.ok()) st = ParseSets(sets, &at_params);
    if (st.ok()) st = ResolveParams(probe->info(), at_params, &resolved);
    if (!st.ok()) {
      st.message = "--vary: the range's " + std::string(end ? "upper" : "lower") + " end is refused: " + st.message;
      return Fail(st);
    }
  }
  for (const auto& t : options.targets) {
    Target target;
    st = ParseTarget(t, &target);
    if (!st.ok()) return Fail(st);
    s.targets.push_back(target);
  }
  const int n = options.run.games;
  const int confirm_n = options.confirm_games > 0 ? options.confirm_games : 4 * n;

  if (s.text) {
    std::printf("tune %s: %zu knob%s, %zu target%s, %d games per candidate (seeds %llu..%llu for every candidate), budget %s\n",
                options.run.game.c_str(), s.knobs.size(), s.knobs.size() == 1 ? "" : "s", s.targets.size(),
                s.targets.size() == 1 ? "" : "s", n, options.run.seed, options.run.seed + static_cast<unsigned long long>(n) - 1,
                s.budget_candidates ? (std::to_string(s.budget_candidates) + " candidates").c_str()
                                    : Format("%.0f s", s.budget_seconds).c_str());
    for (const auto& k : s.knobs)
      std::printf("  knob   %s in %s..%s%s, from %s\n", k.name.c_str(), Num(k.lo).c_str(), Num(k.hi).c_str(),
                  k.step > 0 ? (" step " + Num(k.step)).c_str() : " (continuous)", Num(k.start).c_str());
    for (const auto& t : s.targets) std::printf("  target %s %s\n", t.measure.c_str(), RangeText(t).c_str());
    std::printf("\n");
  }

  // 1. The game as it is; 2. a global pass over the whole box; 3. a local pass from the best.
  std::vector<double> start;
  for (const auto& k : s.knobs) start.push_back(k.start);
  s.Evaluate(start, "start", n, options.run.seed);
  bool settled = false;
  if (s.error.ok() && s.BudgetLeft()) {
    std::vector<double> u(s.knobs.size(), 0.5);
    const int global = s.budget_candidates ? std::max(1, (s.budget_candidates - s.searched) * 3 / 5) : 1 << 30;
    s.Pass(nlopt::GN_DIRECT_L, &u, "global", global);
  }
  if (s.error.ok() && s.BudgetLeft()) {
    const Candidate& best = s.candidates[s.Best({"start", "global"})];
    std::vector<double> u;
    for (size_t i = 0; i < s.knobs.size(); ++i) u.push_back(Unit(s.knobs[i], best.values[i]));
    settled = s.Pass(nlopt::LN_SBPLX, &u, "local", s.budget_candidates ? s.budget_candidates - s.searched : 1 << 30);
  }
  if (!s.error.ok()) return Fail(s.error);
  s.out_of_budget = !settled;

  // 4. The candidates to confirm: every candidate of the search that met every target (or came
  // within noise of it) on its games, however many tie; when none did, the three closest. Each
  // plays the confirmation's seeds, which no search candidate played, and the verdict is read
  // from those runs only, so it cannot contradict the log.
  auto met = [](const Candidate& c, size_t t) { return !c.failed && c.misses[t] <= kNoiseSe; };
  auto met_all = [&](const Candidate& c) {
    if (c.failed) return false;
    for (size_t t = 0; t < s.targets.size(); ++t)
      if (!met(c, t)) return false;
    return true;
  };
  std::vector<size_t> order;
  for (size_t i = 0; i < s.candidates.size(); ++i)
    if (!s.candidates[i].failed) order.push_back(i);
  if (order.empty()) {
    const Candidate& first = s.candidates.front();
    return Fail({ErrorKind::kScript, "every setting tried failed; at " + ValuesText(s.knobs, first.values) + ": " +
                                         first.failure, {}, {}});
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.candidates[a].distance < s.candidates[b].distance; });
  std::vector<size_t> to_confirm;  // indices of search candidates, by distance, each setting once
  std::set<std::vector<double>> seen;
  size_t search_met = 0;
  for (size_t i : order)
    if (met_all(s.candidates[i]) && seen.insert(s.candidates[i].values).second) to_confirm.push_back(i);
  search_met = to_confirm.size();
  for (size_t i : order) {
    if (to_confirm.size() >= 3 || search_met) break;
    if (seen.insert(s.candidates[i].values).second) to_confirm.push_back(i);
  }
  // 5. Confirmation on seeds no candidate played; the best confirmed run is the result: one that
  // met every target there before one that did not, then the smallest distance there (a tie goes
  // to the one closer on the search's seeds, as they are confirmed in that order).
  std::vector<size_t> confirmed;  // indices of the confirmation runs, in the order of to_confirm
  long confirm_at = -1;
  for (size_t i : to_confirm) {
    const std::vector<double> values = s.candidates[i].values;
    const long at = s.Evaluate(values, "confirm", confirm_n, options.run.seed + kConfirmSeedOffset);
    if (at < 0) return Fail(s.error);
    confirmed.push_back(static_cast<size_t>(at));
    const Candidate& c = s.candidates[static_cast<size_t>(at)];
    if (c.failed) continue;
    if (confirm_at < 0) {
      confirm_at = at;
      continue;
    }
    const Candidate& b = s.candidates[static_cast<size_t>(confirm_at)];
    if (met_all(c) > met_all(b) || (met_all(c) == met_all(b) && c.distance < b.distance)) confirm_at = at;
  }
  if (confirm_at < 0) {
    const Candidate& c = s.candidates[confirmed.front()];
    return Fail({ErrorKind::kScript, "the best setting, " + ValuesText(s.knobs, c.values) +
                                         ", fails on the confirmation's seeds: " + c.failure, {}, {}});
  }
  const Candidate confirm = s.candidates[static_cast<size_t>(confirm_at)];
  const std::vector<double> best_values = confirm.values;
  size_t confirm_met = 0;
  for (size_t at : confirmed) confirm_met += met_all(s.candidates[at]);

  // 6. Sensitivity: each knob one step (or a tenth of its range) each way from the best point.
  struct Sensitivity {
    double delta = 0;
    std::vector<double> change;  // per target: the measure's change for +delta
    std::vector<double> se;      // per target: the change's standard error
    double weight = 0;           // sum over targets of |change| / se
  };
  std::vector<Sensitivity> sens(s.knobs.size());
  for (size_t i = 0; i < s.knobs.size(); ++i) {
    const Knob& k = s.knobs[i];
    double delta = k.step > 0 ? k.step : (k.hi - k.lo) / 10;
    if (k.step > 0 && delta < (k.hi - k.lo) / 20) delta = std::ceil((k.hi - k.lo) / 20 / k.step) * k.step;
    sens[i].delta = delta;
    std::vector<double> lo = best_values, hi = best_values;
    lo[i] = std::max(k.lo, best_values[i] - delta);
    hi[i] = std::min(k.hi, best_values[i] + delta);
    if (hi[i] <= lo[i]) {
      sens[i].change.assign(s.targets.size(), 0);
      sens[i].se.assign(s.targets.size(), 0);
      continue;
    }
    // Both sides play the confirmation's seeds and number of games: the effect is measured as
    // precisely as the verdict, and the two sides differ by the knob, not by their luck.
    const uint64_t confirm_seed = options.run.seed + kConfirmSeedOffset;
    const long a = s.Evaluate(lo, "sensitivity", confirm_n, confirm_seed);
    const long b = a < 0 ? -1 : s.Evaluate(hi, "sensitivity", confirm_n, confirm_seed);
    if (b < 0) return Fail(s.error);
    const Candidate& ca = s.candidates[static_cast<size_t>(a)];
    const Candidate& cb = s.candidates[static_cast<size_t>(b)];
    if (ca.failed || cb.failed) {  // no slope: the rules fail one move away (the verdict lists it)
      sens[i].change.assign(s.targets.size(), std::nan(""));
      sens[i].se.assign(s.targets.size(), std::nan(""));
      continue;
    }
    for (size_t t = 0; t < s.targets.size(); ++t) {
      const double slope = (cb.measures[t].value - ca.measures[t].value) / (hi[i] - lo[i]);
      sens[i].change.push_back(slope * delta);
      // The two runs' errors added as if independent: an upper bound, as their common seeds
      // make their errors alike and the difference's true error smaller.
      sens[i].se.push_back(std::hypot(ca.measures[t].se, cb.measures[t].se) * delta / (hi[i] - lo[i]));
      sens[i].weight += std::fabs(slope * delta) / std::max(confirm.measures[t].se, 1e-9);
    }
  }
  std::vector<size_t> knob_order;
  for (size_t i = 0; i < s.knobs.size(); ++i) knob_order.push_back(i);
  std::stable_sort(knob_order.begin(), knob_order.end(), [&](size_t a, size_t b) { return sens[a].weight > sens[b].weight; });

  // 7. The verdict, from the confirmation runs only: met (every target met on the confirmation
  // seeds), met within noise (some only within kNoiseSe standard errors), not confirmed (search
  // candidates met them, none of them did on the confirmation seeds), or cannot be met (no
  // candidate met them). For the targets some run missed: those no candidate ever met, and the
  // pairs no candidate met together.
  std::vector<size_t> missed, noisy;
  for (size_t t = 0; t < s.targets.size(); ++t) {
    if (!met(confirm, t)) missed.push_back(t);
    else if (confirm.misses[t] > 0) noisy.push_back(t);
  }
  const std::string status = missed.empty() ? (noisy.empty() ? "met" : "met_within_noise")
                             : search_met ? "not_confirmed" : "cannot_be_met";
  std::vector<size_t> never;
  std::vector<std::pair<size_t, size_t>> conflicts;
  if (status == "cannot_be_met") {
    for (size_t t = 0; t < s.targets.size(); ++t) {
      bool any = false;
      for (const auto& c : s.candidates) any = any || met(c, t);
      if (!any) never.push_back(t);
    }
    for (size_t a = 0; a < s.targets.size(); ++a)
      for (size_t b = a + 1; b < s.targets.size(); ++b) {
        if (std::find(never.begin(), never.end(), a) != never.end() || std::find(never.begin(), never.end(), b) != never.end()) continue;
        bool both = false;
        for (const auto& c : s.candidates) both = both || (met(c, a) && met(c, b));
        if (!both) conflicts.push_back({a, b});
      }
  }
  // The candidate that came closest to each target never met, for the message.
  auto closest = [&](size_t t) {
    size_t at = 0;
    for (size_t i = 0; i < s.candidates.size(); ++i)
      if (s.candidates[at].failed || (!s.candidates[i].failed && s.candidates[i].misses[t] < s.candidates[at].misses[t])) at = i;
    return at;
  };

  size_t failures = 0;
  const Candidate* first_failure = nullptr;
  for (const auto& c : s.candidates)
    if (c.failed && !failures++) first_failure = &c;

  Json overlay_values = Json::object();
  for (size_t i = 0; i < s.knobs.size(); ++i) overlay_values[s.knobs[i].name] = KnobJson(s.knobs[i], best_values[i]);
  Json confirm_json = CandidateJson(s, confirm);
  if (!options.write_path.empty()) {
    Json overlay;
    overlay["$comment"] = "Written by plateau tune: the tuned values, applied with --set-file over the game's data. "
                          "The game's own files are unchanged.";
    overlay["plateau_overlay"] = 1;
    overlay["game"] = probe->info().id;
    overlay["values"] = overlay_values;
    Json targets = Json::array();
    for (const auto& t : s.targets) targets.push_back(t.text);
    overlay["tune"] = {{"targets", targets}, {"confirmation", confirm_json}, {"all_met", missed.empty()}, {"status", status},
                       {"fixed_sets", options.run.sets}, {"bots", options.run.bots}};
    st = WriteOutputFile(UserOutput(options.write_path, OutputKind::kOverlay, "--write"), DumpJson(overlay, 2) + "\n");
    if (!st.ok()) return Fail(st);
  }

  if (s.text) {
    std::printf("\nbest: %s\n", ValuesText(s.knobs, best_values).c_str());
    std::printf("  (the game's values: %s)\n", ValuesText(s.knobs, start).c_str());
    std::printf("\nconfirmation: %d games on other seeds (%llu..%llu)\n", confirm.games,
                options.run.seed + kConfirmSeedOffset, options.run.seed + kConfirmSeedOffset + confirm.games - 1);
    for (size_t t = 0; t < s.targets.size(); ++t)
      std::printf("  %-12s %-34s %s ± %s  (target %s)\n", Verdict(confirm.misses[t]).c_str(), s.targets[t].measure.c_str(),
                  Num(confirm.measures[t].value).c_str(), Num(confirm.measures[t].se).c_str(), RangeText(s.targets[t]).c_str());
    std::printf("\nwhat each knob does around the best point (each measure's change when the knob goes up one move,\n"
                "± its standard error; within noise: less than %.0f standard errors from no change), most effect first:\n",
                kNoiseSe);
    for (size_t i : knob_order) {
      std::string line = Format("  %s +%s:", s.knobs[i].name.c_str(), Num(sens[i].delta).c_str());
      for (size_t t = 0; t < s.targets.size(); ++t) {
        line += Format("%s %s %s%s ± %s", t ? "," : "", s.targets[t].measure.c_str(), sens[i].change[t] >= 0 ? "+" : "",
                       Format("%.3g", sens[i].change[t]).c_str(), Format("%.2g", sens[i].se[t]).c_str());
        if (WithinNoise(sens[i].change[t], sens[i].se[t])) line += " (within noise)";
      }
      if (!sens[i].change.empty() && std::isnan(sens[i].change[0]))
        line = Format("  %s +%s: the rules fail one move away (below)", s.knobs[i].name.c_str(), Num(sens[i].delta).c_str());
      std::printf("%s\n", line.c_str());
    }
    std::printf("\n");
    std::printf("confirmed %zu setting%s on the confirmation seeds: %s\n", confirmed.size(), confirmed.size() == 1 ? "" : "s",
                search_met ? Format("every one of the %zu that met the targets on the search's games", search_met).c_str()
                           : "none met the targets on the search's games, so the closest");
    if (confirmed.size() > 1)
      std::printf("  %zu of them met every target there%s\n", confirm_met,
                  confirm_met > 1 ? " (the best is the closest there; the others are as good within noise)" : "");
    if (status == "met") {
      std::printf("all %zu targets met on the confirmation seeds.\n", s.targets.size());
    } else if (status == "met_within_noise") {
      std::printf("all %zu targets met on the confirmation seeds, %zu only within noise (less than %.0f standard errors past its bound):\n",
                  s.targets.size(), noisy.size(), kNoiseSe);
      for (size_t t : noisy)
        std::printf("  %s: %s ± %s, %.2g standard errors past it\n", s.targets[t].text.c_str(), Num(confirm.measures[t].value).c_str(),
                    Num(confirm.measures[t].se).c_str(), confirm.misses[t]);
    } else if (status == "not_confirmed") {
      std::printf("%zu of %zu targets not met on the confirmation seeds: %zu setting%s met them on the search's games but none did on "
                  "other seeds, so they were met by the luck of those games; the closest there is the best above. More games "
                  "per candidate (-n) may find a setting that holds.\n",
                  missed.size(), s.targets.size(), search_met, search_met == 1 ? "" : "s");
    } else {
      std::printf("%zu of %zu targets not met: no candidate met them all, so they cannot all be met within these ranges",
                  missed.size(), s.targets.size());
      std::printf(s.out_of_budget ? " (as far as this budget searched).\n" : ".\n");
      std::printf("  the closest: %s (confirmation above)\n", ValuesText(s.knobs, best_values).c_str());
      for (size_t t : never) {
        const Candidate& c = s.candidates[closest(t)];
        std::printf("  %s: no candidate met it; closest %s at %s\n", s.targets[t].text.c_str(),
                    Num(c.measures[t].value).c_str(), ValuesText(s.knobs, c.values).c_str());
      }
      for (const auto& [a, b] : conflicts)
        std::printf("  %s and %s pull against each other: candidates met each, none met both\n", s.targets[a].text.c_str(),
                    s.targets[b].text.c_str());
    }
    if (failures) {
      std::printf("%zu setting%s failed, the first at %s:\n  %s\n", failures, failures == 1 ? "" : "s",
                  ValuesText(s.knobs, first_failure->values).c_str(), first_failure->failure.c_str());
    }
    if (s.out_of_budget)
      std::printf("the search used its whole budget (%d candidates, %.0f s) before it settled: a larger --budget may come closer.\n",
                  s.searched, s.Elapsed());
    else
      std::printf("the search settled after %d candidates (%.0f s).\n", s.searched, s.Elapsed());
    if (!options.write_path.empty())
      std::printf("wrote %s: apply it with --set-file %s (play, simulate, test, watch, studio)\n", options.write_path.c_str(),
                  options.write_path.c_str());
  } else {
    Json j;
    j["game"] = options.run.game;
    j["games_per_candidate"] = n;
    j["seed"] = options.run.seed;
    j["bots"] = options.run.bots;
    j["fixed_sets"] = options.run.sets;
    Json knobs = Json::array(), targets = Json::array(), candidates = Json::array(), sensitivity = Json::array();
    for (const auto& k : s.knobs)
      knobs.push_back({{"name", k.name}, {"lo", KnobJson(k, k.lo)}, {"hi", KnobJson(k, k.hi)},
                       {"step", k.step > 0 ? Json(k.step) : Json()}, {"start", KnobJson(k, k.start)}});
    for (const auto& t : s.targets)
      targets.push_back({{"target", t.text}, {"measure", t.measure}, {"lo", std::isfinite(t.lo) ? Json(t.lo) : Json()},
                         {"hi", std::isfinite(t.hi) ? Json(t.hi) : Json()}});
    for (const auto& c : s.candidates) candidates.push_back(CandidateJson(s, c));
    for (size_t i : knob_order) {
      Json change = Json::object(), change_se = Json::object(), noise = Json::object();
      for (size_t t = 0; t < s.targets.size(); ++t)
      {
        const bool none = std::isnan(sens[i].change[t]);
        change[s.targets[t].text] = none ? Json() : Json(sens[i].change[t]);
        change_se[s.targets[t].text] = none ? Json() : Json(sens[i].se[t]);
        noise[s.targets[t].text] = none ? Json() : Json(WithinNoise(sens[i].change[t], sens[i].se[t]));
      }
      sensitivity.push_back({{"knob", s.knobs[i].name}, {"move", sens[i].delta}, {"change", change}, {"se", change_se},
                             {"within_noise", noise}, {"weight", sens[i].weight}});
    }
    Json verdict;
    verdict["all_met"] = missed.empty();
    verdict["status"] = status;
    Json jw = Json::array(), jconf = Json::array();
    for (size_t t : noisy) jw.push_back(s.targets[t].text);
    for (size_t at : confirmed) jconf.push_back(CandidateJson(s, s.candidates[at]));
    verdict["within_noise"] = jw;
    verdict["search_met"] = static_cast<int64_t>(search_met);
    verdict["confirmed"] = jconf;
    verdict["confirmed_met"] = static_cast<int64_t>(confirm_met);
    Json jm = Json::array(), jn = Json::array(), jc = Json::array();
    for (size_t t : missed) jm.push_back(s.targets[t].text);
    for (size_t t : never) jn.push_back({{"target", s.targets[t].text}, {"closest", CandidateJson(s, s.candidates[closest(t)])}});
    for (const auto& [a, b] : conflicts) jc.push_back({s.targets[a].text, s.targets[b].text});
    verdict["missed"] = jm;
    verdict["never_met"] = jn;
    verdict["conflicts"] = jc;
    Json jf = Json::array();
    for (const auto& c : s.candidates)
      if (c.failed) jf.push_back(CandidateJson(s, c));
    verdict["failed_settings"] = jf;
    verdict["out_of_budget"] = s.out_of_budget;
    verdict["candidates_searched"] = s.searched;
    verdict["seconds"] = s.Elapsed();
    j["knobs"] = knobs;
    j["targets"] = targets;
    j["candidates"] = candidates;
    j["best"] = overlay_values;
    j["confirmation"] = confirm_json;
    j["sensitivity"] = sensitivity;
    j["verdict"] = verdict;
    if (!options.write_path.empty()) j["overlay"] = options.write_path;
    std::printf("%s\n", DumpJson(j, 2).c_str());
  }
  return 0;
}

}  // namespace plateau
