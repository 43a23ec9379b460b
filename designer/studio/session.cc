// plateau studio's game session (see studio_session.h): the table, play, undo, save/load,
// hot reload through designer/watch (the same code as `plateau watch`), the bots' thinker and
// simulations.
#include "designer/studio/session.h"

#include "host/files.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
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

// The moves in a state's log.
size_t LoggedMoves(const State& state) {
  size_t n = 0;
  for (const auto& e : state.log) n += e.kind == "move";
  return n;
}

// Keeps the label of a move applied on a table of `before` logged moves: it is the log's next
// move. Labels of moves before it that were not kept stay empty (described when shown).
void KeepLabel(size_t before, const std::string& label, std::vector<std::string>* labels) {
  labels->resize(before);
  labels->push_back(label);
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
  sets_ = options.sets;
  set_origins_.clear();
  for (size_t i = 0; i < sets_.size(); ++i)
    set_origins_.push_back(i < options.set_file_count ? "--set-file " + options.set_file : "--set");
  data_sets_ = g_data_sets;
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
  log_labels_.clear();
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
  // A seat the table had keeps its controller; a new player seat (a larger table) gets the
  // table's bot (the last player seat's that is a bot), as --bots repeats its last entry; a
  // pseudo-seat (a solo opponent) is random unless the page said otherwise.
  const size_t known = std::min(seat_specs_.size(), spec_players_);
  for (size_t i = known; i-- > 0;)
    if (!IsHuman(seat_specs_[i])) {
      table_bot_ = seat_specs_[i];
      break;
    }
  if (table_bot_.empty()) table_bot_ = seat_specs_[known ? known - 1 : 0];
  const size_t players = static_cast<size_t>(state_.player_count);
  for (size_t i = 0; i < seats; ++i) {
    if (i < players) specs[i] = i < known ? seat_specs_[i] : table_bot_;
    else specs[i] = i < seat_specs_.size() ? seat_specs_[i] : "random";
    if (IsHuman(specs[i])) continue;
    std::string error;
    bots[i] = MakeBot(specs[i], state_.seed * 31 + i, &error, &rules_->info());
    if (!bots[i]) return Status::Input("seat " + std::to_string(i + 1) + ": " + error + " (or 'human')");
  }
  seat_specs_ = std::move(specs);
  spec_players_ = players;
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
    const std::string label = st.ok() ? Label(*rules_, state_, job->seat, move) : std::string();
    const size_t logged = LoggedMoves(state_);
    if (st.ok()) st = rules_->Apply(&state_, job->seat, move);
    if (!st.ok()) {
      bot_["state"] = "failed";
      bot_["error"] = who + ": " + st.ToString();
      ChangedBot({{"kind", "bot"}, {"seat", job->seat}, {"state", "failed"}});
      continue;
    }
    ++bot_moves_in_row_;
    KeepLabel(logged, label, &log_labels_);
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
      else if (static_cast<size_t>(n - 1) < log_labels_.size() && !log_labels_[static_cast<size_t>(n - 1)].empty())
        text = log_labels_[static_cast<size_t>(n - 1)];
      else if (MoveFromJson(e.detail, *state_.cards, &m, &error)) text = Label(*rules_, state_, e.seat, m);
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
  // A copy opened by its path (a modder's folder) is named by that folder, not games/<id>.
  std::string folder = FolderIfNotInstalled(options_.game);
  if (folder.empty()) folder = GameFolderDisplay(info.folder);
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
          {"params", params},    {"data", data},      {"cards", cards},                  {"folder", folder},
          {"fingerprint", rules_->fingerprint()}, {"max_sim_games", kStudioMaxGames}};
}

void StudioSession::PrintInputs(std::string* game, std::vector<DataOverride>* data_sets) {
  std::lock_guard<std::mutex> lock(mu_);
  *game = options_.game;
  *data_sets = data_sets_;
}

