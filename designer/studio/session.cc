// plateau studio's game session (see studio_session.h): the table, play, undo, save/load,
// hot reload through designer/watch (the same code as `plateau watch`), the bots' thinker and
// simulations.
#include "designer/studio/session.h"

#include "host/files.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <exception>
#include <functional>
#include <new>
#include <thread>

#include "designer/cli/cli_common.h"
#include "designer/cli/watch.h"
#include "host/compare.h"
#include "host/json_io.h"
#include "host/replay.h"
#include "host/simulate.h"

namespace plateau {

using scripting::LuaRules;

namespace {

// A move as a player reads it: "place gazelle at (0, 1)", the script's args after it.
std::string MoveText(const Move& m, const CardSet& cards) {
  std::string out = m.type;
  if (m.card != kNoCard) out += " " + cards.Name(m.card);
  if (m.has_cell) out += " at (" + std::to_string(m.cell.row) + ", " + std::to_string(m.cell.col) + ")";
  if (m.has_to) out += " to (" + std::to_string(m.to.row) + ", " + std::to_string(m.to.col) + ")";
  // Scripts put their fields in an `args` table: its entries read as the move's own.
  std::function<void(const Json&)> fields = [&](const Json& j) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "args" && it->is_object()) fields(*it);
      else out += ", " + it.key() + " " + (it->is_string() ? it->get<std::string>() : it->dump());
    }
  };
  if (m.args->is_object()) fields(*m.args);
  return out;
}

// A move as the page lists it: the rules' own words when they give some (describe), else the
// move's fields.
std::string Label(LuaRules& rules, const State& state, int seat, const Move& m) {
  std::string label;
  if (rules.Describe(state, seat, m, &label).ok() && !label.empty()) return label;
  return MoveText(m, *state.cards);
}

bool IsHuman(const std::string& spec) { return spec == "human"; }

// Bot moves in a row (no human, no change from the page) before the thinker gives up on a
// game that neither ends nor reaches a human seat.
constexpr int kMaxBotMoves = 100000;

// A tile map's features as the page hovers them: per placed tile (in the map's order), each
// segment as [segment id, feature id] (the ids scripts see: map:segment, map:feature_of), and
// each feature's kind, completion, tally, pieces and size. The state JSON only lists the
// placements; the feature graph is the host's.
Json TileFeatures(const TileMap& map) {
  Json tiles = Json::array(), features = Json::object();
  for (const Coord& at : map.order()) {
    Json segments = Json::array();
    for (int i = 0; i < map.SegmentCount(at.row, at.col); ++i) {
      const int seg = map.Segment(at.row, at.col, i);
      const int root = map.FeatureOf(seg);
      segments.push_back({seg + 1, root + 1});
      const std::string key = std::to_string(root + 1);
      if (features.contains(key)) continue;
      const TileMap::FeatureInfo f = map.Feature(root);
      Json pieces = Json::array();
      for (const auto& [owner, n] : f.occupants)
        if (n) pieces.push_back({owner, n});
      features[key] = {{"kind", f.kind},           {"complete", f.complete}, {"open_edges", f.open_edges},
                       {"open_ends", f.open_ends}, {"tally", f.tally},       {"pieces", pieces},
                       {"tiles", f.tiles.size()}};
    }
    tiles.push_back(std::move(segments));
  }
  return {{"tiles", std::move(tiles)}, {"features", std::move(features)}};
}

}  // namespace

void RunGuarded(const std::string& what, const std::function<void()>& body,
                const std::function<void(const std::string&, const std::string&)>& on_error) {
  std::string error;
  try {
    body();
    return;
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "an unknown exception";
  }
  try {
    on_error(what, error);
  } catch (...) {
    std::fprintf(stderr, "plateau studio: %s failed: %s\n", what.c_str(), error.c_str());
  }
}

std::thread StartGuarded(std::string what, std::function<void()> body,
                         std::function<void(const std::string&, const std::string&)> on_error) {
  return std::thread([what = std::move(what), body = std::move(body), on_error = std::move(on_error)] {
    RunGuarded(what, body, on_error);
  });
}

StudioSession::~StudioSession() {
  Stop();
  if (think_thread_.joinable()) think_thread_.join();
  if (watch_thread_.joinable()) watch_thread_.join();
  std::lock_guard<std::mutex> lock(sim_start_mu_);
  if (sim_thread_.joinable()) sim_thread_.join();
}

void StudioSession::BackgroundFailed(const std::string& what, const std::string& error) {
  const std::string message = what + " failed: " + error;
  std::fprintf(stderr, "plateau studio: %s\n", message.c_str());
  {
    std::lock_guard<std::mutex> lock(mu_);
    background_error_ = message;
    ++revision_;
  }
  Notify({{"kind", "error"}, {"error", message}});
}

