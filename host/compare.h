// Comparing two designer's reports: the same simulation before and after a change to the rules
// or the data (`plateau simulate ... --compare before.json`). Each measure the two reports
// share is set side by side with its difference and how many standard errors that difference
// is, so a designer sees what her edit changed beyond the games' own randomness.
#pragma once

#include <string>

#include "host/json_io.h"

namespace plateau {

// A difference of at least this many standard errors is called a change. With a hundred or so
// measures per report, 3 keeps the false alarms of two unchanged runs near zero.
inline constexpr double kChangeZ = 3.0;

// `before` and `after` are reports as `SimulationReport::ToJson` writes them (the CLI's
// `--format json`, with its run settings). Returns
//   {"settings": [notes on run settings that differ],
//    "measures": [{"measure", "before", "after", "difference", "z", "changed"}...],
//    "changed": number of measures that changed, "compared": number of measures}
// in report order. `z` is null when a difference cannot be judged (no spread on either side
// and equal values); a difference with no spread on either side counts as a change.
Json CompareReports(const Json& before, const Json& after, double change_z = kChangeZ);

// The comparison as text: the headline measures always, then every other measure that changed,
// largest first.
std::string CompareToText(const Json& comparison, const std::string& baseline_name);

}  // namespace plateau
