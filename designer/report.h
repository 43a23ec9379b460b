// plateau simulate and plateau sweep: the designer's report over many bot games, and the
// same report run once per value of a swept parameter or data value, as a table and CSV.
#pragma once

#include <string>
#include <vector>

#include "host/game.h"

namespace plateau {

struct SimulationReport;
struct SimulationSpec;

struct ReportOptions {
  std::string game;
  int games = 100;
  unsigned long long seed = 1;
  std::string bots = "random";
  int threads = 1;
  int players = 0;            // 0: the game's usual count
  std::string format = "text";
  std::vector<std::string> sets;
  int max_rounds = 500;       // 0: none
  std::string csv_path;       // sweep: also write the table here
  bool profile = false;       // simulate: time in each of the rules' calls
  bool rotate_seats = false;  // game k shifts the bots k seats
  bool keep_going = false;    // go on past a failed game (up to 10), counting failures
  std::string compare_path;   // simulate: a report (--format json) to compare this run with
  bool fail_on_change = false;  // simulate --compare: exit 1 when a measure changed
};

// Runs the simulation `options` describe with the given --set arguments (in place of
// options.sets): what simulate, sweep and tune each run once per setting. `used` receives the
// spec it ran (players and parameters resolved); `card_data`, when given, each card's data.
Status RunReport(const ReportOptions& options, const std::vector<std::string>& sets, bool progress,
                 SimulationReport* report, SimulationSpec* used, Json* card_data = nullptr);

int RunSimulate(const ReportOptions& options);
int RunSweep(const ReportOptions& options);

}  // namespace plateau