Json StudioSession::Numbers() {
  std::vector<std::string> sets, origins;
  Json params;
  std::vector<ParamSpec> specs;
  {
    std::lock_guard<std::mutex> lock(mu_);
    sets = sets_;
    origins = set_origins_;
    params = params_;
    specs = rules_->info().params;
  }
  // Who set a name last (a later --set wins over an earlier one, as on the command line).
  auto origin_of = [&](const std::string& name) {
    Json who;
    for (size_t i = 0; i < sets.size(); ++i)
      if (sets[i].rfind(name + "=", 0) == 0) who = origins[i];
    return who;
  };
  Json jparams = Json::array();
  for (const auto& p : specs) {
    Json e = {{"name", p.name}, {"type", p.type}, {"default", p.default_value},
              {"value", params.contains(p.name) ? params[p.name] : p.default_value}, {"doc", p.doc},
              {"minimum", p.minimum}, {"maximum", p.maximum}, {"set_by", origin_of(p.name)}};
    if (!p.choices.empty()) e["choices"] = p.choices;
    jparams.push_back(std::move(e));
  }
  // The data's own value beside each value set: the game's files read without the overrides
  // (outside the lock: a read of the game's JSON files).
  GameFiles base;
  const bool have_base = LoadGameFiles(options_.game, &base).ok();
  Json data = Json::array();
  std::vector<std::string> seen;
  for (size_t i = sets.size(); i-- > 0;) {
    std::string name;
    Json value;
    if (!SplitSet(sets[i], &name, &value).ok() || name.find('.') == std::string::npos) continue;
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;  // a later one won
    seen.push_back(name);
    Json original;
    if (have_base && !ReadDataValue(base, name, &original).ok()) original = Json();
    data.insert(data.begin(), Json{{"path", name}, {"value", value}, {"original", original}, {"set_by", origins[i]}});
  }
  Json overlay;
  if (!options_.set_file.empty()) {
    Json values = Json::object();
    bool active = options_.set_file_count > 0;
    for (size_t i = 0; i < options_.set_file_count && i < options_.sets.size(); ++i) {
      std::string name;
      Json value;
      if (SplitSet(options_.sets[i], &name, &value).ok()) values[name] = value;
      // Active while the page has not replaced its values (a value edited on the page is the page's).
      const auto at = std::find(sets.begin(), sets.end(), options_.sets[i]);
      active = active && at != sets.end() && origins[static_cast<size_t>(at - sets.begin())] == "--set-file " + options_.set_file;
    }
    overlay = {{"file", options_.set_file}, {"values", values}, {"active", active}};
  }
  return {{"params", jparams}, {"data", data}, {"sets", sets}, {"origins", origins}, {"overlay", overlay}};
}