void StudioSession::StartBackground() {
  auto failed = [this](const std::string& what, const std::string& error) { BackgroundFailed(what, error); };
  // A watcher that failed starts again after a pause: hot reload is the studio's point.
  watch_thread_ = StartGuarded("the rules watcher", [this, failed] {
    while (!stopping_) {
      RunGuarded("the rules watcher", [this] { WatchLoop(); }, failed);
      for (int i = 0; i < 10 && !stopping_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }, failed);
  think_thread_ = StartGuarded("the bots' thinker", [this] { ThinkLoop(); }, failed);
}

Status StudioSession::Start(const StudioOptions& options) {
  std::lock_guard<std::mutex> lock(mu_);
  options_ = options;
  rules_generation_ = 1;
  Json given;
  Status st = ParseSets(options.sets, &given);
  if (st.ok()) st = ParseDataSets(options.sets, &g_data_sets);
  if (st.ok()) st = LoadRules(options.game, &rules_);
  if (st.ok()) st = ResolveParams(rules_->info(), given, &params_);
  if (!st.ok()) return st;
  if (rules_->info().abstract)
    return Status::Input(rules_->info().id + " is an abstract base for other games, not a game to play: open one that extends it");
  const GameInfo& info = rules_->info();
  const int players = options.players ? options.players : std::max(info.min_players, std::min(4, info.max_players));
  if (players < info.min_players || players > info.max_players)
    return Status::Input("--players " + std::to_string(players) + " is outside " + info.id + "'s " +
                         std::to_string(info.min_players) + "-" + std::to_string(info.max_players));
  seat_specs_ = Split(options.bots.empty() ? std::string("human,greedy") : options.bots);
  return NewGameLocked(players, options.seed);
}

Status StudioSession::NewGameLocked(int players, unsigned long long seed) {
  const GameInfo& info = rules_->info();
  if (players < info.min_players || players > info.max_players)
    return Status::Input("players: " + std::to_string(players) + " is outside " + info.id + "'s " +
                         std::to_string(info.min_players) + "-" + std::to_string(info.max_players));
  State fresh;
  Status st = rules_->NewGame(params_, players, seed, &fresh);
  if (!st.ok()) return st;
  state_ = std::move(fresh);
  st = MakeBots();
  Changed({{"kind", "new"}});
  return st;
}

// One controller per seat of the table (pseudo-seats too: a solo opponent that must move is a
// bot unless the page says otherwise); the list's last entry repeats, as with --bots.
Status StudioSession::MakeBots() {
  if (seat_specs_.empty()) seat_specs_ = {"human", "greedy"};
  const size_t seats = state_.seats.size();
  std::vector<std::string> specs(seats);
  std::vector<std::shared_ptr<Bot>> bots(seats);
  for (size_t i = 0; i < seats; ++i) {
    specs[i] = i < static_cast<size_t>(state_.player_count) ? seat_specs_[std::min(i, seat_specs_.size() - 1)] : "random";
    if (i < seat_specs_.size()) specs[i] = seat_specs_[i];
    if (IsHuman(specs[i])) continue;
    std::string error;
    bots[i] = MakeBot(specs[i], state_.seed * 31 + i, &error, &rules_->info());
    if (!bots[i]) return Status::Input("seat " + std::to_string(i + 1) + ": " + error + " (or 'human')");
  }
  seat_specs_ = std::move(specs);
  bots_ = std::move(bots);
  return Status::Ok();
}

// The bot that must move on the live table, if any, gets a job for the thinker: a copy of the
// table, its version and the rules' identity. A simultaneous step is played by its bots first
// (the humans' choices then complete it), so while a bot must move no human move is listed.
// The decision under way for an older table is stopped: its move would be refused anyway.
void StudioSession::ScheduleBotLocked() {
  std::lock_guard<std::mutex> lock(think_mu_);
  if (job_stop_) job_stop_->store(true);
  job_stop_.reset();
  job_.reset();
  bot_ = nullptr;
  std::vector<int> seats;
  if (stopping_ || !rules_->ToMove(state_, &seats).ok()) return;  // the table's own error shows in its JSON
  int seat = -1;
  for (int s : seats)
    if (s >= 0 && static_cast<size_t>(s) < bots_.size() && bots_[static_cast<size_t>(s)]) {
      seat = s;
      break;
    }
  if (seat < 0) return;
  const std::string& controller = seat_specs_[static_cast<size_t>(seat)];
  bot_ = {{"seat", seat}, {"controller", controller}, {"state", "thinking"}};
  if (bot_moves_in_row_ >= kMaxBotMoves) {
    bot_["state"] = "failed";
    bot_["error"] = "the bots played " + std::to_string(kMaxBotMoves) +
                    " moves without the game ending or a human seat having to move";
    return;
  }
  auto job = std::make_unique<BotJob>();
  job->version = version_.load();
  job->seat = seat;
  job->controller = controller;
  job->bot = bots_[static_cast<size_t>(seat)];
  job->state = state_;
  job->rules_generation = rules_generation_;
  job->folder = rules_->info().folder;
  job->fingerprint = rules_->fingerprint();
  job->data_overrides = rules_->data_overrides();
  job->stop = job_stop_ = std::make_shared<std::atomic<bool>>(false);
  job_ = std::move(job);
  think_cv_.notify_one();
}

// The thinker's thread: one decision at a time, on its own rules (a second VM loaded from the
// same files, checked by fingerprint: the table's VM serves the requests meanwhile) and a copy
// of the table. The move is played only on the table it was chosen for.
void StudioSession::ThinkLoop() {
  std::unique_ptr<LuaRules> rules;
  long long rules_generation = -1;
  for (;;) {
    std::unique_ptr<BotJob> job;
    {
      std::unique_lock<std::mutex> lock(think_mu_);
      think_cv_.wait(lock, [&] { return stopping_.load() || job_ != nullptr; });
      if (stopping_) return;
      job = std::move(job_);
    }
    const std::string who = "seat " + std::to_string(job->seat + 1) + " (" + job->controller + ")";
    Move move;
    Status st;
    RunGuarded(
        who + "'s bot",
        [&] {
          if (rules_generation != job->rules_generation) {
            rules.reset();
            rules_generation = -1;
            std::unique_ptr<LuaRules> fresh;
            st = LoadRules(job->folder, &fresh, &job->data_overrides);
            if (st.ok() && fresh->fingerprint() != job->fingerprint)
              st = Status::Input("the game's files changed on disk since the table's rules loaded: the bot thinks "
                                 "again once they reload");
            if (!st.ok()) return;
            rules = std::move(fresh);
            rules_generation = job->rules_generation;
          }
          job->bot->set_stop(job->stop.get());
          st = job->bot->Choose(*rules, job->state, job->seat, &move);
          job->bot->set_stop(nullptr);
        },
        [&](const std::string&, const std::string& error) {
          // The VM may be left anywhere by what threw: the next decision loads a fresh one.
          job->bot->set_stop(nullptr);
          rules.reset();
          rules_generation = -1;
          st = Status::Input("the bot stopped on an error: " + error);
        });
    std::lock_guard<std::mutex> lock(mu_);
    // Another table by now (a move, undo, reload, new game): its own job is scheduled. A
    // cancel has said so on the page already.
    if (job->version != version_.load() || job->stop->load() || stopping_) continue;
    if (st.ok()) st = rules_->Apply(&state_, job->seat, move);
    if (!st.ok()) {
      bot_["state"] = "failed";
      bot_["error"] = who + ": " + st.ToString();
      ChangedBot({{"kind", "bot"}, {"seat", job->seat}, {"state", "failed"}});
      continue;
    }
    ++bot_moves_in_row_;
    Changed({{"kind", "move"}, {"seat", job->seat}, {"bot", true}});
  }
}

Status StudioSession::CancelBot() {
  std::lock_guard<std::mutex> lock(mu_);
  if (bot_.is_null() || bot_.value("state", std::string()) != "thinking")
    return Status::Illegal("no bot is thinking");
  {
    std::lock_guard<std::mutex> think(think_mu_);
    if (job_stop_) job_stop_->store(true);
    job_.reset();
  }
  bot_["state"] = "cancelled";
  bot_["error"] = "cancelled: the seat waits; change who plays it (human or another bot) to go on";
  ChangedBot({{"kind", "bot"}, {"seat", bot_["seat"]}, {"state", "cancelled"}});
  return Status::Ok();
}

void StudioSession::Notify(const Json& event) {
  std::lock_guard<std::mutex> lock(event_mu_);
  ++events_;
  last_event_ = event;
  last_event_["version"] = version_.load();
  event_cv_.notify_all();
}

// The live table travels with the event: a page shows a move or a reload without asking for
// it again (a round trip less between the reload and the page).
void StudioSession::Changed(const Json& event) {
  ++version_;
  if (!event.value("bot", false)) bot_moves_in_row_ = 0;
  ScheduleBotLocked();
  ChangedBot(event);
}

void StudioSession::ChangedBot(const Json& event) {
  ++revision_;
  Json e = event;
  Json table;
  if (TableLocked(-1, -1, &table).ok()) e["table"] = std::move(table);
  Notify(e);
}

long long StudioSession::WaitEvent(long long after, int timeout_ms, Json* out) {
  std::unique_lock<std::mutex> lock(event_mu_);
  event_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return events_ > after || stopping_.load(); });
  *out = last_event_;
  return events_;
}

