// plateau studio's game session: the table the page shows and plays on (rules, state, who
// plays each seat), its hot reload through the watch code, and the background simulation the
// page runs. Everything here is HTTP-free (studio.cc serves it); every public method takes the
// session's lock, so two browser tabs making moves at once are served one after the other.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/bots.h"
#include "scripting/lua_rules.h"

namespace plateau {

struct StudioOptions {
  std::string game;
  int port = 0;             // 0: any free port
  int players = 0;          // 0: the game's usual count
  unsigned long long seed = 1;
  std::string bots;         // one per seat, "human" or a bot spec; default "human,greedy"
  std::vector<std::string> sets;
  bool dev = false;          // serve the page's files from designer/studio/ on disk, not the binary
  int poll_ms = 5;          // how often the game folder is checked (as plateau watch)
  int settle_ms = 15;
};

// The most games one simulation from the page may run: the page is for a look at balance, the
// CLI for long runs (and a request for 10^9 games must not hold the machine for hours).
inline constexpr int kStudioMaxGames = 100000;

class StudioSession {
 public:
  ~StudioSession();
  Status Start(const StudioOptions& options);

  // The table as the page draws it: the state (hidden zones as counts), scores, who moves,
  // each human seat's legal moves with labels and cells, the seats, the log. `at` >= 0 shows
  // the game after its first `at` moves (rebuilt by replay), read-only. `viewer` >= 0 shows the
  // table as that seat sees it, as `plateau play` shows it to a player: other seats' own zones
  // (hands) and every hidden zone as counts, other seats' unrevealed choices hidden, the
  // rules' view for that seat, only that seat's moves, and no state.data (the rules' own: the
  // host cannot tell what of it the seat may see). -1: the designer's view, everything shown.
  Status Table(int at, int viewer, Json* out);
  // What the page needs once per rules load: the game's name, players, parameters, and the
  // data documents that lay out its maps (tiles, regions).
  Json Game();
  // `index` into the seat's legal moves as Table listed them at `version`: a move listed on
  // an older table (another tab moved, the rules reloaded) is refused rather than misread.
  Status Play(int seat, int index, long long version);
  // Takes back the last human move and whatever the bots played after it.
  Status Undo();
  Status NewGame(int players, unsigned long long seed);
  // One entry per seat: "human" or a bot spec (greedy, mcts:iters=100, ...).
  Status SetSeats(const std::vector<std::string>& seats);
  Status Save(const std::string& path);
  Status Load(const std::string& path);

  // Watches the game's folders and reloads the rules on the table (the watch code) until
  // Stop(); run on its own thread.
  void WatchLoop();
  void Stop();

  // A simulation in the background: {"n", "bots", "players", "seed", "max_rounds",
  // "rotate_seats"}, with "sweep": {"name", "values": [...]} one run per value of a parameter
  // or data value (as `plateau sweep`).
  Status StartSimulation(const Json& request);
  void CancelSimulation();
  // {"state": "idle"|"running"|"done"|"failed"|"cancelled", "done", "games", "report", "error"}.
  Json Simulation();

  // Two reports saved by `plateau simulate --format json` (or the page's JSON button), read
  // from disk and compared as `--compare` does (host/compare): {"compare", "compare_text",
  // "before", "after"} with each file's name, game and games. Refused, saying why, when a
  // file is missing, is not such a report, or the two are of different games.
  static Status CompareFiles(const std::string& before, const std::string& after, Json* out);

  // Events for the page (server-sent): blocks until the event count passes `after` or
  // `timeout_ms` passes; returns the count and, in *out, the latest event.
  long long WaitEvent(long long after, int timeout_ms, Json* out);
  bool stopping() const { return stopping_.load(); }

 private:
  Status NewGameLocked(int players, unsigned long long seed);
  Status TableLocked(int at, int viewer, Json* out);
  Status MakeBots();
  Status RunBots();
  // Bumps the table version and wakes the event streams with the new table; mu_ held.
  void Changed(const Json& event);
  void Notify(const Json& event);   // wakes the event streams with the table unchanged
  void RunSimulation(Json request);

  std::mutex mu_;  // the table: everything below up to the simulation's
  StudioOptions options_;
  std::unique_ptr<scripting::LuaRules> rules_;
  State state_;
  Json params_ = Json::object();
  std::vector<std::string> seat_specs_;  // per seat: "human" or a bot spec
  std::vector<std::unique_ptr<Bot>> bots_;  // per seat: null for a human
  std::atomic<long long> version_{1};
  Json last_reload_;  // the latest reload event, null before the first
  bool rules_changed_ = false;
  std::vector<std::string> watch_folders_;

  std::mutex sim_mu_;  // the simulation's fields
  std::thread sim_thread_;
  std::atomic<bool> sim_cancel_{false};
  std::atomic<int> sim_done_{0};        // games finished in the current run
  std::atomic<long long> sim_base_{0};  // games of a sweep's finished runs
  Json sim_ = {{"state", "idle"}};
  Json previous_report_;  // the report before the last one, to compare with

  std::mutex event_mu_;
  std::condition_variable event_cv_;
  long long events_ = 0;
  Json last_event_ = Json::object();
  std::atomic<bool> stopping_{false};
};

}  // namespace plateau
