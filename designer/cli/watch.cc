// plateau watch (see watch.h). Files are polled rather than watched through inotify so the
// same code serves any filesystem; a burst of writes (an editor's save-as-rename, several
// files saved together) is loaded once, after it has been quiet for settle_ms.
#include "designer/cli/watch.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "host/bots.h"
#include "host/files.h"
#include "host/json_io.h"
#include "designer/cli/cli_common.h"
#include "host/render.h"
#include "scripting/reload.h"

namespace plateau {
namespace {

using Clock = std::chrono::steady_clock;
using scripting::LuaRules;

// Every regular file under the folder (recursively, hidden files skipped), with its
// modification time, size and inode: a rename-over changes the inode even at equal mtime.
// Listed as the loader reads the folder (host/files.h): a link or a FIFO is an entry that
// changes like any other (the reload then refuses it by name), never followed or opened.
template <typename Snapshot>
void Scan(const std::string& dir, Snapshot* out) {
  ListOptions o;
  o.max_depth = 6;
  std::vector<FolderEntry> entries;
  ListGameFiles(dir, GameFolderDisplay(dir), o, &entries);
  for (const auto& e : entries) {
    const std::string& rel = e.rel;
    if ((rel.size() > 4 && rel.compare(rel.size() - 4, 4, ".lua") == 0) ||
        (rel.size() > 5 && rel.compare(rel.size() - 5, 5, ".json") == 0))
      (*out)[dir + "/" + rel] = {static_cast<long long>(e.mtime_ns), static_cast<long long>(e.size),
                                 static_cast<unsigned long long>(e.inode)};
  }
}

void Emit(const WatchOptions& o, const char* event, bool ok, double ms, const Status& error, const State& state,
          LuaRules& rules, const std::string& changes) {
  ScoreTable t;
  Status sst = rules.Score(state, &t);
  std::vector<int> seats;
  std::vector<Move> moves;
  size_t legal = 0;
  if (rules.ToMove(state, &seats).ok())
    for (int s : seats)
      if (rules.LegalMoves(state, s, &moves).ok()) legal += moves.size();
  if (o.format == "json") {
    Json j;
    j["event"] = event;
    j["ok"] = ok;
    j["ms"] = ms;
    j["error"] = ok ? Json() : Json(error.message);
    j["state_hash"] = state.Hash();
    j["scores"] = sst.ok() ? ScoresJson(t) : Json::array();
    Json to_move = Json::array();
    for (int seat : seats) to_move.push_back(seat + 1);  // seats are 1-based wherever people read them
    j["to_move"] = std::move(to_move);
    j["legal_moves"] = legal;
    if (!changes.empty()) j["changes"] = changes;
    std::printf("%s\n", j.dump().c_str());
  } else {
    if (ok) {
      std::printf("[%s] rules %s in %.1f ms; state %s; %zu legal moves for %zu seat(s)\n", event,
                  std::string(event) == "start" ? "loaded" : "reloaded", ms, state.Hash().c_str(), legal, seats.size());
      if (!changes.empty()) std::printf("%s", changes.c_str());
      if (sst.ok()) std::printf("%s", RenderScores(t).c_str());
    } else {
      std::printf("[%s] rejected after %.1f ms, the old rules keep running (state %s unchanged):\n%s\n", event, ms,
                  state.Hash().c_str(), error.ToString().c_str());
    }
  }
  std::fflush(stdout);
}

// The table as a save, refreshed after every event, so another thread can write it out when
// the process must end while the main thread is busy (a signal, a reload past --timeout).
struct Recovery {
  std::mutex mu;
  std::string text;  // empty until the table exists
  std::string path;
  std::atomic<bool> done{false};

  void Keep(const State& state, LuaRules& rules) {
    std::string t = DumpJson(SaveJson(state, rules), 1);
    std::lock_guard<std::mutex> lock(mu);
    text = std::move(t);
  }
  // Writes the table and ends the process with `code` (2 when the table could not be written);
  // called from the helper threads only. A stop asked for is a normal end: code 0.
  [[noreturn]] void SaveAndExit(const std::string& why, int code) {
    std::lock_guard<std::mutex> lock(mu);
    if (text.empty()) {
      std::fprintf(stderr, "plateau: watch: %s before the table was set\n", why.c_str());
    } else if (WriteOutputFile(UserOutput(path, OutputKind::kSave, "--recovery"), text).ok()) {
      std::fprintf(stderr, "plateau: watch: %s; the table is saved in %s (continue with: plateau watch <game> --load %s)\n",
                   why.c_str(), path.c_str(), path.c_str());
    } else {
      std::fprintf(stderr, "plateau: watch: %s; could not write the table to %s\n", why.c_str(), path.c_str());
      code = 2;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code);
  }
};

Recovery g_recovery;

// Signals are taken by one thread (sigwait) instead of a handler, so saving the table can use
// ordinary code. Called before any other thread exists, so every thread inherits the mask.
void GuardSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread([set] {
    int sig = 0;
    sigwait(&set, &sig);
    g_recovery.SaveAndExit(std::string("stopped by ") + (sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP"),
                           0);
  }).detach();
}

// --timeout fires even while a reload is running: the main loop stops by itself at the
// deadline; if it is still busy a second later, this thread saves the table and ends.
void GuardTimeout(int seconds) {
  if (seconds <= 0) return;
  std::thread([seconds] {
    std::this_thread::sleep_for(std::chrono::seconds(seconds) + std::chrono::seconds(1));
    if (!g_recovery.done.load()) g_recovery.SaveAndExit("--timeout of " + std::to_string(seconds) + " s reached during a reload", 0);
  }).detach();
}
}  // namespace

void FolderWatcher::Watch(const LuaRules& rules) {
  folders_.clear();
  for (const auto& root : rules.files().roots) folders_.push_back(root.folder);
  seen_ = ScanAll();
}

FolderWatcher::Snapshot FolderWatcher::ScanAll() const {
  Snapshot out;
  for (const auto& folder : folders_) Scan(folder, &out);
  return out;
}

bool FolderWatcher::Changed() {
  std::this_thread::sleep_for(std::chrono::milliseconds(poll_ms_));
  Snapshot now = ScanAll();
  if (now == seen_) return false;
  // Something changed: wait until the folder has been quiet for settle_ms (one reload per burst).
  detected_ = Clock::now();
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(settle_ms_));
    Snapshot again = ScanAll();
    if (again == now) break;
    now = std::move(again);
    if (Clock::now() - detected_ > std::chrono::seconds(2)) break;  // a file written forever
  }
  seen_ = std::move(now);
  return true;
}