Status StudioSession::Table(int at, int viewer, Json* out) {
  std::lock_guard<std::mutex> lock(mu_);
  if (viewer < -1 || viewer >= static_cast<int>(state_.seats.size())) {
    std::string names;
    for (size_t i = 0; i < state_.seats.size(); ++i) names += (i ? ", " : "") + state_.seats[i].name;
    return Status::Input("seat " + std::to_string(viewer + 1) + " is not at this table: view as a seat from 1 to " +
                         std::to_string(state_.seats.size()) + " (" + names + ")");
  }
  return TableLocked(at, viewer, out);
}

Status StudioSession::TableLocked(int at, int viewer, Json* out) {
  std::vector<LoggedMove> moves;
  Status st = MovesOfLog(state_, &moves);
  if (!st.ok()) return st;
  const int total = static_cast<int>(moves.size());
  State past;
  const bool history = at >= 0 && at < total;
  if (history) {
    // An earlier moment of the game, rebuilt from the seed and the first `at` moves (the same
    // replay that checks saves). Moves played before a reload replay under today's rules.
    st = Replay(*rules_, state_, std::vector<LoggedMove>(moves.begin(), moves.begin() + at), &past);
    if (!st.ok()) {
      st.message = "the game after move " + std::to_string(at) + " cannot be rebuilt: " + st.message;
      return st;
    }
  }
  const State& s = history ? past : state_;
  Json j = s.ToJson();
  j.erase("rng");
  j.erase("log");
  // Simultaneous choices not yet revealed stay hidden from the page (as the log keeps them);
  // a seat's view shows the seat its own.
  if (j.contains("flow") && j["flow"].contains("pending") && j["flow"]["pending"].is_array())
    for (size_t i = 0; i < j["flow"]["pending"].size(); ++i) {
      auto& p = j["flow"]["pending"][i];
      if (!p.is_null() && static_cast<int>(i) != viewer) p = "hidden";
    }
  // A hidden zone (a deck) shows how many cards it holds, not which; so does a zone its owner
  // alone sees (a hand), in another seat's view.
  for (auto& z : j["zones"]) {
    z["count"] = z["cards"].size();
    const std::string vis = z.value("visibility", std::string());
    // The designer sees a hidden zone's cards too (the animal in play before its reveal),
    // marked as hidden from every seat; a seat's view sees a count.
    if ((vis == "hidden" && viewer >= 0) || (viewer >= 0 && vis == "owner" && z.value("owner", -1) != viewer)) {
      z["cards"] = Json::array();
      if (vis == "owner") z["hidden_from_viewer"] = true;
    }
  }
  // state.data is the rules' own: the host cannot tell what of it a seat may see, so a seat's
  // view keeps only the keys the game's look declares public (Safari's vehicles, Fauna's last
  // reveal), for the page to draw them.
  if (viewer >= 0) {
    Json kept = Json::object();
    const Json& look = rules_->files().look;
    if (look.is_object() && look.contains("public_data") && j.contains("data") && j["data"].is_object())
      for (const auto& key : look["public_data"])
        if (j["data"].contains(key.get<std::string>())) kept[key.get<std::string>()] = j["data"][key.get<std::string>()];
    j["data"] = std::move(kept);
  }
  Json out_j;
  out_j["state"] = std::move(j);
  out_j["version"] = version_.load();
  out_j["revision"] = revision_;
  out_j["at"] = history ? at : total;
  out_j["moves_total"] = total;
  out_j["hash"] = s.Hash();
  out_j["viewer"] = viewer;
  Json tile_features = Json::object();
  for (const auto& [name, map] : s.tile_maps) tile_features[name] = TileFeatures(map);
  out_j["tile_features"] = std::move(tile_features);
  ScoreTable table;
  st = rules_->Score(s, &table);
  if (st.ok()) {
    out_j["scores"] = ScoresJson(table);
    // The categories in the rulebook's order (a JSON object sorts them).
    Json order = Json::array();
    for (const auto& line : table.lines)
      for (const auto& [k, v] : line.breakdown)
        if (std::find(order.begin(), order.end(), Json(k)) == order.end()) order.push_back(k);
    out_j["categories"] = order;
    out_j["extra"] = table.extra;
  } else {
    out_j["scores"] = Json::array();
    out_j["score_error"] = st.ToString();
  }
  Json seats = Json::array();
  for (size_t i = 0; i < s.seats.size(); ++i)
    seats.push_back({{"name", s.seats[i].name},
                     {"kind", s.seats[i].kind},
                     {"controller", i < seat_specs_.size() ? seat_specs_[i] : "random"}});
  out_j["seats"] = seats;
  // The bot that must move now (thinking, cancelled or failed): the live table's only.
  out_j["bot"] = history ? Json() : bot_;
  out_j["background_error"] = background_error_;
  std::vector<int> to_move;
  st = rules_->ToMove(s, &to_move);
  if (!st.ok()) return st;
  out_j["to_move"] = to_move;
  out_j["over"] = to_move.empty();
  Json legal = Json::array();
  if (!history && bot_.is_null())
    for (int seat : to_move) {
      if (seat < 0 || static_cast<size_t>(seat) >= bots_.size() || bots_[static_cast<size_t>(seat)]) continue;
      if (viewer >= 0 && seat != viewer) continue;  // a seat's view lists that seat's moves only
      std::vector<Move> list;
      st = rules_->LegalMoves(s, seat, &list);
      if (!st.ok()) return st;
      Json items = Json::array();
      for (size_t i = 0; i < list.size() && i < 2000; ++i) {
        const Move& m = list[i];
        Json item = {{"i", i}, {"label", Label(*rules_, s, seat, m)}, {"type", m.type}};
        if (m.card != kNoCard) item["card"] = s.CardName(m.card);
        if (m.has_cell) item["cell"] = {m.cell.row, m.cell.col};
        if (m.has_to) item["to"] = {m.to.row, m.to.col};
        if (m.args->is_object()) item["args"] = *m.args;
        items.push_back(std::move(item));
      }
      legal.push_back({{"seat", seat}, {"moves", items}, {"count", list.size()}});
    }
  out_j["legal"] = legal;
  // The log: each move with who played it, numbered as the slider counts (1 = the first move).
  // A simultaneous choice not yet revealed (its seat has committed, the others not all) is
  // logged as hidden: a human choosing next must not read the bot's card in the log.
  std::vector<size_t> hidden;
  for (size_t seat = 0; seat < state_.flow.committed.size(); ++seat)
    if (state_.flow.committed[seat] && static_cast<int>(seat) != viewer)
      for (size_t i = state_.log.size(); i-- > 0;)
        if (state_.log[i].kind == "move" && state_.log[i].seat == static_cast<int>(seat)) {
          hidden.push_back(i);
          break;
        }
  Json log = Json::array();
  int n = 0;
  for (size_t i = 0; i < state_.log.size(); ++i) {
    const LogEntry& e = state_.log[i];
    if (e.kind == "move") {
      ++n;
      std::string text;
      Move m;
      std::string error;
      if (std::find(hidden.begin(), hidden.end(), i) != hidden.end()) text = "(a hidden choice, revealed when every seat has chosen)";
      else if (MoveFromJson(e.detail, *state_.cards, &m, &error)) text = MoveText(m, *state_.cards);
      else text = DumpJson(e.detail);
      log.push_back({{"n", n}, {"seat", e.seat}, {"kind", "move"}, {"text", text}});
    } else if (e.kind == "reload") {
      auto field = [&](const char* key) {
        return e.detail.is_object() && e.detail.contains(key) && e.detail[key].is_string() ? e.detail[key].get<std::string>()
                                                                                          : std::string("?");
      };
      log.push_back({{"n", n}, {"seat", -1}, {"kind", "reload"}, {"text", "rules reloaded (" + field("from") + " -> " + field("to") + ")"}});
    }
  }
  out_j["log"] = log;
  out_j["view"] = rules_->View(s, viewer);
  out_j["reload"] = last_reload_;
  *out = std::move(out_j);
  return Status::Ok();
}

