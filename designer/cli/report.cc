// plateau simulate / plateau sweep (see report.h).
#include "designer/cli/report.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "designer/cli/cli_common.h"
#include "host/limits.h"
#include "host/text.h"
#include "host/compare.h"
#include "host/json_io.h"
#include "host/shard.h"
#include "host/simulate.h"

namespace plateau {
namespace {

using scripting::LuaRules;

// Each card of the game's card lists by id, as the data (with the --set overrides) gives it:
// the report keeps it so that --compare can tell which cards an edit touched.
Json CardData(const GameFiles& files) {
  Json out = Json::object();
  for (const auto& [name, doc] : files.data) {
    std::string key = doc.value("$cards_key", std::string());
    if (key.empty() && doc.value("$schema_name", std::string()) == "cards") key = "cards";
    if (key.empty() || !doc.contains(key) || !doc[key].is_array()) continue;
    for (const auto& card : doc[key])
      if (card.is_object() && card.contains("id") && card["id"].is_string()) out[card["id"].get<std::string>()] = card;
  }
  return out;
}

}  // namespace

Status ParseShard(const std::string& text, int* k, int* n) {
  // Digits only on both sides: "1/4x", "-1/4" or "1.0/4" are refused, not read as near misses.
  const size_t slash = text.find('/');
  auto whole = [](const std::string& t, int* v) {
    int64_t n = 0;
    std::string ignored;
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || !ParseInt(t, 1, limits::kShards, "", &n, &ignored))
      return false;
    *v = static_cast<int>(n);
    return true;
  };
  if (slash == std::string::npos || !whole(text.substr(0, slash), k) || !whole(text.substr(slash + 1), n) || *n < 1 ||
      *k < 1 || *k > *n)
    return Status::Input("--shard " + TerminalText(text) + ": expected K/N, the K-th of N slices of the seeds, with 1 <= K <= N <= " +
                         std::to_string(limits::kShards) + " (--shard 1/4 .. --shard 4/4)");
  return Status::Ok();
}

Status RunReport(const ReportOptions& options, const std::vector<std::string>& sets, bool progress,
                 SimulationReport* report, SimulationSpec* used, Json* card_data, ShardRecord* shard, std::string* fingerprint,
                 std::vector<GameOutcome>* outcomes) {
  SimulationSpec spec;
  spec.game = options.game;
  Status st;
  if (!options.shard.empty()) {
    st = ParseShard(options.shard, &spec.shard, &spec.shards);
    if (!st.ok()) return st;
  }
  std::vector<DataOverride> data_sets;
  st = ParseDataSets(sets, &data_sets);
  if (!st.ok()) return st;
  std::unique_ptr<LuaRules> probe;
  st = LoadRules(options.game, &probe, &data_sets);
  if (!st.ok()) return st;
  // The data in force, overrides applied: --compare names the values that differ between two runs.
  if (card_data) {
    Json data = Json::object();
    for (const auto& [name, doc] : probe->files().data) data[name] = doc;
    *card_data = {{"card_data", CardData(probe->files())}, {"data", std::move(data)}};
  }
  if (fingerprint) *fingerprint = probe->fingerprint();
  if (shard) {
    shard->fingerprint = probe->fingerprint();
    shard->blocks.clear();
    spec.blocks = &shard->blocks;
  }
  spec.games = options.games;
  spec.seed = options.seed;
  spec.threads = options.threads;
  spec.max_rounds = options.max_rounds;
  spec.profile = options.profile;
  spec.rotate_seats = options.rotate_seats;
  spec.max_failures = options.keep_going ? 10 : 1;
  spec.kingmaking_games = options.kingmaking;
  spec.outcomes = outcomes;
  spec.bots = Split(options.bots);
  if (spec.bots.empty()) spec.bots = {"random"};
  const GameInfo& info = probe->info();
  spec.players = options.players ? options.players : std::max(info.min_players, std::min(4, info.max_players));
  if (spec.players < info.min_players || spec.players > info.max_players)
    return Status::Input("--players " + std::to_string(spec.players) + " is outside " + info.id + "'s " +
                         std::to_string(info.min_players) + "-" + std::to_string(info.max_players));
  Json given;
  st = ParseSets(sets, &given);
  if (st.ok()) st = ResolveParams(info, given, &spec.params);
  if (!st.ok()) return st;
  spec.progress = progress;
  *used = spec;
  used->blocks = nullptr;  // filled during the run only
  used->outcomes = nullptr;
  return Simulate(
      [&](std::unique_ptr<Rules>* out) {
        std::unique_ptr<LuaRules> r;
        Status s = LoadRules(options.game, &r, &data_sets);
        *out = std::move(r);
        return s;
      },
      spec, report);
}

