// plateau studio's game session: the table the page shows and plays on (rules, state, who
// plays each seat), its hot reload through the watch code, the bots' thinking and the
// background simulation the page runs. Everything here is HTTP-free (studio.cc serves it and
// checks every request's fields before calling in); every public method takes the session's
// lock, so two browser tabs making moves at once are served one after the other. Nothing slow
// runs under that lock on a request's behalf: bots think on their own thread on a copy of the
// table, saves and loads touch the disk outside it, and every thread the session starts runs
// through RunGuarded.
#pragma once

#include <atomic>
#include <cstdint>
#include <condition_variable>
#include <functional>
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
  // --set-file: the overlay's path; its values are the first `set_file_count` entries of `sets`
  // (the command line's own --set follow and win), so the page can mark them as the overlay's.
  std::string set_file;
  size_t set_file_count = 0;
  bool dev = false;          // serve the page's files from designer/studio/ on disk, not the binary
  int poll_ms = 5;          // how often the game folder is checked (as plateau watch)
  int settle_ms = 15;
};

// The most games one simulation from the page may run: the page is for a look at balance, the
// CLI for long runs (and a request for 10^9 games must not hold the machine for hours).
inline constexpr int kStudioMaxGames = 100000;

// A simulation the page asks for, its fields already checked (studio.cc): as `plateau
// simulate`, or with a sweep one run per value of a parameter or data value (`plateau sweep`).
struct SimulationRequest {
  int64_t games = 100;
  std::string bots = "random";
  int players = 0;  // 0: the table's
  unsigned long long seed = 1;
  int max_rounds = 500;
  bool rotate_seats = false;
  int kingmaking = 0;       // games sampled for kingmaking (SimulationSpec::kingmaking_games)
  std::string sweep;        // "" : no sweep; else the parameter or data.path swept
  Json sweep_values = Json::array();
  Json echo = Json::object();  // the request as given, shown with the run's state
};

// Every thread the studio starts runs its body through here: whatever the body throws is
// caught and handed to `on_error` (what, message), never left to end the process. An
// on_error that throws is caught too, and its message written to stderr.
void RunGuarded(const std::string& what, const std::function<void()>& body,
                const std::function<void(const std::string& what, const std::string& error)>& on_error);
std::thread StartGuarded(std::string what, std::function<void()> body,
                         std::function<void(const std::string& what, const std::string& error)> on_error);

class StudioSession {
 public:
  ~StudioSession();
  Status Start(const StudioOptions& options);
  // The session's own threads: the rules watcher and the bots' thinker. Stop() ends them.
  void StartBackground();

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
  // The bots answer on their own thread; the page sees them think and move by the events.
  Status Play(int seat, int index, long long version);
  // Stops the bot thinking now (the page's Cancel): the table stays as it is, that seat still
  // to move, until who plays a seat changes or the table does (undo, new game, load, reload).
  Status CancelBot();
  // Takes back the last human move and whatever the bots played after it.
  Status Undo();
  Status NewGame(int players, unsigned long long seed);
  // One entry per seat: "human" or a bot spec (greedy, mcts:iters=100, ...).
  Status SetSeats(const std::vector<std::string>& seats);
  Status Save(const std::string& path);
  Status Load(const std::string& path);

  // Stops everything: the event streams wake, the bot's decision and the simulation are
  // cancelled at their next check, the watcher ends; the threads are joined by the destructor.
  void Stop();

  // A simulation in the background (see SimulationRequest).
  Status StartSimulation(const SimulationRequest& request);
  void CancelSimulation();
  // {"state": "idle"|"running"|"done"|"failed"|"cancelled", "done", "games", "report", "error"}.
  Json Simulation();

  // The designer's numbers: every parameter (its type, bounds, default and the value in
  // force) and every data value set (path, value, the data's own value), each with who set it
  // ("--set-file <path>", "--set", "the page", "the save"), and the overlay file when one is
  // active. The values in force are the `sets` list, as --set takes them.
  Json Numbers();
  // What plateau print needs to print the game as it is on the table: its folder argument and
  // the data values in force.
  void PrintInputs(std::string* game, std::vector<DataOverride>* data_sets);
  // Puts `sets` ("name=value" / "<data>.<path>=value", as --set) in force in place of the
  // present ones, by the command line's own code (ParseSets, ResolveParams, the data overrides
  // at load), then starts a new game with them (players 0: as now). Refused with the CLI's
  // message, the table and the values in force unchanged, when a value does not fit.
  Status ApplySets(const std::vector<std::string>& sets, int players, unsigned long long seed);