Json StudioSession::Game() {
  std::lock_guard<std::mutex> lock(mu_);
  const GameInfo& info = rules_->info();
  const GameFiles& files = rules_->files();
  Json params = Json::array();
  for (const auto& p : info.params) params.push_back({{"name", p.name}, {"type", p.type}, {"default", p.default_value}});
  // The game's data documents, by their names (a look's paths name them: "cards/cards",
  // "chenilles/species"), and the ones that lay out the table by their schemas too: tiles
  // (edges, segments), regions (coordinates, neighbours) and scales (buckets and labels).
  Json data = Json::object();
  for (const auto& [name, doc] : files.data) {
    data[name] = doc;
    const std::string schema = doc.value("$schema_name", std::string());
    if (schema == "tiles" || schema == "regions" || schema == "scales") data[schema] = doc;
  }
  // The game's look (data/look.json, host/look.h), checked when the files were loaded: a bad
  // one refuses the load (or the reload, the table kept) naming the file and the JSON path.
  data["look"] = files.look.is_null() ? Json::object() : files.look;
  Json cards = Json::object();
  for (const auto& [name, doc] : files.data)
    if (doc.is_object() && doc.contains("cards") && doc["cards"].is_array())
      for (const auto& c : doc["cards"])
        if (c.is_object() && c.contains("id") && c["id"].is_string()) {
          Json card = {{"name", c.contains("name") ? c["name"] : c["id"]}};
          for (const char* key : {"color", "colour", "icon", "category", "kind"})
            if (c.contains(key)) card[key] = c[key];
          cards[c["id"].get<std::string>()] = card;
        }
  return {{"id", info.id},       {"name", info.name}, {"min_players", info.min_players}, {"max_players", info.max_players},
          {"params", params},    {"data", data},      {"cards", cards},                  {"folder", GameFolderDisplay(info.folder)},
          {"fingerprint", rules_->fingerprint()}, {"max_sim_games", kStudioMaxGames}};
}

