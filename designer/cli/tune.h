// plateau tune: the designer states targets on the simulation report ("games last 12 to 16
// rounds", "insurance is bought in at least 5% of player-games"), names the numbers it may
// change and their ranges, and the command searches those numbers with a derivative-free
// optimiser (NLopt) over seeded simulations, then confirms the best setting on other seeds,
// says which targets are met, which pull against each other, and which knobs mattered.
// NLopt's header stays inside tune.cc.
#pragma once

#include <string>
#include <vector>

#include "designer/cli/report.h"

namespace plateau {

struct TuneOptions {
  // The simulation each candidate runs: game, games per candidate, seed, bots, threads, players,
  // the fixed --set arguments (the overlay's first), round limit, seat rotation.
  ReportOptions run;
  std::vector<std::string> vary;     // "<name or data.path>=<lo>..<hi>[:<step>]"
  std::vector<std::string> targets;  // "<measure><op><value>", op one of <= >= < > =; "=lo..hi" for a range
  std::string budget = "40";         // distinct candidates ("60"), or time ("90s", "5m")
  int confirm_games = 0;             // 0: four times the games per candidate
  // Each candidate's games as `shards` slices (simulate --shard k/N), each run by `runner`, a
  // command template with {cmd} (the slice's plateau command as words of their own) or
  // {shell_cmd} (that command quoted for a remote shell, for ssh), {k} and {n} in it, started
  // without a shell (RunnerArgv); the slices' reports are merged as plateau merge does.
  // 0: the games run here, in this process.
  int shards = 0;
  std::string runner = "{cmd}";
  std::string write_path;            // the tuned values as an overlay for --set-file
  std::string format = "text";       // text or json
};

int RunTune(const TuneOptions& options);
// The argument vector that runs slice k of n with `runner` (see TuneOptions::runner), `cmd`
// being the slice's plateau command; refused naming the runner when it cannot be used.
Status RunnerArgv(const std::string& runner, const std::vector<std::string>& cmd, int k, int n,
                  std::vector<std::string>* out);

}  // namespace plateau