namespace {

// "a..b[:step]" or "v1,v2,..." -> the values, as the JSON they parse to.
Status ParseRange(const std::string& name, const std::string& text, std::vector<Json>* out) {
  out->clear();
  const size_t dots = text.find("..");
  if (dots == std::string::npos) {
    size_t at = 0;
    for (;;) {
      const size_t comma = text.find(',', at);
      const std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      Json v = Json::parse(item, nullptr, false);
      out->push_back(v.is_discarded() ? Json(item) : v);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    return Status::Ok();
  }
  const std::string lo_text = text.substr(0, dots);
  std::string hi_text = text.substr(dots + 2), step_text;
  const size_t colon = hi_text.find(':');
  if (colon != std::string::npos) {
    step_text = hi_text.substr(colon + 1);
    hi_text = hi_text.substr(0, colon);
  }
  auto number = [&](const std::string& t, double* v) {
    std::string ignored;
    return ParseReal(t, -1e15, 1e15, "", v, &ignored);
  };
  double lo, hi, step = 1;
  if (!number(lo_text, &lo) || !number(hi_text, &hi) || (!step_text.empty() && !number(step_text, &step)))
    return Status::Input("--set " + TerminalText(name + "=" + text) +
                         ": a range is <from>..<to>[:<step>] with numbers within -1e15..1e15, e.g. 4..10:2");
  if (step <= 0) return Status::Input("--set " + name + "=" + text + ": the step must be positive");
  if (lo > hi) return Status::Input("--set " + name + "=" + text + ": the range is empty (from > to)");
  if ((hi - lo) / step > 1000) return Status::Input("--set " + name + "=" + text + ": more than 1000 values");
  const bool integers = lo == std::floor(lo) && step == std::floor(step) && lo_text.find('.') == std::string::npos &&
                        step_text.find('.') == std::string::npos;
  for (int k = 0;; ++k) {
    const double v = lo + k * step;
    if (v > hi + 1e-9) break;
    if (integers) out->push_back(static_cast<int64_t>(std::llround(v)));
    else out->push_back(std::round(v * 1e9) / 1e9);
  }
  return Status::Ok();
}


}  // namespace

// The baseline of --compare: a report that `plateau simulate --format json` wrote.
// It must be a report of the same game (a game id or a folder of that name), checked before the
// run; a report of any other shape still compares (missing measures are skipped).
static Status ReadBaseline(const std::string& path, const std::string& game, Json* out) {
  std::string error;
  JsonLimits limits;
  limits.max_bytes = 64u << 20;
  if (!ReadJsonFile(path, path, out, &error, limits)) return Status::Input("--compare: " + error);
  const std::string not_report = "--compare: " + path + " is not a report written by `plateau simulate ... --format json`";
  if (!out->is_object() || !(*out)["games"].is_number() || !out->contains("rounds") || !(*out)["seats"].is_array())
    return Status::Input(not_report);
  auto folder_name = [](std::string g) {
    while (g.size() > 1 && g.back() == '/') g.pop_back();
    const size_t slash = g.rfind('/');
    return slash == std::string::npos ? g : g.substr(slash + 1);
  };
  if ((*out)["game"].is_string() && folder_name((*out)["game"].get<std::string>()) != folder_name(game))
    return Status::Input("--compare: " + path + " is a report of " + (*out)["game"].get<std::string>() + ", not of " + game);
  return Status::Ok();
}

Json ReportJson(const ReportOptions& options, const SimulationSpec& spec, const SimulationReport& report,
                const Json& card_data) {
  Json j = report.ToJson();
  if (card_data.is_object())
    for (auto it = card_data.begin(); it != card_data.end(); ++it)
      if (!it->empty()) j[it.key()] = *it;
  j["game"] = options.game;
  // A report of ./chenilles is not one of the installed Chenilles: it says which files ran.
  const std::string folder = FolderIfNotInstalled(options.game);
  if (!folder.empty()) j["folder"] = folder;
  j["players"] = spec.players;
  j["seed"] = options.seed;
  j["params"] = spec.params;
  j["sets"] = options.sets;
  j["max_rounds"] = options.max_rounds;
  j["kingmaking_games"] = options.kingmaking;
  // What --compare names when two runs differ: the rules' files (data overrides included) and the bots.
  j["rules"] = options.rules_fingerprint;
  j["bots_spec"] = options.bots;
  return j;
}

std::string ReportHeader(const ReportOptions& options, const SimulationSpec& spec) {
  const std::string folder = FolderIfNotInstalled(options.game);
  return options.game + (folder.empty() ? "" : " (the folder " + TerminalText(folder) + ")") + ": " +
         std::to_string(spec.players) + " players, bots " + options.bots +
         (options.rotate_seats ? " (rotating seats)" : "") + ", seed " + std::to_string(options.seed) +
         (options.max_rounds ? ", round limit " + std::to_string(options.max_rounds) : std::string()) + "\n";
}

namespace {

// A slice's report carries what plateau merge needs (designer/cli/merge.h): the settings every
// slice must share, where the slice lies in the run, and its raw blocks. The report itself is
// indented as usual; the parts, the bulk of the file, are written on one line.
std::string ShardJson(const ReportOptions& options, const SimulationSpec& spec, const Json& report,
                      const SimulationReport& slice_report, ShardRecord record) {
  const ShardSlice slice = ShardOf(spec.games, spec.shard, spec.shards);
  Json shard = {{"format", 2},
                {"k", spec.shard},
                {"n", spec.shards},
                {"games", {slice.first_game, slice.end_game}},
                {"blocks", {slice.first_block, slice.end_block}},
                {"settings",
                 {{"game", options.game},
                  {"games", options.games},
                  {"players", spec.players},
                  {"bots", options.bots},
                  {"seed", options.seed},
                  {"params", spec.params},
                  {"sets", options.sets},
                  {"max_rounds", options.max_rounds},
                  {"kingmaking", options.kingmaking},
                  {"rotate_seats", options.rotate_seats},
                  {"profile", options.profile},
                  {"rules", record.fingerprint},
                  {"engine", EngineInfo()}}}};
  Json j = report;
  j["shard"] = std::move(shard);
  std::string text = DumpJson(j, 2);
  const ShardParts parts = PartsOf(slice_report, std::move(record.blocks), slice.first_block);
  text.erase(text.rfind('}'));
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text + ",\n  \"parts\": " + DumpJson(ShardPartsToJson(parts)) + "\n}";
}

}  // namespace

int RunSimulate(const ReportOptions& options) {
  if (options.format != "text" && options.format != "json") return Fail(Status::Input("--format must be text or json"));
  if (options.fail_on_change && options.compare_path.empty())
    return Fail(Status::Input("--fail-on-change needs --compare <report.json>"));
  if (!options.shard.empty()) {
    int k, n;
    Status st = ParseShard(options.shard, &k, &n);
    if (!st.ok()) return Fail(st);
    // A slice is not the run: compare the merged report. --keep-going stops at the tenth failed
    // game of the whole run, which no slice can count.
    if (!options.compare_path.empty())
      return Fail(Status::Input("--compare with --shard: a slice is not the run; compare the merged report instead"));
    if (options.keep_going)
      return Fail(Status::Input("--keep-going with --shard: the run's limit of 10 failed games cannot be counted "
                                "slice by slice"));
  }
  // The baseline is read first: a wrong path should not cost the designer a whole run.
  Json baseline;
  if (!options.compare_path.empty()) {
    Status st = ReadBaseline(options.compare_path, options.game, &baseline);
    if (!st.ok()) return Fail(st);
  }
  SimulationReport report;
  SimulationSpec spec;
  Json card_data;
  ShardRecord record;
  ReportOptions ran = options;
  Status st = RunReport(options, options.sets, isatty(2), &report, &spec, &card_data,
                        options.shard.empty() ? nullptr : &record, &ran.rules_fingerprint);
  if (!st.ok()) return Fail(st);
  Json j = ReportJson(ran, spec, report, card_data);
  Json comparison;
  if (!baseline.is_null()) comparison = CompareReports(baseline, j);
  if (options.format == "json" && spec.shards) {
    std::printf("%s\n", ShardJson(options, spec, j, report, std::move(record)).c_str());
  } else if (options.format == "json") {
    if (!comparison.is_null()) {
      comparison["baseline"] = options.compare_path;
      j["compare"] = comparison;
    }
    std::printf("%s\n", DumpJson(j, 2).c_str());
  } else {
    std::string header = ReportHeader(options, spec);
    if (spec.shards) {
      // The slice's own report, said to be one: only --format json can be merged.
      const ShardSlice slice = ShardOf(spec.games, spec.shard, spec.shards);
      header.pop_back();
      header += ", shard " + std::to_string(spec.shard) + "/" + std::to_string(spec.shards) + ": " +
                (slice.end_game > slice.first_game ? "games " + std::to_string(slice.first_game + 1) + "-" +
                                                         std::to_string(slice.end_game)
                                                   : std::string("no games")) +
                " of " + std::to_string(spec.games) + " (plateau merge reads --format json)\n";
    }
    std::printf("%s%s", header.c_str(), report.ToText().c_str());
    if (!comparison.is_null()) std::printf("%s", CompareToText(comparison, options.compare_path).c_str());
  }
  if (report.failed) return 1;
  if (options.fail_on_change && comparison["changed"].get<int64_t>() > 0) {
    std::fprintf(stderr, "plateau: %lld measures changed against %s\n",
                 static_cast<long long>(comparison["changed"].get<int64_t>()), options.compare_path.c_str());
    return 1;
  }
  return 0;
}

int RunSweep(const ReportOptions& options) {
  if (options.format != "text" && options.format != "json" && options.format != "csv")
    return Fail(Status::Input("--format must be text, json or csv"));
  // Exactly one --set carries a range; the others are fixed for every run.
  int swept = -1;
  std::string name;
  std::vector<Json> values;
  for (size_t i = 0; i < options.sets.size(); ++i) {
    std::string n;
    Json v;
    Status st = SplitSet(options.sets[i], &n, &v);
    if (!st.ok()) return Fail(st);
    const std::string text = options.sets[i].substr(options.sets[i].find('=') + 1);
    if (!v.is_string() || (text.find("..") == std::string::npos && text.find(',') == std::string::npos)) continue;
    if (swept >= 0) return Fail(Status::Input("sweep one value at a time: both '" + name + "' and '" + n + "' have ranges"));
    swept = static_cast<int>(i);
    name = n;
    st = ParseRange(n, text, &values);
    if (!st.ok()) return Fail(st);
  }
  if (swept < 0)
    return Fail(Status::Input("give the value to sweep as --set <name or data.path>=<from>..<to>[:<step>] (or a,b,c)"));
  // A table that could not be written would lose the whole sweep: refused before it runs.
  if (!options.csv_path.empty()) {
    Status st = CheckOutputFile(UserOutput(options.csv_path, OutputKind::kCsv, "--csv"));
    if (!st.ok()) return Fail(st);
  }

  struct Row {
    Json value;
    SimulationReport report;
  };
  std::vector<Row> rows;
  std::set<std::string> endings, metrics, counts, bots;
  for (const auto& v : values) {
    std::vector<std::string> sets = options.sets;
    sets[static_cast<size_t>(swept)] = name + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
    SimulationReport report;
    SimulationSpec spec;
    Status st = RunReport(options, sets, false, &report, &spec);
    if (!st.ok()) {
      st.message = name + "=" + v.dump() + ": " + st.message;
      return Fail(st);
    }
    if (options.format == "text")
      std::fprintf(stderr, "%s=%s: %d games in %.1f s\n", name.c_str(), v.dump().c_str(), report.games, report.seconds);
    for (const auto& [k, n] : report.endings) endings.insert(k);
    for (const auto& [k, m] : report.metrics) metrics.insert(k);
    for (const auto& [k, c] : report.counts) counts.insert(k);
    for (const auto& [b, record] : report.bots) bots.insert(b);
    rows.push_back({v, std::move(report)});
  }

  // One table: the key metrics against the value; CSV adds every measurement.
  std::vector<std::string> header = {name, "games", "games/s", "rounds", "winning total", "spread", "best seat win %", "stopped", "findings"};
  for (const auto& e : endings) header.push_back("ending " + e + " %");
  std::vector<std::string> csv_header = header;
  if (bots.size() > 1)
    for (const auto& b : bots) csv_header.push_back("win % " + b);
  for (const auto& c : counts) csv_header.push_back(c + " per game");
  for (const auto& m : metrics) csv_header.push_back(m + " per game");
  std::vector<std::vector<std::string>> table, csv;
  char buf[64];
  auto num = [&](double d, const char* fmt = "%.2f") {
    std::snprintf(buf, sizeof buf, fmt, d);
    return std::string(buf);
  };
  for (const auto& row : rows) {
    const SimulationReport& r = row.report;
    double best = 0;
    for (double w : r.seat_wins) best = std::max(best, r.games ? 100.0 * w / r.games : 0.0);
    std::vector<std::string> line = {row.value.is_string() ? row.value.get<std::string>() : row.value.dump(),
                                     std::to_string(r.games), num(r.GamesPerSecond(), "%.1f"), num(r.rounds.Mean()),
                                     num(r.top_score.Mean()), num(r.spread.Mean()), num(best, "%.1f"),
                                     std::to_string(r.stopped), std::to_string(r.findings.size())};
    for (const auto& e : endings)
      line.push_back(num(r.games ? 100.0 * (r.endings.count(e) ? r.endings.at(e) : 0) / r.games : 0.0, "%.1f"));
    table.push_back(line);
    if (bots.size() > 1)
      for (const auto& b : bots) {
        const auto it = r.bots.find(b);
        const bool played = it != r.bots.end() && it->second.player_games > 0;
        line.push_back(num(played ? 100.0 * it->second.wins / static_cast<double>(it->second.player_games) : 0.0, "%.1f"));
      }
    for (const auto& c : counts) line.push_back(num(r.counts.count(c) ? r.counts.at(c).Mean() : 0.0, "%.3f"));
    for (const auto& m : metrics) line.push_back(num(r.metrics.count(m) && r.games ? r.metrics.at(m).value.sum / r.games : 0.0, "%.3f"));
    csv.push_back(line);
  }
  std::string csv_text;
  for (size_t i = 0; i < csv_header.size(); ++i) csv_text += (i ? "," : "") + CsvField(csv_header[i]);
  csv_text += "\n";
  for (const auto& line : csv) {
    for (size_t i = 0; i < line.size(); ++i) csv_text += (i ? "," : "") + CsvField(line[i]);
    csv_text += "\n";
  }
  if (!options.csv_path.empty()) {
    Status st = WriteOutputFile(UserOutput(options.csv_path, OutputKind::kCsv, "--csv"), csv_text);
    if (!st.ok()) return Fail(st);
  }
  if (options.format == "csv") {
    std::printf("%s", csv_text.c_str());
  } else if (options.format == "json") {
    Json out = Json::array();
    for (const auto& row : rows) out.push_back({{"value", row.value}, {"report", row.report.ToJson()}});
    std::printf("%s\n", DumpJson(Json{{"game", options.game}, {"swept", name}, {"runs", out}}, 2).c_str());
  } else {
    std::printf("%s: sweep of %s over %zu values, %d games each, bots %s\n\n", options.game.c_str(), name.c_str(),
                values.size(), options.games, options.bots.c_str());
    std::vector<size_t> width(header.size());
    for (size_t i = 0; i < header.size(); ++i) {
      width[i] = header[i].size();
      for (const auto& line : table) width[i] = std::max(width[i], line[i].size());
    }
    for (size_t i = 0; i < header.size(); ++i) std::printf("%s%*s", i ? "  " : "", static_cast<int>(width[i]), header[i].c_str());
    std::printf("\n");
    for (const auto& line : table) {
      for (size_t i = 0; i < line.size(); ++i) std::printf("%s%*s", i ? "  " : "", static_cast<int>(width[i]), line[i].c_str());
      std::printf("\n");
    }
    if (!options.csv_path.empty()) std::printf("\nCSV with every measurement: %s\n", options.csv_path.c_str());
  }
  int failed = 0;
  for (const auto& row : rows) failed += row.report.failed;
  return failed ? 1 : 0;
}

}  // namespace plateau