ReloadEvent ReloadOnTable(const std::string& folder, Clock::time_point detected, State* state,
                          std::unique_ptr<LuaRules>* rules) {
  scripting::Limits limits;
  scripting::ReloadResult r = scripting::ReloadRules(folder, limits, state, rules);
  ReloadEvent e;
  e.ok = r.ok;
  e.error = r.error;
  e.changes = r.changes;
  e.ms = std::chrono::duration<double, std::milli>(Clock::now() - detected).count();
  return e;
}

Json ScoresJson(const ScoreTable& t) {
  Json out = Json::array();
  for (const auto& line : t.lines) {
    Json breakdown = Json::object();
    for (const auto& [k, v] : line.breakdown) breakdown[k] = v;
    out.push_back({{"name", line.name}, {"total", line.total}, {"breakdown", breakdown}});
  }
  return out;
}

int RunWatch(const WatchOptions& o) {
  {
    std::string base = o.game;
    while (base.size() > 1 && base.back() == '/') base.pop_back();
    base = base.substr(base.find_last_of('/') == std::string::npos ? 0 : base.find_last_of('/') + 1);
    g_recovery.path = o.recovery_path.empty() ? base + "-recovery.json" : o.recovery_path;
    // Where the table goes if watch is stopped: a place it could not be written is refused now,
    // not found out when the table is lost.
    Status st = CheckOutputFile(UserOutput(g_recovery.path, OutputKind::kSave, "--recovery"));
    if (!st.ok()) return Fail(st);
  }
  GuardSignals();
  GuardTimeout(o.timeout_s);
  std::unique_ptr<LuaRules> rules;
  const auto t0 = Clock::now();
  Json given = Json::object(), params;
  Status st = ParseSets(o.sets, &given);
  if (st.ok()) st = ParseDataSets(o.sets, &g_data_sets);
  if (!st.ok()) return Fail(st);
  State state;
  if (!o.load_path.empty()) {
    st = LoadRulesAndSave(o.game, o.load_path, &rules, &state);
    if (!st.ok()) return Fail(st);
  } else {
    st = LoadRules(o.game, &rules);
    if (st.ok()) st = ResolveParams(rules->info(), given, &params);
    const int players =
        !st.ok() ? 0 : o.players ? o.players : std::max(rules->info().min_players, std::min(4, rules->info().max_players));
    if (st.ok()) st = rules->NewGame(params, players, o.seed, &state);
    if (!st.ok()) return Fail(st);
  }
  // Bots play the first moves, then the table is held for editing.
  std::vector<std::string> names;
  {
    std::string cur;
    for (char c : o.bots + ",") {
      if (c == ',') { if (!cur.empty()) names.push_back(cur); cur.clear(); }
      else if (c != ' ') cur += c;
    }
    if (names.empty()) names.push_back("random");
  }
  std::vector<int> seats;
  for (int played = 0; played < o.moves; ++played) {
    st = rules->ToMove(state, &seats);
    if (!st.ok() || seats.empty()) break;
    std::string error;
    auto bot = MakeBot(names[static_cast<size_t>(seats.front()) % names.size()], o.seed * 31 + static_cast<unsigned long long>(played), &error,
                       &rules->info());
    if (!bot) {
      std::fprintf(stderr, "plateau: --bots: %s\n", error.c_str());
      return 2;
    }
    Move m;
    st = bot->Choose(*rules, state, seats.front(), &m);
    if (st.ok()) st = rules->Apply(&state, seats.front(), m);
    if (!st.ok()) {
      std::fprintf(stderr, "plateau: %s\n", st.ToString().c_str());
      return st.script_failure() ? 1 : 2;
    }
  }
  const std::string folder = rules->info().folder;
  Emit(o, "start", true, std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), {}, state, *rules, "");
  g_recovery.Keep(state, *rules);

  FolderWatcher watcher(o.poll_ms, o.settle_ms);
  watcher.Watch(*rules);
  int reloads = 0;
  const auto started = t0;
  for (;;) {
    if (o.max_reloads >= 0 && reloads >= o.max_reloads) break;
    if (o.timeout_s > 0 && Clock::now() - started > std::chrono::seconds(o.timeout_s)) break;
    if (!watcher.Changed()) continue;
    const ReloadEvent r = ReloadOnTable(folder, watcher.detected(), &state, &rules);
    Emit(o, "reload", r.ok, r.ms, r.error, state, *rules, r.changes);
    if (r.ok) g_recovery.Keep(state, *rules);
    ++reloads;
  }
  g_recovery.done = true;
  return 0;
}

}  // namespace plateau
