// Where the Plateau tree (games/, schemas/) is: $PLATEAU_HOME, else the source tree the
// binary was built from.
#pragma once

#include <cstdlib>
#include <string>

#ifndef PLATEAU_SOURCE_DIR_STR
#define PLATEAU_SOURCE_DIR_STR "."
#endif

namespace plateau {
inline std::string PlateauHome() {
  const char* env = std::getenv("PLATEAU_HOME");
  return env && *env ? env : PLATEAU_SOURCE_DIR_STR;
}
}  // namespace plateau