  // Two files read from disk and compared: reports saved by `plateau simulate --format json`
  // (or the page's JSON button) as `--compare` does (host/compare), or tune results (`plateau
  // tune --format json`), whose targets are compared with the same judgement against another
  // tune result's or against the report's measures. {"compare", "compare_text", "before",
  // "after"} with each file's name, game, games and kind. Refused, saying why, when a file is
  // missing, is neither, or the two are of different games.
  static Status CompareFiles(const std::string& before, const std::string& after, Json* out);
  // A tune result (`plateau tune --format json`) read from disk for the page: the file as the
  // CLI wrote it, with its name. Refused, saying why, when it is not one or is another game's.
  Status ReadTune(const std::string& path, Json* out);

  // Events for the page (server-sent): blocks until the event count passes `after` or
  // `timeout_ms` passes; returns the count and, in *out, the latest event.
  long long WaitEvent(long long after, int timeout_ms, Json* out);
  bool stopping() const { return stopping_.load(); }

 private:
  Status NewGameLocked(int players, unsigned long long seed);
  Status TableLocked(int at, int viewer, Json* out);
  Status MakeBots();
  // Bumps the table version, sets the bots thinking when one must move on the new table, and
  // wakes the event streams with the new table; mu_ held.
  void Changed(const Json& event);
  // Wakes the event streams with the live table but no new version (a bot that stopped or
  // failed: the moves the page lists stay valid); mu_ held.
  void ChangedBot(const Json& event);
  void Notify(const Json& event);   // wakes the event streams with the table unchanged
  // The thinker's next job, for the table as it is now (or none); mu_ held.
  void ScheduleBotLocked();
  void WatchLoop();
  void ThinkLoop();
  void RunSimulation(SimulationRequest request);
  // A background thread's body threw (RunGuarded): shown on the page.
  void BackgroundFailed(const std::string& what, const std::string& error);

  std::mutex mu_;  // the table: everything below up to the simulation's
  StudioOptions options_;
  std::unique_ptr<scripting::LuaRules> rules_;
  State state_;
  Json params_ = Json::object();
  // The values in force, as --set arguments, and who set each (parallel lists); the data
  // values among them as the rules load them (the simulation's rules load with these).
  std::vector<std::string> sets_, set_origins_;
  std::vector<DataOverride> data_sets_;
  // The log's moves as the rules described them when they were played (describe on the table
  // before the move), by move number from 0; a move without one is described on the table now.
  std::vector<std::string> log_labels_;
  // The player seats seat_specs_ was made for: seats beyond them are new (a larger table).
  size_t spec_players_ = SIZE_MAX;
  // The table's bot: the last player seat's that was a bot (--bots' last bot at first).
  std::string table_bot_;
  std::vector<std::string> seat_specs_;  // per seat: "human" or a bot spec
  std::vector<std::shared_ptr<Bot>> bots_;  // per seat: null for a human (shared with the thinker)
  std::atomic<long long> version_{1};
  // Counts every change of what Table shows (a new version, a bot's state, the reload banner):
  // a page keeps the newest table it has seen, whichever of a call's answer and an event comes
  // last.
  long long revision_ = 0;
  long long rules_generation_ = 0;  // counts the rules_ the table has had (load, reload)
  Json last_reload_;  // the latest reload event, null before the first
  bool rules_changed_ = false;
  std::vector<std::string> watch_folders_;
  // The bot that must move on the live table: {"seat", "controller", "state": "thinking" |
  // "cancelled" | "failed", "error"}; null when none must.
  Json bot_;
  int bot_moves_in_row_ = 0;  // bot moves since a human's or the page's last change
  Json background_error_;     // the last background thread's failure, null before any

  // The thinker: one job at a time, the latest scheduled; each with its own stop flag.
  struct BotJob {
    long long version = 0;  // the table version it was computed for
    int seat = -1;
    std::string controller;
    std::shared_ptr<Bot> bot;
    State state;  // a copy: the thinker never touches the live table
    long long rules_generation = 0;
    std::string folder, fingerprint;
    std::vector<DataOverride> data_overrides;
    std::shared_ptr<std::atomic<bool>> stop;
  };
  std::mutex think_mu_;
  std::condition_variable think_cv_;
  std::unique_ptr<BotJob> job_;                 // scheduled, not yet taken
  std::shared_ptr<std::atomic<bool>> job_stop_; // the latest job's flag (taken or not)
  std::thread think_thread_, watch_thread_;

  std::mutex sim_start_mu_;  // one start at a time; sim_thread_
  std::thread sim_thread_;
  std::mutex sim_mu_;  // the simulation's fields
  std::atomic<bool> sim_cancel_{false};
  std::atomic<int> sim_done_{0};        // games finished in the current run
  std::atomic<long long> sim_base_{0};  // games of a sweep's finished runs
  Json sim_ = {{"state", "idle"}};
  long long sim_games_ = 0;  // games the current run plays in all
  Json previous_report_;  // the report before the last one, to compare with

  std::mutex event_mu_;
  std::condition_variable event_cv_;
  long long events_ = 0;
  Json last_event_ = Json::object();
  std::atomic<bool> stopping_{false};
};

}  // namespace plateau