Status StudioSession::Play(int seat, int index, long long version) {
  std::lock_guard<std::mutex> lock(mu_);
  if (version != version_)
    return Status::Illegal("the table changed since this move was listed (another tab moved, or the rules reloaded): "
                           "look at the table again and choose again");
  if (seat < 0 || static_cast<size_t>(seat) >= state_.seats.size())
    return Status::Input("seat " + std::to_string(seat + 1) + " is not at this table");
  if (bots_[static_cast<size_t>(seat)])
    return Status::Illegal(state_.seats[static_cast<size_t>(seat)].name + " is played by the bot " +
                           seat_specs_[static_cast<size_t>(seat)]);
  if (!bot_.is_null()) {
    const size_t b = bot_["seat"].get<size_t>();
    return Status::Illegal(state_.seats[b].name + " (" + seat_specs_[b] + ") must move first" +
                           (bot_["state"] == "thinking" ? ": it is thinking" : ": " + bot_.value("error", std::string())));
  }
  std::vector<int> to_move;
  Status st = rules_->ToMove(state_, &to_move);
  if (!st.ok()) return st;
  if (std::find(to_move.begin(), to_move.end(), seat) == to_move.end())
    return Status::Illegal(state_.seats[static_cast<size_t>(seat)].name + " is not to move now");
  std::vector<Move> moves;
  st = rules_->LegalMoves(state_, seat, &moves);
  if (!st.ok()) return st;
  if (index < 0 || static_cast<size_t>(index) >= moves.size())
    return Status::Illegal("move " + std::to_string(index) + " is not one of the " + std::to_string(moves.size()) +
                           " legal moves of " + state_.seats[static_cast<size_t>(seat)].name);
  st = rules_->Apply(&state_, seat, moves[static_cast<size_t>(index)]);
  if (!st.ok()) return st;  // the rules put the state back
  Changed({{"kind", "move"}, {"seat", seat}});
  return st;
}

