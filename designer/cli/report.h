// plateau simulate and plateau sweep: the designer's report over many bot games, and the
// same report run once per value of a swept parameter or data value, as a table and CSV.
#pragma once

#include <string>
#include <vector>

#include "host/game.h"
#include "host/simulate.h"

namespace plateau {

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
  std::string rules_fingerprint;  // not an option: the rules a run played, filled by RunReport (or merge) for the report
  bool keep_going = false;    // go on past a failed game (up to 10), counting failures
  std::string compare_path;   // simulate: a report (--format json) to compare this run with
  bool fail_on_change = false;  // simulate --compare: exit 1 when a measure changed
  std::string shard;          // simulate --shard K/N: only the K-th of N slices of the seeds
  int kingmaking = 20;        // kingmaking is looked for in the run's first this many games (0: not)
};

// "K/N" with 1 <= K <= N: --shard's value (the slices are host/simulate.h's ShardOf).
Status ParseShard(const std::string& text, int* k, int* n);

// What a --shard run keeps for plateau merge besides its report.
struct ShardRecord {
  std::string fingerprint;               // of the rules it ran, data overrides included
  std::vector<SimulationReport> blocks;  // the slice's blocks, raw, in order
};

// Runs the simulation `options` describe with the given --set arguments (in place of
// options.sets): what simulate, sweep and tune each run once per setting. `used` receives the
// spec it ran (players and parameters resolved); `card_data`, when given, the data the report
// carries: {"card_data": each card's entry, "data": every data file's values in force};
// `shard`, with options.shard, what plateau merge needs; `fingerprint`, the fingerprint of the
// rules it ran (their files, data overrides included), for --compare to say whether they changed.
Status RunReport(const ReportOptions& options, const std::vector<std::string>& sets, bool progress,
                 SimulationReport* report, SimulationSpec* used, Json* card_data = nullptr,
                 ShardRecord* shard = nullptr, std::string* fingerprint = nullptr,
                 std::vector<GameOutcome>* outcomes = nullptr);

// simulate's report as it prints it, for plateau merge to print the same: the JSON object
// (report, the data RunReport gave, run settings) and the text's first line.
Json ReportJson(const ReportOptions& options, const SimulationSpec& spec, const SimulationReport& report,
                const Json& card_data);
std::string ReportHeader(const ReportOptions& options, const SimulationSpec& spec);

int RunSimulate(const ReportOptions& options);
int RunSweep(const ReportOptions& options);
// plateau compare-readings: the same seeds and bots under two values of one --set, game by game.
int RunCompareReadings(const ReportOptions& options);

}  // namespace plateau