Status StudioSession::ApplySets(const std::vector<std::string>& sets, int players, unsigned long long seed) {
  // The command line's own readers: the same values are refused with the same messages. The
  // rules load with the data values outside the lock (the table is served meanwhile).
  Json given, params;
  std::vector<DataOverride> data;
  Status st = ParseSets(sets, &given);
  if (st.ok()) st = ParseDataSets(sets, &data);
  if (!st.ok()) return st;
  std::unique_ptr<LuaRules> fresh;
  st = LoadRules(options_.game, &fresh, &data);
  if (!st.ok()) return st;
  st = ResolveParams(fresh->info(), given, &params);
  if (!st.ok()) return st;
  std::lock_guard<std::mutex> lock(mu_);
  const GameInfo& info = fresh->info();
  const int n = players ? players : state_.player_count;
  if (n < info.min_players || n > info.max_players)
    return Status::Input("players: " + std::to_string(n) + " is outside " + info.id + "'s " + std::to_string(info.min_players) +
                         "-" + std::to_string(info.max_players));
  State game;
  st = fresh->NewGame(params, n, seed, &game);
  if (!st.ok()) return st;
  std::vector<std::string> origins;
  for (const auto& text : sets) {
    const auto was = std::find(sets_.begin(), sets_.end(), text);
    origins.push_back(was != sets_.end() ? set_origins_[static_cast<size_t>(was - sets_.begin())] : "the page");
  }
  rules_ = std::move(fresh);
  params_ = std::move(params);
  data_sets_ = std::move(data);
  sets_ = sets;
  set_origins_ = std::move(origins);
  ++rules_generation_;
  rules_changed_ = true;
  state_ = std::move(game);
  log_labels_.clear();
  st = MakeBots();
  Changed({{"kind", "numbers"}});
  return st;
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
  const std::string label = Label(*rules_, state_, seat, moves[static_cast<size_t>(index)]);
  const size_t logged = LoggedMoves(state_);
  st = rules_->Apply(&state_, seat, moves[static_cast<size_t>(index)]);
  if (!st.ok()) return st;  // the rules put the state back
  KeepLabel(logged, label, &log_labels_);
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
  if (log_labels_.size() > static_cast<size_t>(cut)) log_labels_.resize(static_cast<size_t>(cut));
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
  log_labels_.clear();
  // The save brings its own numbers: its parameters and the data values it was played with
  // are the ones in force now (a new game or a simulation from the page uses them).
  {
    std::vector<std::string> sets, origins;
    for (auto it = state_.params.begin(); it != state_.params.end(); ++it) {
      const std::string text = it.key() + "=" + DumpJson(*it);
      const auto was = std::find(sets_.begin(), sets_.end(), text);
      bool is_default = false;
      for (const auto& p : rules_->info().params) is_default |= p.name == it.key() && p.default_value == *it;
      if (is_default && was == sets_.end()) continue;
      sets.push_back(text);
      origins.push_back(was != sets_.end() ? set_origins_[static_cast<size_t>(was - sets_.begin())] : "the save " + path);
    }
    for (const auto& d : rules_->data_overrides()) {
      const std::string text = d.path + "=" + DumpJson(d.value);
      const auto was = std::find(sets_.begin(), sets_.end(), text);
      sets.push_back(text);
      origins.push_back(was != sets_.end() ? set_origins_[static_cast<size_t>(was - sets_.begin())] : "the save " + path);
    }
    sets_ = std::move(sets);
    set_origins_ = std::move(origins);
    data_sets_ = rules_->data_overrides();
    params_ = state_.params;
  }
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

// A tune result as `plateau tune --format json` writes it: its targets, candidates and verdict.
bool IsTuneResult(const Json& j) {
  return j.is_object() && j.contains("verdict") && j.contains("targets") && j["targets"].is_array() && j.contains("candidates") &&
         j["candidates"].is_array();
}

// A report file as --compare reads it (a JSON object with the report's games, rounds and
// seats), or a tune result; *tune says which.
Status ReadReport(const std::string& path, Json* out, bool* tune) {
  if (path.empty())
    return Status::Input("compare: give the path of a report file (plateau simulate ... --format json > report.json) or of a tune "
                         "result (plateau tune ... --format json > tune.json)");
  std::string error;
  JsonLimits limits;
  limits.max_bytes = 64u << 20;
  if (!ReadJsonFile(path, path, out, &error, limits)) return Status::Input("compare: " + error);
  *tune = IsTuneResult(*out);
  if (*tune) return Status::Ok();
  if (!out->is_object() || !(*out)["games"].is_number() || !out->contains("rounds") || !(*out)["seats"].is_array())
    return Status::Input("compare: " + path + " is not a report written by `plateau simulate ... --format json` (nor the page's JSON " +
                         (out->is_object() && out->contains("runs") ? "of a simulation: this is a sweep's)" : "of a simulation)") +
                         ", nor a tune result written by `plateau tune ... --format json`");
  return Status::Ok();
}

// One measure of a tune target ("win_rate:P1", "rounds", "count:failures") read from a
// report's JSON as tune measures it on the report (designer/cli/tune.cc Measure): its value and
// standard error. False when the report has no such measure.
bool ReportMeasure(const Json& r, const std::string& measure, double* value, double* se) {
  const double games = r.value("games", 0.0);
  if (games <= 0) return false;
  const size_t colon = measure.find(':');
  const std::string kind = measure.substr(0, colon), name = colon == std::string::npos ? "" : measure.substr(colon + 1);
  auto share = [&](double k, double n) {
    *value = n > 0 ? k / n : 0;
    const double p = (k + 1) / (n + 2);
    *se = n > 0 ? std::sqrt(p * (1 - p) / n) : 0.5;
    return true;
  };
  auto mean = [&](const Json& stat, double n) {
    if (!stat.is_object() || !stat.contains("mean")) return false;
    *value = stat.value("mean", 0.0);
    *se = n > 1 ? stat.value("stdev", 0.0) / std::sqrt(n) : std::fabs(*value) + 1;
    return true;
  };
  auto seat = [&]() -> const Json* {
    if (!r.contains("seats") || !r["seats"].is_array()) return nullptr;
    for (size_t s = 0; s < r["seats"].size(); ++s) {
      const std::string full = r["seats"][s].value("seat", std::string());
      if (full == name || full.substr(0, full.find(' ')) == name || std::to_string(s + 1) == name) return &r["seats"][s];
    }
    return nullptr;
  };
  auto field = [&](const char* key) -> const Json* {
    return r.contains(key) && r[key].is_object() && r[key].contains(name) ? &r[key][name] : nullptr;
  };
  if (kind == "rounds" || kind == "top_score" || kind == "spread") return r.contains(kind) && mean(r[kind], games);
  if (kind == "stopped") return share(r.value("stopped", 0.0), games);
  if (kind == "win_rate" || kind == "score") {
    if (const Json* s = seat()) {
      if (kind == "score") return mean(*s, games);
      return share(s->value("win_rate", 0.0) * games, games);
    }
    if (const Json* b = kind == "win_rate" ? field("bots") : nullptr) {
      const double n = b->value("seats", 0.0) * games;
      return share(b->value("win_rate", 0.0) * n, n);
    }
    return false;
  }
  if (kind == "ending") {
    const Json* e = field("endings");
    return share(e && e->is_number() ? e->get<double>() : 0, games);
  }
  if (kind == "tag") {
    const Json* t = field("tags");
    return share(t ? t->value("games", 0.0) : 0, games);
  }
  if (kind == "count") {
    const Json* c = field("counts");
    return c && mean(*c, games);
  }
  if (kind == "category") {
    const Json* c = field("categories");
    return c && c->contains("all") && mean((*c)["all"], games);
  }
  return false;
}

// A tune result's confirmation run, measure by measure: {measure: {value, se, target}}.
Json TuneMeasures(const Json& tune) {
  Json out = Json::object();
  const Json& confirm = tune.contains("confirmation") ? tune["confirmation"] : Json();
  if (!confirm.is_object() || !confirm.contains("measures") || !confirm["measures"].is_array()) return out;
  for (const auto& m : confirm["measures"]) {
    if (!m.is_object()) continue;
    const std::string text = m.value("target", std::string());
    std::string measure = text;
    for (const auto& t : tune["targets"])
      if (t.is_object() && t.value("target", std::string()) == text) measure = t.value("measure", text);
    out[measure] = {{"value", m.value("value", 0.0)}, {"se", m.value("se", 0.0)}, {"target", text}};
  }
  return out;
}

// The tuned values of a tune result as one line ("board_size=5, chenilles.x=3").
std::string TunedValues(const Json& tune) {
  std::string out;
  if (tune.contains("best") && tune["best"].is_object())
    for (auto it = tune["best"].begin(); it != tune["best"].end(); ++it)
      out += (out.empty() ? "" : ", ") + it.key() + "=" + DumpJson(*it);
  return out.empty() ? "none" : out;
}

// A tune result against another or against a report: each target's measure side by side, a
// difference marked changed beyond kChangeZ standard errors, as --compare judges a report's.
// The same shape as CompareReports' answer, so the page draws either.
Json CompareTune(const Json& before, bool before_tune, const Json& after, bool after_tune, const std::string& before_name,
                 const std::string& after_name) {
  const Json mb = before_tune ? TuneMeasures(before) : Json::object();
  const Json ma = after_tune ? TuneMeasures(after) : Json::object();
  // The measures in the targets' order (the tune's own), the first tune's first.
  std::vector<std::string> names;
  for (const Json* side : {before_tune ? &before : nullptr, after_tune ? &after : nullptr})
    if (side)
      for (const auto& t : (*side)["targets"]) {
        const std::string name = t.is_object() ? t.value("measure", std::string()) : std::string();
        if ((mb.contains(name) || ma.contains(name)) && std::find(names.begin(), names.end(), name) == names.end())
          names.push_back(name);
      }
  Json measures = Json::array(), settings = Json::array();
  int compared = 0, changed = 0;
  for (const auto& name : names) {
    double vb = 0, sb = 0, va = 0, sa = 0;
    bool hb = false, ha = false;
    if (mb.contains(name)) vb = mb[name]["value"].get<double>(), sb = mb[name]["se"].get<double>(), hb = true;
    else hb = ReportMeasure(before, name, &vb, &sb);
    if (ma.contains(name)) va = ma[name]["value"].get<double>(), sa = ma[name]["se"].get<double>(), ha = true;
    else ha = ReportMeasure(after, name, &va, &sa);
    const std::string target = (mb.contains(name) ? mb : ma)[name]["target"].get<std::string>();
    Json m = {{"measure", name + " (target " + target + ")"}, {"before", hb ? Json(vb) : Json()}, {"after", ha ? Json(va) : Json()},
              {"headline", true}, {"changed", false}, {"difference", Json()}, {"z", Json()}};
    if (hb && ha) {
      ++compared;
      const double se = std::sqrt(sb * sb + sa * sa);
      m["difference"] = va - vb;
      if (se > 0) m["z"] = (va - vb) / se;
      const bool moved = se > 0 ? std::fabs(va - vb) / se >= kChangeZ : va != vb;
      m["changed"] = moved;
      changed += moved;
    }
    measures.push_back(std::move(m));
  }
  if (before_tune) settings.push_back(before_name + ": tuned values " + TunedValues(before));
  if (after_tune) settings.push_back(after_name + ": tuned values " + TunedValues(after));
  if (before_tune != after_tune)
    settings.push_back("the tune's targets measured on the report as plateau tune measures them; a measure the report lacks is left blank");
  return {{"compared", compared}, {"changed", changed}, {"settings", settings}, {"measures", measures}};
}

// A tune comparison as text: one line per target's measure.
std::string CompareTuneText(const Json& compare, const std::string& baseline_name) {
  std::string out = "\ncompared with " + baseline_name + ":\n";
  for (const auto& note : compare["settings"]) out += "  note: " + note.get<std::string>() + "\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-48s %10s %10s %11s %7s\n", "measure", "before", "now", "difference", "z");
  out += line;
  auto num = [](const Json& v) { return v.is_number() ? Format("%.4g", v.get<double>()) : std::string("-"); };
  for (const auto& m : compare["measures"]) {
    std::snprintf(line, sizeof line, "  %-48s %10s %10s %11s %7s%s\n", m["measure"].get<std::string>().c_str(), num(m["before"]).c_str(),
                  num(m["after"]).c_str(), num(m["difference"]).c_str(), num(m["z"]).c_str(), m["changed"].get<bool>() ? "  changed" : "");
    out += line;
  }
  return out;
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
  bool before_tune = false, after_tune = false;
  Status st = ReadReport(before_path, &before, &before_tune);
  if (st.ok()) st = ReadReport(after_path, &after, &after_tune);
  if (!st.ok()) return st;
  const std::string game_before = ReportGame(before), game_after = ReportGame(after);
  if (!game_before.empty() && !game_after.empty() && game_before != game_after)
    return Status::Input("compare: " + before_path + " is a report of " + game_before + " and " + after_path + " of " + game_after +
                         ": compare two reports of the same game");
  auto side = [](const std::string& path, const Json& r, bool tune) {
    const size_t slash = path.rfind('/');
    // A tune result's games: its confirmation run's, the measures compared.
    const Json games = tune ? (r.contains("confirmation") && r["confirmation"].is_object() ? r["confirmation"].value("games", Json())
                                                                                           : Json())
                            : r["games"];
    return Json{{"path", path}, {"name", slash == std::string::npos ? path : path.substr(slash + 1)}, {"game", ReportGame(r)},
                {"games", games}, {"kind", tune ? "tune" : "report"}};
  };
  const Json sb = side(before_path, before, before_tune), sa = side(after_path, after, after_tune);
  if (before_tune || after_tune) {
    // The files are input: a field of the wrong type in either is refused, never thrown.
    Json compare;
    try {
      compare = CompareTune(before, before_tune, after, after_tune, sb["name"], sa["name"]);
    } catch (const Json::exception& e) {
      return Status::Input("compare: " + before_path + " against " + after_path + ": a field of the wrong type (" + e.what() + ")");
    }
    *out = {{"compare", compare}, {"compare_text", CompareTuneText(compare, before_path)}, {"before", sb}, {"after", sa}};
    return Status::Ok();
  }
  const Json compare = CompareReports(before, after);
  *out = {{"compare", compare}, {"compare_text", CompareToText(compare, before_path)}, {"before", sb}, {"after", sa}};
  return Status::Ok();
}