Status StudioSession::Undo() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<LoggedMove> moves;
  Status st = MovesOfLog(state_, &moves);
  if (!st.ok()) return st;
  if (moves.empty()) return Status::Illegal("nothing to undo: no move has been played");
  // Back to before the last human move (with the bots' answers to it); a table of bots only
  // goes back one move.
  int cut = static_cast<int>(moves.size()) - 1;
  for (int i = cut; i >= 0; --i)
    if (static_cast<size_t>(moves[static_cast<size_t>(i)].seat) < bots_.size() && !bots_[static_cast<size_t>(moves[static_cast<size_t>(i)].seat)]) {
      cut = i;
      break;
    }
  State back;
  st = Replay(*rules_, state_, std::vector<LoggedMove>(moves.begin(), moves.begin() + cut), &back);
  if (!st.ok()) {
    st.message = "undo: the game before move " + std::to_string(cut + 1) + " cannot be rebuilt: " + st.message;
    return st;
  }
  state_ = std::move(back);
  Changed({{"kind", "undo"}});
  return Status::Ok();
}

Status StudioSession::NewGame(int players, unsigned long long seed) {
  std::lock_guard<std::mutex> lock(mu_);
  return NewGameLocked(players ? players : state_.player_count, seed);
}

Status StudioSession::SetSeats(const std::vector<std::string>& seats) {
  std::lock_guard<std::mutex> lock(mu_);
  if (seats.empty() || seats.size() > state_.seats.size())
    return Status::Input("seats: give 1 to " + std::to_string(state_.seats.size()) + " entries, 'human' or a bot");
  const std::vector<std::string> before = seat_specs_;
  seat_specs_ = seats;
  Status st = MakeBots();
  if (!st.ok()) {
    seat_specs_ = before;
    MakeBots();
    return st;
  }
  Changed({{"kind", "seats"}});
  return st;
}

Status StudioSession::Save(const std::string& path) {
  if (path.empty() || path.size() < 6 || path.compare(path.size() - 5, 5, ".json") != 0)
    return Status::Input("save: give a file name ending in .json (got '" + path + "')");
  // The save's text is made under the lock; the disk is touched outside it, so a slow disk
  // (or a file that blocks) holds this call only, never the table.
  Json save;
  {
    std::lock_guard<std::mutex> lock(mu_);
    save = SaveJson(state_, *rules_);
  }
  // The one writer, as WriteSave writes it: a save replaces only a save (a slip of the name
  // never writes a game over a data file), and never with the command line's --force: the page
  // asks for a save, not for a file to be replaced.
  OutputFile out = UserOutput(path, OutputKind::kSave, "save");
  out.force = false;
  Status st = WriteOutputFile(out, DumpJson(save, 1));
  if (!st.ok() && st.message.find("refus") != std::string::npos)
    st.message += " (it exists and is not a saved game; choose another name)";
  return st;
}

Status StudioSession::Load(const std::string& path) {
  // Read and checked outside the lock (options_ is fixed once Start returns): the table is
  // served meanwhile, and swapped in whole once the save is known good.
  std::unique_ptr<LuaRules> rules;
  State state;
  Status st = LoadRulesAndSave(options_.game, path, &rules, &state);
  if (!st.ok()) return st;  // the table stays as it was
  std::lock_guard<std::mutex> lock(mu_);
  rules_ = std::move(rules);
  state_ = std::move(state);
  ++rules_generation_;
  rules_changed_ = true;
  st = MakeBots();
  Changed({{"kind", "load"}, {"path", path}});
  return st;
}

void StudioSession::Stop() {
  stopping_ = true;
  sim_cancel_ = true;
  {
    std::lock_guard<std::mutex> lock(think_mu_);
    if (job_stop_) job_stop_->store(true);
    think_cv_.notify_all();
  }
  std::lock_guard<std::mutex> lock(event_mu_);
  event_cv_.notify_all();
}

void StudioSession::WatchLoop() {
  FolderWatcher watcher(options_.poll_ms, options_.settle_ms);
  {
    std::lock_guard<std::mutex> lock(mu_);
    watcher.Watch(*rules_);
  }
  while (!stopping_) {
    {
      // A loaded save brings rules of its own: watch their folders.
      std::lock_guard<std::mutex> lock(mu_);
      if (rules_changed_) watcher.Watch(*rules_);
      rules_changed_ = false;
    }
    if (!watcher.Changed()) continue;
    std::lock_guard<std::mutex> lock(mu_);
    ScoreTable before;
    const bool scored = rules_->Score(state_, &before).ok();
    const std::string hash = state_.Hash();
    const ReloadEvent r = ReloadOnTable(rules_->info().folder, watcher.detected(), &state_, &rules_);
    Json e = {{"kind", "reload"}, {"ok", r.ok}, {"ms", r.ms}, {"changes", r.changes}, {"state_before", hash},
              {"state_after", state_.Hash()}};
    if (scored) e["scores_before"] = ScoresJson(before);
    if (!r.ok) {
      e["error"] = r.error.ToString();
      e["error_kind"] = ErrorKindName(r.error.kind);
    }
    e["at"] = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    last_reload_ = e;
    // A refused reload leaves the table as it was: the page keeps its moves valid.
    if (r.ok) {
      ++rules_generation_;
      MakeBots();  // bots may use the game's options, which the new manifest may change
      Changed(e);
    } else {
      ++revision_;  // the table's reload banner
      Notify(e);
    }
  }
}

