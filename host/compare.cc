// Comparing two designer's reports (see compare.h). Means are compared with Welch's
// standard error, shares with the pooled two-proportion one: both need only what the report's
// JSON already holds (mean, stdev and the number of games or player-games behind them).
#include "host/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

#include "host/simulate.h"

namespace plateau {
namespace {

double Num(const Json& j, const char* key, double fallback = 0) {
  if (!j.is_object()) return fallback;
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

// j[key], or null when j is not an object or has no such key: a baseline is a file, and a
// file may hold anything.
const Json& Get(const Json& j, const char* key) {
  static const Json null;
  if (!j.is_object()) return null;
  auto it = j.find(key);
  return it != j.end() ? *it : null;
}

// The keys of either object, sorted (a side that is not an object has none).
std::vector<std::string> KeysOfEither(const Json& b, const Json& a) {
  std::vector<std::string> names;
  for (const Json* side : {&b, &a})
    if (side->is_object())
      for (auto it = side->begin(); it != side->end(); ++it) names.push_back(it.key());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// A value as a note shows it: JSON, cut short.
std::string Shown(const Json& v) {
  if (v.is_null()) return "(absent)";
  std::string t = DumpJson(v);
  return t.size() > 60 ? t.substr(0, 57) + "..." : t;
}

// Whether every element of the array is an object with a distinct string "id" (a list of
// cards, tiles, animals): its elements are then named and matched by id, as --set names them.
bool ById(const Json& list) {
  std::set<std::string> ids;
  for (const auto& e : list)
    if (!e.is_object() || !e.contains("id") || !e["id"].is_string() || !ids.insert(e["id"].get<std::string>()).second)
      return false;
  return true;
}

// Every value that differs between two data documents, named as --set names it
// (<data>.<key>.<index or id>...).
void DataDiff(const Json& b, const Json& a, const std::string& path, std::vector<std::string>* out) {
  if (b == a) return;
  if (b.is_object() && a.is_object()) {
    for (const auto& key : KeysOfEither(b, a)) DataDiff(Get(b, key.c_str()), Get(a, key.c_str()), path + "." + key, out);
    return;
  }
  if (b.is_array() && a.is_array()) {
    if (ById(b) && ById(a)) {
      std::vector<std::string> ids;
      std::map<std::string, const Json*> in_b, in_a;
      for (const auto& e : b) {
        ids.push_back(e["id"].get<std::string>());
        in_b[ids.back()] = &e;
      }
      for (const auto& e : a) {
        const std::string id = e["id"].get<std::string>();
        if (!in_b.count(id)) ids.push_back(id);
        in_a[id] = &e;
      }
      static const Json null;
      for (const auto& id : ids)
        DataDiff(in_b.count(id) ? *in_b[id] : null, in_a.count(id) ? *in_a[id] : null, path + "." + id, out);
      return;
    }
    static const Json null;
    for (size_t i = 0; i < std::max(b.size(), a.size()); ++i)
      DataDiff(i < b.size() ? b[i] : null, i < a.size() ? a[i] : null, path + "." + std::to_string(i), out);
    return;
  }
  out->push_back(path + ": " + Shown(b) + " before, " + Shown(a) + " now");
}

class Comparer {
 public:
  Comparer(const Json& before, const Json& after, double change_z) : b_(before), a_(after), change_z_(change_z) {
    games_b_ = Num(b_, "games");
    games_a_ = Num(a_, "games");
    players_b_ = std::max(1.0, Num(b_, "players", 1));
    players_a_ = std::max(1.0, Num(a_, "players", 1));
  }

  // The seats of one game share its events, so per-player measures are not independent over
  // player-games: their standard errors count games (or, for a card, the games it was
  // placed in at most), which errs on the side of fewer false alarms.
  Json Run() {
    Settings();
    Mean("length (rounds)", Get(b_, "rounds"), Get(a_, "rounds"), games_b_, games_a_, true);
    Mean("winning total", Get(b_, "top_score"), Get(a_, "top_score"), games_b_, games_a_, true);
    Mean("spread first-last", Get(b_, "spread"), Get(a_, "spread"), games_b_, games_a_, true);
    Seats();
    Bots();
    Feel();
    Shares("ending", Get(b_, "endings"), Get(a_, "endings"));
    Share("stopped games", Num(b_, "stopped"), games_b_, Num(a_, "stopped"), games_a_, true);
    PerKey("categories", [&](const std::string& name, const Json& b, const Json& a) {
      Mean("category " + name + " (per player)", Get(b, "all"), Get(a, "all"), games_b_, games_a_, false);
    });
    PerKey("counts", [&](const std::string& name, const Json& b, const Json& a) {
      Mean(name + " (per game)", b, a, games_b_, games_a_, false);
    });
    PerKey("player_metrics", [&](const std::string& name, const Json& b, const Json& a) {
      Mean(name + " (per player)", b, a, games_b_, games_a_, false);
      // Players it happened to, counted as games' worth of players.
      const double hb = Num(b, "happened_rate") * games_b_, ha = Num(a, "happened_rate") * games_a_;
      Share("win rate of players with " + name, Num(b, "win_rate_when_happened") * hb, hb,
            Num(a, "win_rate_when_happened") * ha, ha, false);
    });
    // The cards the edit touched: their data entry differs between the two reports (a file
    // edit or a --set). Their rows are always shown, changed or not.
    const Json& db = Get(b_, "card_data");
    const Json& da = Get(a_, "card_data");
    for (const auto& id : KeysOfEither(db, da))
      if (Get(db, id.c_str()) != Get(da, id.c_str())) touched_.insert(id);
    PerKey("cards", [&](const std::string& name, const Json& b, const Json& a) {
      touching_ = touched_.count(name) > 0;
      Json mb = {{"mean", Num(b, "mean_points")}, {"stdev", Num(b, "points_stdev")}};
      Json ma = {{"mean", Num(a, "mean_points")}, {"stdev", Num(a, "points_stdev")}};
      Mean("card " + name + " points (per player who placed it)", mb, ma,
           std::min(games_b_, Num(b, "player_games")), std::min(games_a_, Num(a, "player_games")), false);
      Share("card " + name + " pick rate", Num(b, "pick_rate") * games_b_, games_b_, Num(a, "pick_rate") * games_a_,
            games_a_, false);
      touching_ = false;
    });
    // A touched card that neither report has a row for (never placed nor offered) is named.
    Json untouched_rows = Json::array();
    for (const auto& id : touched_)
      if (Get(Get(b_, "cards"), id.c_str()).is_null() && Get(Get(a_, "cards"), id.c_str()).is_null())
        untouched_rows.push_back(id);
    // The table ordered by the size of the change: changes before the rest, each by |z|, exact
    // changes (no spread) first, measures not judged (too few games) last.
    std::vector<Json> rows(measures_.begin(), measures_.end());
    auto size = [](const Json& m) {
      if (!m.value("judged", true)) return -1.0;
      return m["z"].is_number() ? std::fabs(m["z"].get<double>()) : m.value("changed", false) ? 1e300 : 0.0;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const Json& x, const Json& y) {
      if (x.value("changed", false) != y.value("changed", false)) return x.value("changed", false);
      return size(x) > size(y);
    });
    measures_ = Json(rows);
    Json out = {{"settings", settings_}, {"measures", measures_}, {"changed", changed_},
                {"compared", static_cast<int64_t>(measures_.size())}, {"change_z", change_z_},
                {"touched_cards", Json(std::vector<std::string>(touched_.begin(), touched_.end()))},
                {"touched_without_rows", untouched_rows}};
    return out;
  }

 private:
  // Run settings that differ: the comparison still runs (comparing two parameter values is a
  // use), but the designer is told.
  void Settings() {
    for (const char* key : {"game", "players", "seed", "games", "rotate_seats", "max_rounds"}) {
      const Json& vb = Get(b_, key);
      const Json& va = Get(a_, key);
      if (vb != va) settings_.push_back(Format("%s: %s before, %s now", key, DumpJson(vb).c_str(), DumpJson(va).c_str()));
    }
    // Which bots played which seats (the bots' names when seats rotate).
    auto seat_bots = [](const Json& r) {
      Json out = Json::array();
      if (Get(r, "seats").is_array())
        for (const auto& s : Get(r, "seats")) out.push_back(Get(s, "bot"));
      return out;
    };
    auto bot_names = [](const Json& r) {
      Json out = Json::array();
      if (Get(r, "bots").is_object())
        for (auto it = Get(r, "bots").begin(); it != Get(r, "bots").end(); ++it) out.push_back(it.key());
      return out;
    };
    if (seat_bots(b_) != seat_bots(a_))
      settings_.push_back(Format("bots by seat: %s before, %s now", DumpJson(seat_bots(b_)).c_str(), DumpJson(seat_bots(a_)).c_str()));
    else if (bot_names(b_) != bot_names(a_))
      settings_.push_back(Format("bots: %s before, %s now", DumpJson(bot_names(b_)).c_str(), DumpJson(bot_names(a_)).c_str()));
    const Json& pb = Get(b_, "params");
    const Json& pa = Get(a_, "params");
    for (const auto& n : KeysOfEither(pb, pa)) {
      const Json& vb = Get(pb, n.c_str());
      const Json& va = Get(pa, n.c_str());
      if (vb != va)
        settings_.push_back(Format("parameter %s: %s before, %s now", n.c_str(), vb.is_null() ? "(absent)" : DumpJson(vb).c_str(),
                                va.is_null() ? "(absent)" : DumpJson(va).c_str()));
    }
    // The rules' files (Lua and data, overrides included): a different fingerprint is an edit.
    const Json& rb = Get(b_, "rules");
    const Json& ra = Get(a_, "rules");
    if (rb.is_string() && ra.is_string() && rb != ra)
      settings_.push_back(Format("rules: fingerprint %s before, %s now (the game's files or the values set over them changed)",
                                 rb.get<std::string>().c_str(), ra.get<std::string>().c_str()));
    else if (rb.is_string() != ra.is_string())
      settings_.push_back(Format("rules: the %s report carries no fingerprint (written before reports had one): whether the "
                                 "rules changed is not known", rb.is_string() ? "new" : "baseline"));
    const Json& bb = Get(b_, "bots_spec");
    const Json& ba = Get(a_, "bots_spec");
    if (bb.is_string() && ba.is_string() && bb != ba)
      settings_.push_back(Format("--bots: %s before, %s now", DumpJson(bb).c_str(), DumpJson(ba).c_str()));
    const Json& sb = Get(b_, "sets");
    const Json& sa = Get(a_, "sets");
    if (sb != sa && !(sb.is_null() && sa.is_array() && sa.empty()))
      settings_.push_back(Format("--set: %s before, %s now", DumpJson(sb).c_str(), DumpJson(sa).c_str()));
    // The data values in force (the files, --set and --set-file applied), value by value.
    const Json& db = Get(b_, "data");
    const Json& da = Get(a_, "data");
    if (db.is_object() && da.is_object()) {
      std::vector<std::string> diffs;
      for (const auto& file : KeysOfEither(db, da)) DataDiff(Get(db, file.c_str()), Get(da, file.c_str()), file, &diffs);
      constexpr size_t kNamed = 30;  // a rewritten file is summed up, not listed to the last value
      for (size_t i = 0; i < diffs.size() && i < kNamed; ++i) settings_.push_back("data " + diffs[i]);
      if (diffs.size() > kNamed)
        settings_.push_back(Format("data: %zu more values differ (the report's \"data\" holds them all)", diffs.size() - kNamed));
    } else if (db.is_object() != da.is_object()) {
      settings_.push_back(Format("data: the %s report carries no data values (written before reports had them): which "
                                 "values changed is not known", db.is_object() ? "new" : "baseline"));
    }
  }

  void Seats() {
    const Json& sb = Get(b_, "seats");
    const Json& sa = Get(a_, "seats");
    if (!sb.is_array() || !sa.is_array()) return;
    for (size_t s = 0; s < std::min(sb.size(), sa.size()); ++s) {
      const std::string name = "P" + std::to_string(s + 1);
      Mean("seat " + name + " total", sb[s], sa[s], games_b_, games_a_, true);
      Share("seat " + name + " win rate", Num(sb[s], "win_rate") * games_b_, games_b_, Num(sa[s], "win_rate") * games_a_,
            games_a_, true);
      Edge("seat " + name + " edge over a fair share", Get(sb[s], "balance"), Get(sa[s], "balance"), games_b_, games_a_);
    }
  }

  // How the game feels (README "How the game feels"): each measure over the games it counts.
  void Feel() {
    const Json& fb = Get(b_, "feel");
    const Json& fa = Get(a_, "feel");
    if (!fb.is_object() || !fa.is_object()) return;
    auto mean = [&](const std::string& name, const Json& b, const Json& a) { Mean(name, b, a, Num(b, "n"), Num(a, "n"), true); };
    auto share = [&](const std::string& name, const Json& b, const Json& a) {
      Share(name, Num(b, "count"), Num(b, "of"), Num(a, "count"), Num(a, "of"), true);
    };
    mean("lead changes per game", Get(fb, "lead_changes"), Get(fa, "lead_changes"));
    mean("winner leads for good from (share of the game)", Get(fb, "lead_for_good"), Get(fa, "lead_for_good"));
    share("drama: the winner came back", Get(fb, "drama"), Get(fa, "drama"));
    for (const auto& at : KeysOfEither(Get(fb, "score_gap"), Get(fa, "score_gap")))
      Mean("score gap leader-second at " + at, Get(Get(fb, "score_gap"), at.c_str()), Get(Get(fa, "score_gap"), at.c_str()),
           Num(Get(Get(fb, "score_gap"), at.c_str()), "n"), Num(Get(Get(fa, "score_gap"), at.c_str()), "n"), at == "100%");
    mean("dead turns (share of a game's decisions)", Get(fb, "dead_turns"), Get(fa, "dead_turns"));
    share("kingmaking (share of sampled games)", Get(fb, "kingmaking"), Get(fa, "kingmaking"));
  }

  void Bots() {
    const Json& bb = Get(b_, "bots");
    const Json& ba = Get(a_, "bots");
    if (!bb.is_object() || !ba.is_object() || ba.size() < 2) return;
    for (auto it = ba.begin(); it != ba.end(); ++it) {
      if (!bb.contains(it.key())) continue;
      const Json& b = bb[it.key()];
      const double nb = Num(b, "seats") * games_b_, na = Num(it.value(), "seats") * games_a_;
      Share("bot " + it.key() + " win rate", Num(b, "win_rate") * nb, nb, Num(it.value(), "win_rate") * na, na, true);
      Edge("bot " + it.key() + " edge over a fair share", Get(b, "balance"), Get(it.value(), "balance"), nb, na);
    }
  }

  // A win rate's edge over its fair share (the report's seat balance), where both sides have
  // one: its standard error is the two win rates' (the fair shares are the rates of the seats'
  // group, which this errs above).
  void Edge(const std::string& name, const Json& b, const Json& a, double nb, double na) {
    if (!Get(b, "edge").is_number() || !Get(a, "edge").is_number() || nb <= 0 || na <= 0) return;
    const double pb = Num(b, "win_rate"), pa = Num(a, "win_rate");
    const double se = std::sqrt(std::max(0.0, pb * (1 - pb)) / nb + std::max(0.0, pa * (1 - pa)) / na);
    Add(name, Num(b, "edge"), Num(a, "edge"), se, true, true, nb >= 2 && na >= 2);
  }

  // Counts by name (endings), as shares of the games; a name missing on one side is 0 there.
  void Shares(const std::string& what, const Json& b, const Json& a) {
    for (const auto& n : KeysOfEither(b, a))
      Share(what + " " + n, Num(b, n.c_str()), games_b_, Num(a, n.c_str()), games_a_, true);
  }

  template <typename F>
  void PerKey(const char* section, F each) {
    const Json& b = Get(b_, section);
    const Json& a = Get(a_, section);
    if (!b.is_object() || !a.is_object()) return;
    for (auto it = a.begin(); it != a.end(); ++it)
      if (b.contains(it.key())) each(it.key(), b[it.key()], it.value());
  }

  // Two means, each with its (population) stdev over n observations. Fewer than 2
  // observations on a side say nothing about its spread: shown, not judged.
  void Mean(const std::string& name, const Json& b, const Json& a, double nb, double na, bool headline) {
    if (!b.is_object() || !a.is_object() || nb <= 0 || na <= 0) return;
    const double mb = Num(b, "mean"), ma = Num(a, "mean");
    if (nb < 2 || na < 2) return Add(name, mb, ma, 0, headline, false, false);
    // Welch's test wants sample variances.
    const double vb = Num(b, "stdev") * Num(b, "stdev") * nb / (nb - 1), va = Num(a, "stdev") * Num(a, "stdev") * na / (na - 1);
    Add(name, mb, ma, std::sqrt(vb / nb + va / na), headline, false, true);
  }

  // Two shares: `xb` of `nb` against `xa` of `na`.
  void Share(const std::string& name, double xb, double nb, double xa, double na, bool headline) {
    if (nb <= 0 || na <= 0) return;
    const double pb = xb / nb, pa = xa / na, p = (xb + xa) / (nb + na);
    Add(name, pb, pa, std::sqrt(std::max(0.0, p * (1 - p)) * (1 / nb + 1 / na)), headline, true, nb >= 2 && na >= 2);
  }

  void Add(const std::string& name, double before, double after, double se, bool headline, bool share, bool judged) {
    const double d = after - before;
    Json m = {{"measure", name}, {"before", before}, {"after", after}, {"difference", d}, {"headline", headline},
              {"share", share}, {"judged", judged}};
    bool changed = false;
    m["z"] = nullptr;
    if (judged && se > 0) {
      const double z = d / se;
      m["z"] = z;
      changed = std::fabs(z) >= change_z_;
    } else if (judged) {
      // No spread on either side over several games: the values are certain, and any
      // difference is a change.
      changed = std::fabs(d) > 1e-9;
    }
    m["changed"] = changed;
    if (touching_) m["touched"] = true;
    if (changed) ++changed_;
    measures_.push_back(std::move(m));
  }

  const Json& b_;
  const Json& a_;
  double change_z_;
  double games_b_ = 0, games_a_ = 0, players_b_ = 1, players_a_ = 1;
  Json settings_ = Json::array();
  Json measures_ = Json::array();
  int64_t changed_ = 0;
  std::set<std::string> touched_;  // card ids whose data differs between the reports
  bool touching_ = false;          // the measures being added are a touched card's
};

std::string Value(const Json& m, const char* key) {
  const double v = m[key].get<double>();
  return m.value("share", false) ? Format("%.1f%%", 100 * v) : Format("%.2f", v);
}

std::string Line(const Json& m) {
  const double d = m["difference"].get<double>();
  const std::string diff = m.value("share", false) ? Format("%+.1f pts", 100 * d) : Format("%+.2f", d);
  const std::string z = m["z"].is_number()             ? Format("%+.1f", m["z"].get<double>())
                        : !m["judged"].get<bool>()      ? std::string("few")
                        : m["changed"].get<bool>()      ? std::string("exact")
                                                        : std::string("-");
  return Format("  %-48s %10s %10s %11s %7s%s\n", m["measure"].get<std::string>().c_str(), Value(m, "before").c_str(),
             Value(m, "after").c_str(), diff.c_str(), z.c_str(), m["changed"].get<bool>() ? "  changed" : "");
}

}  // namespace

Json CompareReports(const Json& before, const Json& after, double change_z) {
  return Comparer(before, after, change_z).Run();
}

std::string CompareToText(const Json& comparison, const std::string& baseline_name) {
  std::string out = "\ncompared with " + baseline_name + ":\n";
  for (const auto& note : comparison["settings"]) out += "  note: " + note.get<std::string>() + "\n";
  out += Format("  %-48s %10s %10s %11s %7s\n", "measure", "before", "now", "difference", "z");
  std::vector<const Json*> others, touched;
  for (const auto& m : comparison["measures"]) {
    if (m["headline"].get<bool>()) out += Line(m);
    else if (m.value("touched", false)) touched.push_back(&m);
    else if (m["changed"].get<bool>()) others.push_back(&m);
  }
  // The cards the edit touched, changed or not: what the designer wants to see first.
  if (!touched.empty()) out += "  cards the edit touched:\n";
  for (const Json* m : touched) out += Line(*m);
  if (comparison.contains("touched_without_rows"))
    for (const auto& id : comparison["touched_without_rows"])
      out += "  card " + id.get<std::string>() + ": touched, but never placed nor offered in either run\n";
  // The largest changes first; exact ones (no spread) lead.
  auto strength = [](const Json* m) { return (*m)["z"].is_number() ? std::fabs((*m)["z"].get<double>()) : 1e300; };
  std::stable_sort(others.begin(), others.end(), [&](const Json* x, const Json* y) { return strength(x) > strength(y); });
  if (!others.empty()) out += "  other measures that changed:\n";
  for (const Json* m : others) out += Line(*m);
  out += Format("  %lld of %lld measures changed (a difference of %.0f standard errors or more, or any difference where "
             "neither run varies; \"few\": under 2 games on a side, not judged)\n",
             static_cast<long long>(comparison["changed"].get<int64_t>()),
             static_cast<long long>(comparison["compared"].get<int64_t>()), comparison.value("change_z", kChangeZ));
  return out;
}

}  // namespace plateau