namespace plateau {

// plateau compare-readings: the same seeds and bots under two values of one setting, compared
// game by game (README "Paired comparison").
int RunCompareReadings(const ReportOptions& options) {
  if (options.format != "text" && options.format != "json") return Fail(Status::Input("--format must be text or json"));
  // The setting given twice is the pair; every other --set holds for both runs.
  std::map<std::string, std::vector<size_t>> by_name;
  for (size_t i = 0; i < options.sets.size(); ++i) {
    std::string name;
    Json value;
    Status st = SplitSet(options.sets[i], &name, &value);
    if (!st.ok()) return Fail(st);
    by_name[name].push_back(i);
  }
  std::vector<std::string> paired, given;
  for (const auto& [name, at] : by_name) {
    given.push_back(name);
    if (at.size() == 2) paired.push_back(name);
    if (at.size() > 2)
      return Fail(Status::Input("compare-readings: --set " + name + " is given " + std::to_string(at.size()) +
                                " times; a paired comparison compares two readings of one setting"));
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? std::string("none") : out;
  };
  if (paired.size() != 1)
    return Fail(Status::Input("compare-readings: give one setting twice, once per reading (--set a=x --set a=y); " +
                              (paired.empty() ? "no setting is given twice (settings given: " + list(given) + ")"
                                              : "several are: " + list(paired) + "; compare one reading at a time")));
  const std::string name = paired.front();
  const size_t first = by_name[name][0], second = by_name[name][1];
  std::vector<std::string> sets_a, sets_b;
  for (size_t i = 0; i < options.sets.size(); ++i) {
    if (i != second) sets_a.push_back(options.sets[i]);
    if (i != first) sets_b.push_back(options.sets[i]);
  }
  const std::string reading_a = options.sets[first].substr(options.sets[first].find('=') + 1);
  const std::string reading_b = options.sets[second].substr(options.sets[second].find('=') + 1);
  Json value_a, value_b;
  std::string ignored;
  SplitSet(options.sets[first], &ignored, &value_a);
  SplitSet(options.sets[second], &ignored, &value_b);
  if (value_a == value_b)
    return Fail(Status::Input("compare-readings: both readings of " + name + " are " + reading_a +
                              (reading_a == reading_b ? std::string() : " (" + reading_b + ")") + ": nothing to compare"));
  // Both runs: the same seeds, bots and seats, by construction (one command); each game's
  // result is kept to be set against the other run's game of the same seed.
  struct Run {
    SimulationReport report;
    SimulationSpec spec;
    Json data;
    std::vector<GameOutcome> outcomes;
    std::string fingerprint;
  } runs[2];
  for (int k = 0; k < 2; ++k) {
    ReportOptions o = options;
    o.sets = k == 0 ? sets_a : sets_b;
    Run& run = runs[k];
    Status st = RunReport(o, o.sets, isatty(2), &run.report, &run.spec, &run.data, nullptr, &run.fingerprint, &run.outcomes);
    if (!st.ok()) {
      st.message = name + "=" + (k == 0 ? reading_a : reading_b) + ": " + st.message;
      return Fail(st);
    }
  }
  int64_t n = 0, changed = 0;
  Stat margin_a, margin_b, margin_diff, length_diff, top_diff;
  for (size_t g = 0; g < runs[0].outcomes.size() && g < runs[1].outcomes.size(); ++g) {
    const GameOutcome& a = runs[0].outcomes[g];
    const GameOutcome& b = runs[1].outcomes[g];
    if (!a.played || !b.played) continue;
    ++n;
    changed += a.winners != b.winners;
    margin_a.Add(static_cast<double>(a.top - a.second));
    margin_b.Add(static_cast<double>(b.top - b.second));
    margin_diff.Add(static_cast<double>((b.top - b.second) - (a.top - a.second)));
    length_diff.Add(b.rounds - a.rounds);
    top_diff.Add(static_cast<double>(b.top - a.top));
  }
  double lo, hi;
  WilsonInterval(static_cast<double>(changed), static_cast<double>(n), 1.959964, &lo, &hi);
  auto paired_json = [](const Stat& d) {
    double l, h;
    MeanInterval(d, &l, &h);
    return Json{{"mean", d.Mean()}, {"stdev", d.Stdev()}, {"interval95", {l, h}}, {"n", d.n}};
  };
  ReportOptions oa = options, ob = options;
  oa.sets = sets_a;
  ob.sets = sets_b;
  oa.rules_fingerprint = runs[0].fingerprint;
  ob.rules_fingerprint = runs[1].fingerprint;
  const Json report_a = ReportJson(oa, runs[0].spec, runs[0].report, runs[0].data);
  const Json report_b = ReportJson(ob, runs[1].spec, runs[1].report, runs[1].data);
  Json comparison = CompareReports(report_a, report_b);
  Json out = {{"game", options.game},
              {"setting", name},
              {"readings", {reading_a, reading_b}},
              {"seed", options.seed},
              {"bots_spec", options.bots},
              {"players", runs[0].spec.players},
              {"games_paired", n},
              {"winner_changed", {{"rate", n ? static_cast<double>(changed) / static_cast<double>(n) : 0.0},
                                  {"interval95", {lo, hi}}, {"count", changed}, {"of", n}}},
              {"margin", {{"first", paired_json(margin_a)}, {"second", paired_json(margin_b)},
                          {"difference", paired_json(margin_diff)}}},
              {"winning_total_difference", paired_json(top_diff)},
              {"length_difference", paired_json(length_diff)},
              {"compare", comparison}};
  if (options.format == "json") {
    out["reports"] = {report_a, report_b};
    std::printf("%s\n", DumpJson(out, 2).c_str());
  } else {
    const std::string a = name + "=" + reading_a, b = name + "=" + reading_b;
    std::printf("%s: %s against %s, game by game on the same %lld seeds (%llu..%llu), bots %s, %d players\n\n",
                options.game.c_str(), a.c_str(), b.c_str(), static_cast<long long>(n), options.seed,
                options.seed + static_cast<unsigned long long>(std::max(0, options.games - 1)), options.bots.c_str(),
                runs[0].spec.players);
    std::printf("  this reading changed the winner in %.1f%% of games (%lld of %lld; 95%% interval %.1f-%.1f%%)\n",
                n ? 100.0 * static_cast<double>(changed) / static_cast<double>(n) : 0.0, static_cast<long long>(changed),
                static_cast<long long>(n), 100 * lo, 100 * hi);
    auto paired_line = [](const char* what, const Stat& d) {
      double l, h;
      MeanInterval(d, &l, &h);
      return Format("  %s by %+.2f a game (95%% interval %+.2f to %+.2f)\n", what, d.Mean(), l, h);
    };
    std::printf("  the winner's margin over the second: %.2f with %s, %.2f with %s\n", margin_a.Mean(), a.c_str(),
                margin_b.Mean(), b.c_str());
    std::printf("%s", paired_line("  the margin changed", margin_diff).c_str());
    std::printf("%s", paired_line("the winning total changed", top_diff).c_str());
    std::printf("%s", paired_line("the game's length (rounds) changed", length_diff).c_str());
    std::printf("  (a shared win is a margin of 0; a different set of winners, a shared win included, is a changed winner)\n");
    std::printf("%s", CompareToText(comparison, a).c_str());
  }
  return runs[0].report.failed || runs[1].report.failed ? 1 : 0;
}

}  // namespace plateau
