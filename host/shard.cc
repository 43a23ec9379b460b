// The raw blocks of a sharded simulation as JSON, and their merge (see shard.h).
#include "host/shard.h"

#include <algorithm>
#include <stdexcept>

namespace plateau {
namespace {

// Doubles are written by nlohmann-json in the shortest form that reads back to the same bits,
// so a sum survives the trip exactly. A Stat is [n, sum, sum2, min, max] (min and max as kept,
// ±1e300 when empty) to keep a block small.
Json StatOut(const Stat& s) { return Json::array({s.n, s.sum, s.sum2, s.min, s.max}); }

Json TagOut(const TagOutcome& t) {
  Json by_length = Json::array();
  for (const auto& [len, v] : t.by_length) by_length.push_back(Json::array({len, StatOut(v.first), StatOut(v.second)}));
  Json endings = Json::object();
  for (const auto& [k, v] : t.endings) endings[k] = v;
  return Json::array({t.games, StatOut(t.rounds), StatOut(t.top_score), StatOut(t.spread), endings, by_length});
}

template <typename K>
Json CountsOut(const std::map<K, int64_t>& m) {
  Json out = Json::array();
  for (const auto& [k, n] : m) out.push_back(Json::array({k, n}));
  return out;
}

Json BlockOut(const SimulationReport& r) {
  Json j;
  j["games"] = r.games;
  j["failed"] = r.failed;
  j["stopped"] = r.stopped;
  j["stopped_by_rules"] = r.stopped_by_rules;
  j["seat_totals"] = Json::array();
  for (const auto& s : r.seat_totals) j["seat_totals"].push_back(StatOut(s));
  j["seat_wins"] = r.seat_wins;
  j["seat_score_counts"] = Json::array();
  for (const auto& m : r.seat_score_counts) j["seat_score_counts"].push_back(CountsOut(m));
  j["categories"] = r.categories;
  j["category"] = Json::array();
  for (const auto& row : r.category) {
    Json per = Json::array();
    for (const auto& s : row) per.push_back(StatOut(s));
    j["category"].push_back(std::move(per));
  }
  j["first_errors"] = r.first_errors;
  j["stopped_seeds"] = r.stopped_seeds;
  j["rules_stopped_seeds"] = r.rules_stopped_seeds;
  j["extra_counts"] = r.extra_counts;
  j["rounds"] = StatOut(r.rounds);
  j["round_counts"] = CountsOut(r.round_counts);
  j["top_score"] = StatOut(r.top_score);
  j["spread"] = StatOut(r.spread);
  j["endings"] = CountsOut(r.endings);
  j["counts"] = Json::object();
  for (const auto& [k, v] : r.counts) j["counts"][k] = StatOut(v);
  j["metrics"] = Json::object();
  for (const auto& [k, v] : r.metrics) j["metrics"][k] = Json::array({StatOut(v.value), v.happened, v.wins_when});
  j["tags"] = Json::object();
  for (const auto& [k, v] : r.tags) j["tags"][k] = TagOut(v);
  j["all"] = TagOut(r.all);
  j["bots"] = Json::object();
  for (const auto& [k, v] : r.bots) j["bots"][k] = Json::array({v.player_games, v.wins, StatOut(v.totals)});
  j["cards"] = Json::object();
  for (const auto& [k, v] : r.cards)
    j["cards"][k] = Json::array({StatOut(v.points), v.copies, v.points_sum, v.offered, v.picked});
  const FeelRecord& f = r.feel;
  j["feel"] = Json::array({f.games, f.by_round, f.samples, StatOut(f.lead_changes), StatOut(f.lead_for_good), f.from_last,
                           f.from_behind, f.drama, StatOut(f.gap[0]), StatOut(f.gap[1]), StatOut(f.gap[2]), StatOut(f.gap[3]),
                           StatOut(f.dead), f.decisions, f.single_move, f.all_equal, f.kingmaking_games, f.kingmaking_found,
                           f.kingmaking_decisions, f.kingmaking_replays, f.kingmaking_cut});
  return j;
}

// Reading: any shape other than the one written above throws, and ShardPartsFromJson turns the
// exception into a refusal naming the file.
[[noreturn]] void Bad(const std::string& what) { throw std::runtime_error(what); }

const Json& At(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) Bad(std::string("no '") + key + "'");
  return j[key];
}

const Json& Array(const Json& j, size_t size, const char* what) {
  if (!j.is_array() || (size != SIZE_MAX && j.size() != size))
    Bad(std::string(what) + ": expected an array" + (size != SIZE_MAX ? " of " + std::to_string(size) : std::string()));
  return j;
}

double Number(const Json& j) {
  if (!j.is_number()) Bad("expected a number, got " + j.dump());
  return j.get<double>();
}

int64_t Whole(const Json& j) {
  if (!j.is_number_integer()) Bad("expected a whole number, got " + j.dump());
  return j.get<int64_t>();
}

Stat StatIn(const Json& j) {
  Array(j, 5, "a statistic");
  Stat s;
  s.n = Whole(j[0]);
  s.sum = Number(j[1]);
  s.sum2 = Number(j[2]);
  s.min = Number(j[3]);
  s.max = Number(j[4]);
  return s;
}

TagOutcome TagIn(const Json& j) {
  Array(j, 6, "a tag");
  TagOutcome t;
  t.games = Whole(j[0]);
  t.rounds = StatIn(j[1]);
  t.top_score = StatIn(j[2]);
  t.spread = StatIn(j[3]);
  if (!j[4].is_object()) Bad("a tag's endings: expected an object");
  for (auto it = j[4].begin(); it != j[4].end(); ++it) t.endings[it.key()] = Whole(*it);
  for (const auto& e : Array(j[5], SIZE_MAX, "a tag's lengths")) {
    Array(e, 3, "a tag's length");
    t.by_length[Whole(e[0])] = {StatIn(e[1]), StatIn(e[2])};
  }
  return t;
}

std::vector<std::string> Strings(const Json& j, const char* what) {
  std::vector<std::string> out;
  for (const auto& e : Array(j, SIZE_MAX, what)) {
    if (!e.is_string()) Bad(std::string(what) + ": expected strings");
    out.push_back(e.get<std::string>());
  }
  return out;
}

SimulationReport BlockIn(const Json& j, int players) {
  const size_t seats = static_cast<size_t>(players);
  SimulationReport r;
  r.players = players;
  r.games = static_cast<int>(Whole(At(j, "games")));
  r.failed = static_cast<int>(Whole(At(j, "failed")));
  r.stopped = static_cast<int>(Whole(At(j, "stopped")));
  r.stopped_by_rules = static_cast<int>(Whole(At(j, "stopped_by_rules")));
  for (const auto& s : Array(At(j, "seat_totals"), seats, "seat_totals")) r.seat_totals.push_back(StatIn(s));
  for (const auto& w : Array(At(j, "seat_wins"), seats, "seat_wins")) r.seat_wins.push_back(Number(w));
  for (const auto& m : Array(At(j, "seat_score_counts"), seats, "seat_score_counts")) {
    r.seat_score_counts.emplace_back();
    for (const auto& e : Array(m, SIZE_MAX, "seat_score_counts")) {
      Array(e, 2, "a score count");
      r.seat_score_counts.back()[Whole(e[0])] = Whole(e[1]);
    }
  }
  r.categories = Strings(At(j, "categories"), "categories");
  for (const auto& row : Array(At(j, "category"), r.categories.size(), "category")) {
    r.category.emplace_back();
    for (const auto& s : Array(row, seats, "a category's seats")) r.category.back().push_back(StatIn(s));
  }
  r.first_errors = Strings(At(j, "first_errors"), "first_errors");
  for (const char* key : {"stopped_seeds", "rules_stopped_seeds"}) {
    auto& seeds = std::string(key) == "stopped_seeds" ? r.stopped_seeds : r.rules_stopped_seeds;
    for (const auto& e : Array(At(j, key), SIZE_MAX, key)) {
      if (!e.is_number_unsigned()) Bad(std::string(key) + ": expected seeds");
      seeds.push_back(e.get<uint64_t>());
    }
  }
  r.extra_counts = At(j, "extra_counts");
  if (!r.extra_counts.is_object()) Bad("extra_counts: expected an object");
  for (auto it = r.extra_counts.begin(); it != r.extra_counts.end(); ++it) {
    if (!it->is_object()) Bad("extra_counts: expected objects of counts");
    for (auto v = it->begin(); v != it->end(); ++v)
      if (!v->is_number_integer()) Bad("extra_counts: expected counts");
  }
  r.rounds = StatIn(At(j, "rounds"));
  for (const auto& e : Array(At(j, "round_counts"), SIZE_MAX, "round_counts")) {
    Array(e, 2, "a round count");
    r.round_counts[Whole(e[0])] = Whole(e[1]);
  }
  r.top_score = StatIn(At(j, "top_score"));
  r.spread = StatIn(At(j, "spread"));
  for (const auto& e : Array(At(j, "endings"), SIZE_MAX, "endings")) {
    Array(e, 2, "an ending");
    if (!e[0].is_string()) Bad("endings: expected names");
    r.endings[e[0].get<std::string>()] = Whole(e[1]);
  }
  auto object = [&](const char* key) -> const Json& {
    const Json& o = At(j, key);
    if (!o.is_object()) Bad(std::string(key) + ": expected an object");
    return o;
  };
  for (const auto& [k, v] : object("counts").items()) r.counts[k] = StatIn(v);
  for (const auto& [k, v] : object("metrics").items()) {
    Array(v, 3, "a per-player measure");
    PlayerMetric& m = r.metrics[k];
    m.value = StatIn(v[0]);
    m.happened = Whole(v[1]);
    m.wins_when = Number(v[2]);
  }
  for (const auto& [k, v] : object("tags").items()) r.tags[k] = TagIn(v);
  r.all = TagIn(At(j, "all"));
  for (const auto& [k, v] : object("bots").items()) {
    Array(v, 3, "a bot");
    BotRecord& b = r.bots[k];
    b.player_games = Whole(v[0]);
    b.wins = Number(v[1]);
    b.totals = StatIn(v[2]);
  }
  for (const auto& [k, v] : object("cards").items()) {
    Array(v, 5, "a card");
    CardBalance& c = r.cards[k];
    c.points = StatIn(v[0]);
    c.copies = Whole(v[1]);
    c.points_sum = Number(v[2]);
    c.offered = Whole(v[3]);
    c.picked = Whole(v[4]);
  }
  const Json& f = Array(At(j, "feel"), 21, "feel");
  FeelRecord& feel = r.feel;
  feel.games = Whole(f[0]);
  feel.by_round = Whole(f[1]);
  feel.samples = Whole(f[2]);
  feel.lead_changes = StatIn(f[3]);
  feel.lead_for_good = StatIn(f[4]);
  feel.from_last = Whole(f[5]);
  feel.from_behind = Whole(f[6]);
  feel.drama = Whole(f[7]);
  for (int i = 0; i < 4; ++i) feel.gap[i] = StatIn(f[8 + static_cast<size_t>(i)]);
  feel.dead = StatIn(f[12]);
  feel.decisions = Whole(f[13]);
  feel.single_move = Whole(f[14]);
  feel.all_equal = Whole(f[15]);
  feel.kingmaking_games = Whole(f[16]);
  feel.kingmaking_found = Whole(f[17]);
  feel.kingmaking_decisions = Whole(f[18]);
  feel.kingmaking_replays = Whole(f[19]);
  feel.kingmaking_cut = Whole(f[20]);
  return r;
}

}  // namespace

