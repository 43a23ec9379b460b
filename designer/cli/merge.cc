// plateau merge (see merge.h).
#include "designer/cli/merge.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "designer/cli/cli_common.h"
#include "designer/cli/report.h"
#include "host/json_io.h"
#include "host/limits.h"
#include "host/text.h"
#include "host/shard.h"

namespace plateau {

JsonLimits ShardReportLimits() {
  JsonLimits limits;
  // A slice is its settings and its raw blocks (256 at most): well under this.
  limits.max_bytes = limits::kShardBytes;
  return limits;
}

namespace {

// A slice as kept while the others are read: its settings and parts, not the file's whole JSON
// (a long run's slices are read one at a time, each dropped once its parts are taken).
struct ShardFile {
  std::string path;
  Json settings;   // /shard/settings
  Json card_data;  // {"card_data": /card_data, "data": /data}
  ShardParts parts;
  int k = 0, n = 0;
};

// o[key], or null when o is not an object or has no such key (a file is input: a const
// operator[] on a missing key would be undefined).
const Json& Field(const Json& o, const std::string& key) {
  static const Json kNull;
  if (!o.is_object()) return kNull;
  const auto it = o.find(key);
  return it == o.end() ? kNull : *it;
}

// What the settings look like in a message: strings bare, everything else as JSON.
std::string Shown(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// A slice's report, read from a file (plateau merge) or a command's output (plateau tune
// --shards), named `path` in messages.
Status CheckShard(const std::string& path, Json j, ShardFile* out) {
  const Status not_shard = Status::Input(path + " is not a shard's report: write each one with plateau simulate <game> "
                                         "... --shard K/N --format json");
  if (!j.is_object() || !j.contains("shard") || !j["shard"].is_object() || !j.contains("parts")) return not_shard;
  const Json& s = j["shard"];
  if (Field(s, "format") != 2)
    return Status::Input(path + ": at /shard/format: a shard report of another version of plateau (" +
                         Field(s, "format").dump() + ", this one reads 2)");
  auto whole = [&](const Json& v, int* out) {
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 1000000000) return false;
    *out = static_cast<int>(v.get<int64_t>());
    return true;
  };
  const Json& settings = Field(s, "settings");
  int games = 0, players = 0, max_rounds = 0, kingmaking = 0;
  bool strings = Field(settings, "sets").is_array();
  for (const auto& e : Field(settings, "sets")) strings = strings && e.is_string();
  if (!whole(Field(s, "k"), &out->k) || !whole(Field(s, "n"), &out->n) || out->n < 1 || out->k < 1 || out->k > out->n ||
      !whole(Field(settings, "games"), &games) || !whole(Field(settings, "players"), &players) ||
      !whole(Field(settings, "max_rounds"), &max_rounds) || !whole(Field(settings, "kingmaking"), &kingmaking) ||
      !Field(settings, "bots").is_string() ||
      !Field(settings, "game").is_string() || !Field(settings, "seed").is_number_unsigned() || !strings ||
      !Field(settings, "rotate_seats").is_boolean() || !Field(settings, "rules").is_string() ||
      !Field(settings, "params").is_object())
    return Status::Input(path + ": at /shard: not the slice and settings `plateau simulate --shard` writes (was it edited?)");
  if (out->n > limits::kShards)
    return Status::Input(path + ": at /shard/n: " + std::to_string(out->n) + " slices; a run is cut into at most " +
                         std::to_string(limits::kShards));
  if (games < 1 || players < 1 || players > 16)
    return Status::Input(path + ": at /shard/settings: not the settings of a run (games " + std::to_string(games) +
                         ", players " + std::to_string(players) + ")");
  // The slice must be the one --shard k/n cuts from a run of that many games.
  const ShardSlice slice = ShardOf(games, out->k, out->n);
  if (Field(s, "games") != Json::array({slice.first_game, slice.end_game}) ||
      Field(s, "blocks") != Json::array({slice.first_block, slice.end_block}))
    return Status::Input(path + ": at /shard: shard " + std::to_string(out->k) + "/" + std::to_string(out->n) + " of " +
                         std::to_string(games) + " games is games " + std::to_string(slice.first_game) + "-" +
                         std::to_string(slice.end_game) + ", not " + Field(s, "games").dump() +
                         " (written by another version of plateau, or edited)");
  out->path = path;
  Status st = ShardPartsFromJson(Field(j, "parts"), players, path + ": at /parts", &out->parts);
  if (!st.ok()) return st;
  if (out->parts.first_block != slice.first_block ||
      static_cast<int64_t>(out->parts.blocks.size()) != static_cast<int64_t>(slice.end_block) - slice.first_block)
    return Status::Input(path + ": at /parts: " + std::to_string(out->parts.blocks.size()) + " blocks from block " +
                         std::to_string(out->parts.first_block) + ", but shard " + std::to_string(out->k) + "/" +
                         std::to_string(out->n) + " is blocks " + std::to_string(slice.first_block) + "-" +
                         std::to_string(slice.end_block) + " (a slice that stopped early, or an edited file)");
  out->settings = settings;
  out->card_data = Json::object();
  for (const char* key : {"card_data", "data"})
    if (Field(j, key).is_object()) out->card_data[key] = Field(j, key);
  return Status::Ok();
}

Status ReadShard(const std::string& path, ShardFile* out) {
  std::string error;
  Json j;
  if (!ReadJsonFile(path, path, &j, &error, ShardReportLimits())) return Status::Input(TerminalText(error));
  return CheckShard(TerminalText(path), std::move(j), out);
}

// Checks that the slices make one run (settings, rules, engine, each slice once) and merges
// them (messages name each slice by its path).
Status MergeShardFiles(std::vector<ShardFile> shards, ReportOptions* options, SimulationSpec* spec,
                       SimulationReport* report, Json* card_data);

}  // namespace

int RunMerge(const std::vector<std::string>& files, const std::string& format) {
  if (format != "text" && format != "json") return Fail(Status::Input("--format must be text or json"));
  if (files.empty()) return Fail(Status::Input("plateau merge needs the shards' reports: plateau merge a.json b.json ..."));
  // An empty file is a slice that did not finish: `plateau simulate ... > shard-3.json` on a job
  // that failed, was killed with its node, or still runs. Its number cannot be read, but the
  // others' numbers say which slices are missing: the refusal names both, so that the user
  // reruns those slices only.
  std::vector<ShardFile> shards;
  std::string unfinished;
  int unfinished_count = 0;
  constexpr int kNamed = 20;  // as for the missing slices: the message stays a few lines
  for (const auto& file : files) {
    struct stat info;
    if (::stat(file.c_str(), &info) == 0 && S_ISREG(info.st_mode) && info.st_size == 0) {
      if (++unfinished_count <= kNamed) unfinished += (unfinished.empty() ? "" : ", ") + TerminalText(file);
      continue;
    }
    shards.emplace_back();
    Status st = ReadShard(file, &shards.back());
    if (!st.ok()) return Fail(st);
  }
  ReportOptions options;
  SimulationSpec spec;
  SimulationReport report;
  Json card_data;
  Status st = shards.empty() ? Status::Ok() : MergeShardFiles(std::move(shards), &options, &spec, &report, &card_data);
  if (unfinished_count > kNamed) unfinished += " and " + std::to_string(unfinished_count - kNamed) + " more";
  if (unfinished_count > 0) {
    const std::string note = unfinished + (unfinished_count == 1
                                               ? " is empty: the slice that writes it did not finish"
                                               : " are empty: the slices that write them did not finish") +
                             " (failed, stopped, or still running)";
    st = Status::Input(st.ok() ? note : st.message + "; " + note);
  }
  if (!st.ok()) return Fail(st);
  if (format == "json") std::printf("%s\n", DumpJson(ReportJson(options, spec, report, card_data), 2).c_str());
  else std::printf("%s%s", ReportHeader(options, spec).c_str(), report.ToText().c_str());
  return report.failed ? 1 : 0;
}

Status MergeShardReports(std::vector<std::pair<std::string, Json>> docs, ReportOptions* options, SimulationSpec* spec,
                         SimulationReport* report, Json* card_data) {
  std::vector<ShardFile> shards(docs.size());
  for (size_t i = 0; i < docs.size(); ++i) {
    Status st = CheckShard(TerminalText(docs[i].first), std::move(docs[i].second), &shards[i]);
    if (!st.ok()) return st;
  }
  return MergeShardFiles(std::move(shards), options, spec, report, card_data);
}

namespace {

Status MergeShardFiles(std::vector<ShardFile> shards, ReportOptions* options_out, SimulationSpec* spec_out,
                       SimulationReport* report_out, Json* card_data_out) {
  if (shards.empty()) return Status::Input("no shard reports to merge");
  // Every slice must come from the same run: the same settings, rules and engine as the first.
  const ShardFile& first = shards.front();
  const Json& want = first.settings;
  for (const auto& f : shards) {
    const Json& got = f.settings;
    if (f.n != first.n)
      return (Status::Input(f.path + " is shard " + std::to_string(f.k) + "/" + std::to_string(f.n) + " but " +
                                first.path + " is shard " + std::to_string(first.k) + "/" + std::to_string(first.n) +
                                ": the slices of one run share their N"));
    if (Field(got, "rules") != Field(want, "rules"))
      return (Status::Input("the shards ran different rules: " + first.path + " has rules " + Shown(Field(want, "rules")) +
                                ", " + f.path + " has rules " + Shown(Field(got, "rules")) +
                                " (the game's files or --set data overrides differ between the runs)"));
    if (Field(got, "engine") != Field(want, "engine"))
      return (Status::Input("the shards ran on different engines: " + first.path + " on " +
                                Shown(Field(want, "engine")) + ", " + f.path + " on " + Shown(Field(got, "engine"))));
    std::vector<std::string> keys;
    for (auto it = want.begin(); it != want.end(); ++it) keys.push_back(it.key());
    for (auto it = got.begin(); it != got.end(); ++it)
      if (!want.contains(it.key())) keys.push_back(it.key());
    for (const auto& key : keys)
      if (!got.contains(key) || !want.contains(key) || Field(got, key) != Field(want, key))
        return (Status::Input("shards of different settings: " + key + " is " +
                                  (want.contains(key) ? Shown(Field(want, key)) : std::string("(none)")) + " in " +
                                  first.path + " but " +
                                  (got.contains(key) ? Shown(Field(got, key)) : std::string("(none)")) + " in " + f.path));
  }
  // Each slice once, and all of them.
  std::map<int, const ShardFile*> by_k;
  for (const auto& f : shards) {
    const auto [it, fresh] = by_k.emplace(f.k, &f);
    if (!fresh)
      return (Status::Input(it->second->path + " and " + f.path + " are both shard " + std::to_string(f.k) + "/" +
                                std::to_string(f.n) + ": give each slice once"));
  }
  if (static_cast<int>(by_k.size()) != first.n) {
    // Named one by one up to a point: a message about 4,000 missing slices stays a few lines.
    constexpr int kNamed = 20;
    std::string missing, given;
    int missing_count = 0, given_count = 0, first_missing = 0;
    for (int k = 1; k <= first.n; ++k)
      if (!by_k.count(k)) {
        if (!first_missing) first_missing = k;
        if (++missing_count <= kNamed) missing += (missing.empty() ? "" : ", ") + std::to_string(k) + "/" + std::to_string(first.n);
      }
    if (missing_count > kNamed) missing += " and " + std::to_string(missing_count - kNamed) + " more";
    for (const auto& [k, f] : by_k)
      if (++given_count <= kNamed) given += (given.empty() ? "" : ", ") + f->path + " (" + std::to_string(k) + ")";
    if (given_count > kNamed) given += " and " + std::to_string(given_count - kNamed) + " more";
    return (Status::Input("shard " + missing + (missing_count == 1 ? " is" : " are") + " missing: the files given are " +
                          given + "; run plateau simulate ... --shard " + std::to_string(first_missing) + "/" +
                          std::to_string(first.n) + " --format json for it"));
  }

  // The run as simulate would have described it, from the settings the slices share.
  ReportOptions options;
  options.game = want["game"].get<std::string>();
  // Types and ranges were checked by CheckShard.
  options.games = static_cast<int>(want["games"].get<int64_t>());
  options.seed = want["seed"].get<unsigned long long>();
  options.bots = want["bots"].get<std::string>();
  options.rules_fingerprint = want["rules"].get<std::string>();
  options.max_rounds = static_cast<int>(want["max_rounds"].get<int64_t>());
  options.rotate_seats = want["rotate_seats"].get<bool>();
  options.kingmaking = static_cast<int>(want["kingmaking"].get<int64_t>());
  for (const auto& s : want["sets"]) options.sets.push_back(s.is_string() ? s.get<std::string>() : s.dump());
  SimulationSpec spec;
  spec.games = options.games;
  spec.players = static_cast<int>(want["players"].get<int64_t>());
  spec.seed = options.seed;
  spec.bots = Split(options.bots);
  if (spec.bots.empty()) spec.bots = {"random"};
  spec.params = Field(want, "params");
  spec.max_rounds = options.max_rounds;
  spec.rotate_seats = options.rotate_seats;
  spec.kingmaking_games = options.kingmaking;
  std::vector<ShardParts> parts;
  for (auto& [k, f] : by_k) parts.push_back(std::move(const_cast<ShardFile*>(f)->parts));
  MergeShards(spec, parts, report_out);
  *card_data_out = first.card_data;
  *options_out = options;
  *spec_out = spec;
  return Status::Ok();
}

}  // namespace

}  // namespace plateau