Status StudioSession::StartSimulation(const SimulationRequest& request) {
  // The fields' types and ranges are studio.cc's (one reader for every request); what needs
  // them together is here.
  const long long runs = request.sweep.empty() ? 1 : static_cast<long long>(request.sweep_values.size());
  if (request.games < 1 || request.games > kStudioMaxGames || request.games * runs > kStudioMaxGames)
    return Status::Input("simulate: the studio runs at most " + std::to_string(kStudioMaxGames) + " games at a time (asked " +
                         std::to_string(request.games) + (runs > 1 ? " x " + std::to_string(runs) + " values" : std::string()) +
                         "); for more use `plateau simulate` or `plateau sweep` " + options_.game);
  if (stopping_) return Status::Illegal("the studio is stopping");
  // One start at a time; the finished run's thread is joined without sim_mu_, which its
  // progress thread takes on its way out.
  std::lock_guard<std::mutex> start(sim_start_mu_);
  {
    std::lock_guard<std::mutex> lock(sim_mu_);
    if (sim_.value("state", std::string()) == "running")
      return Status::Illegal("a simulation is already running: wait for it or cancel it");
  }
  if (sim_thread_.joinable()) sim_thread_.join();
  {
    std::lock_guard<std::mutex> lock(sim_mu_);
    sim_cancel_ = false;
    sim_done_ = 0;
    sim_base_ = 0;
    sim_games_ = request.games * runs;
    sim_ = {{"state", "running"}, {"done", 0}, {"games", sim_games_}, {"request", request.echo}};
  }
  sim_thread_ = StartGuarded("the simulation", [this, request] { RunSimulation(request); },
                             [this](const std::string& what, const std::string& error) {
                               {
                                 std::lock_guard<std::mutex> lock(sim_mu_);
                                 sim_ = {{"state", "failed"}, {"games", sim_games_}, {"error", what + " failed: " + error}};
                               }
                               BackgroundFailed(what, error);
                               Notify({{"kind", "sim"}, {"state", "failed"}});
                             });
  return Status::Ok();
}

void StudioSession::CancelSimulation() { sim_cancel_ = true; }

Json StudioSession::Simulation() {
  std::lock_guard<std::mutex> lock(sim_mu_);
  Json j = sim_;
  j["done"] = sim_base_.load() + sim_done_.load();
  return j;
}

namespace {

// The report of one run as the page and --compare read it: the CLI's JSON report with its run
// settings.
Json ReportJson(const SimulationReport& report, const SimulationSpec& spec, const std::string& game,
                const std::vector<std::string>& sets) {
  Json j = report.ToJson();
  j["game"] = game;
  j["players"] = spec.players;
  j["seed"] = spec.seed;
  j["params"] = spec.params;
  j["sets"] = sets;
  j["max_rounds"] = spec.max_rounds;
  return j;
}

}  // namespace

namespace {

// A report file as --compare reads it: a JSON object with the report's games, rounds and seats.
Status ReadReport(const std::string& path, Json* out) {
  if (path.empty()) return Status::Input("compare: give the path of a report file (plateau simulate ... --format json > report.json)");
  std::string error;
  JsonLimits limits;
  limits.max_bytes = 64u << 20;
  if (!ReadJsonFile(path, path, out, &error, limits)) return Status::Input("compare: " + error);
  if (!out->is_object() || !(*out)["games"].is_number() || !out->contains("rounds") || !(*out)["seats"].is_array())
    return Status::Input("compare: " + path + " is not a report written by `plateau simulate ... --format json` (nor the page's JSON " +
                         (out->is_object() && out->contains("runs") ? "of a simulation: this is a sweep's)" : "of a simulation)"));
  return Status::Ok();
}

// The game a report names, as a folder name (a report may name its game by id or by path).
std::string ReportGame(const Json& report) {
  if (!report.contains("game") || !report["game"].is_string()) return "";
  std::string g = report["game"].get<std::string>();
  while (g.size() > 1 && g.back() == '/') g.pop_back();
  const size_t slash = g.rfind('/');
  return slash == std::string::npos ? g : g.substr(slash + 1);
}

}  // namespace

Status StudioSession::CompareFiles(const std::string& before_path, const std::string& after_path, Json* out) {
  Json before, after;
  Status st = ReadReport(before_path, &before);
  if (st.ok()) st = ReadReport(after_path, &after);
  if (!st.ok()) return st;
  const std::string game_before = ReportGame(before), game_after = ReportGame(after);
  if (!game_before.empty() && !game_after.empty() && game_before != game_after)
    return Status::Input("compare: " + before_path + " is a report of " + game_before + " and " + after_path + " of " + game_after +
                         ": compare two reports of the same game");
  const Json compare = CompareReports(before, after);
  auto side = [](const std::string& path, const Json& r) {
    const size_t slash = path.rfind('/');
    return Json{{"path", path}, {"name", slash == std::string::npos ? path : path.substr(slash + 1)}, {"game", ReportGame(r)},
                {"games", r["games"]}};
  };
  *out = {{"compare", compare}, {"compare_text", CompareToText(compare, before_path)}, {"before", side(before_path, before)},
          {"after", side(after_path, after)}};
  return Status::Ok();
}

