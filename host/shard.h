// Sharded simulations (plateau simulate --shard K/N, plateau merge): the raw sums of the blocks
// a slice of a run played, written as JSON without losing a bit and read back, and their merge
// into the report one unsharded run of the same settings gives, byte for byte but for timings.
// A report's floating-point sums depend on the order they are added in; Simulate adds blocks
// in block order (simulate.h), and so does MergeShards, from the blocks as the shards kept them.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "host/simulate.h"

namespace plateau {

// What plateau merge needs of one shard besides its settings: its blocks' raw reports in
// order, and what a run adds up per thread rather than per block (draft picks, the profile's
// calls), whose sums are whole numbers or timings and do not depend on their order.
struct ShardParts {
  int first_block = 0;
  std::vector<SimulationReport> blocks;
  std::map<std::string, std::pair<int64_t, int64_t>> picks;  // card -> offered, picked
  std::map<std::string, RulesCallStat> calls;                // with --profile
  double worker_seconds = 0;
  double seconds = 0;
};

// A shard's parts from its run: `blocks` as SimulationSpec::blocks received them.
ShardParts PartsOf(const SimulationReport& report, std::vector<SimulationReport> blocks, int first_block);

Json ShardPartsToJson(const ShardParts& parts);
// Reads what ShardPartsToJson wrote, for a run of `players` seats; anything else (a hand-edited
// file, another shape) is refused with `where` in the message.
Status ShardPartsFromJson(const Json& j, int players, const std::string& where, ShardParts* out);

// The whole run's report from every shard's parts, in shard order: their blocks, one after the
// other, must be all the run's blocks in order (the caller checks it, naming the files). The
// time is the slowest shard's (shards run side by side).
void MergeShards(const SimulationSpec& spec, const std::vector<ShardParts>& shards, SimulationReport* out);

}  // namespace plateau
