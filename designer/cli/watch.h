// plateau watch: a game on the table whose rules reload when their files change.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "scripting/lua_rules.h"

namespace plateau {

// The files of a game's folders (the game's and its bases'), polled for saves. Shared by
// `plateau watch` and `plateau studio`, which then reload with ReloadOnTable.
class FolderWatcher {
 public:
  FolderWatcher(int poll_ms, int settle_ms) : poll_ms_(poll_ms), settle_ms_(settle_ms) {}
  // The folders to watch: the rules' roots (a variant's rules are also its base's modules and
  // data). Remembers their files as they are now.
  void Watch(const scripting::LuaRules& rules);
  // Sleeps one poll period and looks again. True when something changed and has since been
  // quiet for settle_ms (one reload per burst of saves); detected() is when it was first seen.
  bool Changed();
  std::chrono::steady_clock::time_point detected() const { return detected_; }

 private:
  using Snapshot = std::map<std::string, std::tuple<long long, long long, unsigned long long>>;
  Snapshot ScanAll() const;
  int poll_ms_, settle_ms_;
  std::vector<std::string> folders_;
  Snapshot seen_;
  std::chrono::steady_clock::time_point detected_;
};

// A reload of the rules under a game on the table (scripting::ReloadRules) and what it did.
struct ReloadEvent {
  bool ok = false;
  double ms = 0;          // from the change being detected to the rules swapped (or refused)
  Status error;           // why it was refused: "games/<id>/<file>.lua:<line>: ..."
  std::string changes;    // "gazelle: 9 -> 11 for P2", one per line
};
ReloadEvent ReloadOnTable(const std::string& folder, std::chrono::steady_clock::time_point detected, State* state,
                          std::unique_ptr<scripting::LuaRules>* rules);
// A score table as [{"name", "total", "breakdown": {category: points}}].
Json ScoresJson(const ScoreTable& table);

struct WatchOptions {
  std::string game;
  int players = 0;
  unsigned long long seed = 1;
  std::string bots;
  std::string load_path;
  std::vector<std::string> sets;
  int moves = 0;            // moves played by the bots before holding the table
  std::string format = "text";
  int max_reloads = -1;     // stop after this many reload events (-1: run until interrupted)
  int timeout_s = 0;        // stop after this many seconds (0: never)
  int poll_ms = 5;          // how often files are checked
  int settle_ms = 15;       // a change must be quiet this long before it is loaded
  // Where the table is written when watch is stopped by a signal or by --timeout during a
  // reload ("": <game folder name>-recovery.json in the current folder).
  std::string recovery_path;
};

int RunWatch(const WatchOptions& options);

}  // namespace plateau