// Runs on its own thread: the same simulation as `plateau simulate` (host/simulate), or one per
// value of a swept parameter or data value as `plateau sweep`, with the page's progress and
// cancel. A report is the CLI's JSON report plus the distributions the plots need, and its
// comparison with the previous run from the page (host/compare).
void StudioSession::RunSimulation(SimulationRequest request) {
  SimulationSpec spec;
  spec.games = static_cast<int>(request.games);  // at most kStudioMaxGames
  spec.seed = request.seed;
  spec.max_rounds = request.max_rounds;
  spec.bots = Split(request.bots);
  if (spec.bots.empty()) spec.bots = {"random"};
  spec.threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  spec.done_games = &sim_done_;
  spec.cancel = &sim_cancel_;
  spec.rotate_seats = request.rotate_seats;
  std::string game;
  Status st;
  {
    std::lock_guard<std::mutex> lock(mu_);
    game = rules_->info().folder;
    const GameInfo& info = rules_->info();
    spec.players = request.players;
    if (spec.players == 0) spec.players = state_.player_count;
    spec.params = params_;
    if (spec.players < info.min_players || spec.players > info.max_players)
      st = Status::Input("simulate: players " + std::to_string(spec.players) + " is outside " + info.id + "'s " +
                         std::to_string(info.min_players) + "-" + std::to_string(info.max_players));
  }
  // The page's progress bar: an event a few times a second while the games run. Ended and
  // joined however this function ends (an exception on the way must not leave it joinable).
  struct Progress {
    std::atomic<bool> over{false};
    std::thread thread;
    ~Progress() {
      over = true;
      if (thread.joinable()) thread.join();
    }
  } progress;
  progress.thread = StartGuarded("the simulation's progress", [this, &progress, total = sim_games_] {
    long long last = -1;
    while (!stopping_ && !progress.over) {
      {
        std::lock_guard<std::mutex> lock(sim_mu_);
        if (sim_.value("state", std::string()) != "running") break;
      }
      const long long d = sim_base_.load() + sim_done_.load();
      if (d != last) Notify({{"kind", "sim"}, {"done", d}, {"games", total}});
      last = d;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }, [](const std::string&, const std::string&) {});  // progress only: the run goes on without it
  // One run: the given parameter or data value set, the others as the table's.
  auto run = [&](const std::string& name, const Json& value, SimulationReport* report, SimulationSpec* used) {
    SimulationSpec one = spec;
    std::vector<DataOverride> data_sets = g_data_sets;
    std::vector<std::string> sets = options_.sets;
    if (!name.empty()) {
      if (name.find('.') == std::string::npos) {
        Json given = one.params;
        given[name] = value;
        std::lock_guard<std::mutex> lock(mu_);
        Status s = ResolveParams(rules_->info(), given, &one.params);
        if (!s.ok()) return s;
      } else {
        data_sets.push_back({name, value});
      }
      sets.push_back(name + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    }
    sim_done_ = 0;
    *used = one;
    Status s = Simulate(
        [&](std::unique_ptr<Rules>* out) {
          std::unique_ptr<LuaRules> r;
          Status ls = LoadRules(game, &r, &data_sets);
          *out = std::move(r);
          return ls;
        },
        one, report);
    sim_base_ += sim_done_.load();
    sim_done_ = 0;
    return s;
  };
  Json result;
  if (st.ok() && !request.sweep.empty()) {
    const std::string& name = request.sweep;
    Json rows = Json::array();
    for (const auto& v : request.sweep_values) {
      SimulationReport report;
      SimulationSpec used;
      st = run(name, v, &report, &used);
      if (!st.ok()) {
        st.message = name + "=" + DumpJson(v) + ": " + st.message;
        break;
      }
      rows.push_back({{"value", v}, {"report", ReportJson(report, used, options_.game, options_.sets)}});
    }
    if (st.ok()) result = {{"state", "done"}, {"games", sim_base_.load()}, {"sweep", {{"name", name}, {"runs", rows}}}};
  } else if (st.ok()) {
    SimulationReport report;
    SimulationSpec used;
    st = run("", Json(), &report, &used);
    if (st.ok()) {
      Json j = ReportJson(report, used, options_.game, options_.sets);
      Json dist = Json::array();
      for (const auto& counts : report.seat_score_counts) {
        Json seat = Json::array();
        for (const auto& [total, k] : counts) seat.push_back({total, k});
        dist.push_back(seat);
      }
      Json rounds = Json::array();
      for (const auto& [r, k] : report.round_counts) rounds.push_back({r, k});
      Json plots = {{"seat_scores", dist}, {"rounds", rounds}, {"seat_names", report.seat_names}};
      std::lock_guard<std::mutex> lock(sim_mu_);
      Json compare;
      if (!previous_report_.is_null()) compare = CompareReports(previous_report_, j);
      result = {{"state", "done"}, {"games", spec.games}, {"report", j}, {"plots", plots}, {"compare", compare},
                {"compare_text", compare.is_null() ? "" : CompareToText(compare, "the previous run")}};
      previous_report_ = j;
    }
  }
  {
    std::lock_guard<std::mutex> lock(sim_mu_);
    if (st.ok()) {
      sim_ = std::move(result);
    } else {
      const bool cancelled = sim_cancel_.load();
      sim_ = {{"state", cancelled ? "cancelled" : "failed"}, {"games", sim_games_}, {"error", st.ToString()}};
    }
  }
  progress.over = true;
  if (progress.thread.joinable()) progress.thread.join();
  Notify({{"kind", "sim"}, {"state", Simulation()["state"]}});
}

}  // namespace plateau
