// plateau merge: the reports of `plateau simulate ... --shard K/N --format json`, one per
// slice, merged into the report the same simulate without --shard prints (text or JSON), byte
// for byte but for the time it took. The slices may run anywhere (docs/scale.md); a missing or
// repeated slice, slices of other settings, rules or engine, or a file that is not a slice's
// report are refused naming the files.
#pragma once

#include <string>
#include <vector>

namespace plateau {

int RunMerge(const std::vector<std::string>& files, const std::string& format);

}  // namespace plateau