ShardParts PartsOf(const SimulationReport& report, std::vector<SimulationReport> blocks, int first_block) {
  ShardParts p;
  p.first_block = first_block;
  p.blocks = std::move(blocks);
  // Every card row of the report, picked or not: a drafting game lists every card type, and
  // the merge must too.
  for (const auto& [card, b] : report.cards) p.picks[card] = {b.offered, b.picked};
  p.calls = report.calls;
  p.worker_seconds = report.worker_seconds;
  p.seconds = report.seconds;
  return p;
}

Json ShardPartsToJson(const ShardParts& parts) {
  Json blocks = Json::array();
  for (const auto& b : parts.blocks) blocks.push_back(BlockOut(b));
  Json picks = Json::object();
  for (const auto& [card, n] : parts.picks) picks[card] = Json::array({n.first, n.second});
  Json calls = Json::object();
  for (const auto& [name, c] : parts.calls) calls[name] = Json::array({c.calls, c.seconds});
  return {{"first_block", parts.first_block}, {"blocks", std::move(blocks)}, {"picks", std::move(picks)},
          {"calls", std::move(calls)}, {"worker_seconds", parts.worker_seconds}, {"seconds", parts.seconds}};
}

Status ShardPartsFromJson(const Json& j, int players, const std::string& where, ShardParts* out) {
  ShardParts p;
  size_t block = SIZE_MAX;
  try {
    p.first_block = static_cast<int>(Whole(At(j, "first_block")));
    const Json& blocks = Array(At(j, "blocks"), SIZE_MAX, "blocks");
    for (block = 0; block < blocks.size(); ++block) p.blocks.push_back(BlockIn(blocks[block], players));
    block = SIZE_MAX;
    const Json& picks = At(j, "picks");
    if (!picks.is_object()) Bad("picks: expected an object");
    for (const auto& [card, n] : picks.items()) {
      Array(n, 2, "picks");
      p.picks[card] = {Whole(n[0]), Whole(n[1])};
    }
    const Json& calls = At(j, "calls");
    if (!calls.is_object()) Bad("calls: expected an object");
    for (const auto& [name, c] : calls.items()) {
      Array(c, 2, "calls");
      p.calls[name] = {Whole(c[0]), Number(c[1])};
    }
    p.worker_seconds = Number(At(j, "worker_seconds"));
    p.seconds = Number(At(j, "seconds"));
  } catch (const std::exception& e) {
    return Status::Input(where + (block != SIZE_MAX ? "/blocks/" + std::to_string(block) : std::string()) + ": " +
                         e.what() + " (not the parts `plateau simulate --shard` writes; was the file edited?)");
  }
  *out = std::move(p);
  return Status::Ok();
}

void MergeShards(const SimulationSpec& spec, const std::vector<ShardParts>& shards, SimulationReport* out) {
  SimulationReport r;
  InitReport(spec, &r);
  for (const auto& shard : shards)
    for (const auto& block : shard.blocks) MergeReport(block, spec.players, &r);
  // Whole numbers and timings: their order changes nothing that is compared.
  for (const auto& shard : shards) {
    for (const auto& [card, n] : shard.picks) {
      CardBalance& b = r.cards[card];
      b.offered += n.first;
      b.picked += n.second;
    }
    for (const auto& [name, c] : shard.calls) {
      r.calls[name].calls += c.calls;
      r.calls[name].seconds += c.seconds;
    }
    r.worker_seconds += shard.worker_seconds;
    r.seconds = std::max(r.seconds, shard.seconds);
  }
  FinishReport(spec.max_rounds, &r);
  *out = std::move(r);
}

}  // namespace plateau
