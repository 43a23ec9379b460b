// Comparing two designer's reports: the same simulation before and after a change to the rules
// or the data (`plateau simulate ... --compare before.json`). Each measure the two reports
// share is set side by side with its difference and how many standard errors that difference
// is, so a designer sees what her edit changed beyond the games' own randomness.
#pragma once

#include <string>

#include "host/json_io.h"

namespace plateau {

// A difference of at least this many standard errors is called a change. One measure of an
// unchanged game passes 4 about once in 16,000 comparisons, so a report's hundred or two
// measures give a false alarm in about 1% of comparisons (3 would give one in every two).
inline constexpr double kChangeZ = 4.0;

// `before` and `after` are reports as `SimulationReport::ToJson` writes them (the CLI's
// `--format json`, with its run settings). Returns
//   {"settings": [notes on run settings that differ],
//    "measures": [{"measure", "before", "after", "difference", "z", "changed"}...],
//    "changed": number of measures that changed, "compared": number of measures}
// ordered by the size of the change (changes first, by |z|; see Run). Standard errors count games, not player-games, since the seats of a game
// share its events. `z` is null when there is no spread on either side (any difference is then
// a change) or when a side has under 2 games ("judged": false, never a change).
Json CompareReports(const Json& before, const Json& after, double change_z = kChangeZ);

// The comparison as text: the headline measures always, then every other measure that changed,
// largest first.
std::string CompareToText(const Json& comparison, const std::string& baseline_name);

}  // namespace plateau