Status StudioSession::ReadTune(const std::string& path, Json* out) {
  if (path.empty()) return Status::Input("tune: give the path of a tune result (plateau tune ... --format json > tune.json)");
  std::string error;
  JsonLimits limits;
  limits.max_bytes = 64u << 20;
  Json j;
  if (!ReadJsonFile(path, path, &j, &error, limits)) return Status::Input("tune: " + error);
  if (!IsTuneResult(j))
    return Status::Input("tune: " + path + " is not a tune result written by `plateau tune ... --format json`" +
                         (j.is_object() && j.contains("plateau_overlay") ? " (this is the overlay tune --write makes: apply it with --set-file)" : ""));
  std::string id, folder;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = rules_->info().id;
    folder = ReportGame(Json{{"game", options_.game}});
  }
  const std::string game = ReportGame(j);
  if (!game.empty() && game != id && game != folder)
    return Status::Input("tune: " + path + " is a tune of " + game + ", not of " + id);
  const size_t slash = path.rfind('/');
  *out = {{"tune", j}, {"path", path}, {"name", slash == std::string::npos ? path : path.substr(slash + 1)}};
  return Status::Ok();
}

// Runs on its own thread: the same simulation as `plateau simulate` (host/simulate), or one per
// value of a swept parameter or data value as `plateau sweep`, with the page's progress and
// cancel. A report is the CLI's JSON report plus the distributions the plots need, and its
// comparison with the previous run from the page (host/compare).
void StudioSession::RunSimulation(SimulationRequest request) {
  SimulationSpec spec;
  spec.game = options_.game;
  spec.games = static_cast<int>(request.games);  // at most kStudioMaxGames
  spec.seed = request.seed;
  spec.max_rounds = request.max_rounds;
  spec.bots = Split(request.bots);
  if (spec.bots.empty()) spec.bots = {"random"};
  spec.threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  spec.done_games = &sim_done_;
  spec.cancel = &sim_cancel_;
  spec.rotate_seats = request.rotate_seats;
  spec.kingmaking_games = request.kingmaking;
  std::string game;
  Status st;
  // The values in force on the table (the command line's, the page's or a save's).
  std::vector<DataOverride> base_data;
  std::vector<std::string> base_sets;
  {
    std::lock_guard<std::mutex> lock(mu_);
    game = rules_->info().folder;
    base_data = data_sets_;
    base_sets = sets_;
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
    std::vector<DataOverride> data_sets = base_data;
    std::vector<std::string> sets = base_sets;
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
      rows.push_back({{"value", v}, {"report", ReportJson(report, used, options_.game, base_sets)}});
    }
    if (st.ok()) result = {{"state", "done"}, {"games", sim_base_.load()}, {"sweep", {{"name", name}, {"runs", rows}}}};
  } else if (st.ok()) {
    SimulationReport report;
    SimulationSpec used;
    st = run("", Json(), &report, &used);
    if (st.ok()) {
      Json j = ReportJson(report, used, options_.game, base_sets);
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
