// plateau merge: the reports of `plateau simulate ... --shard K/N --format json`, one per
// slice, merged into the report the same simulate without --shard prints (text or JSON), byte
// for byte but for the time it took. The slices may run anywhere (docs/scale.md); a missing or
// repeated slice, slices of other settings, rules or engine, or a file that is not a slice's
// report are refused naming the files.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "designer/cli/report.h"
#include "host/json_io.h"
#include "host/simulate.h"

namespace plateau {

int RunMerge(const std::vector<std::string>& files, const std::string& format);

// How a slice's report is read (a file or a runner's output): its size capped by limits::kShardBytes.
JsonLimits ShardReportLimits();

// The same merge from reports already read, each with the name messages give it (plateau tune
// --shards gets them from its runner's output): the run's options and spec as simulate would
// have had them, its report, and its card data.
Status MergeShardReports(std::vector<std::pair<std::string, Json>> docs, ReportOptions* options, SimulationSpec* spec,
                         SimulationReport* report, Json* card_data);

}  // namespace plateau
