// plateau watch: a game on the table whose rules reload when their files change.
#pragma once

#include <string>
#include <vector>

namespace plateau {

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
