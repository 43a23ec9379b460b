// Reading JSON files under hard limits. Size is checked before parsing and depth and
// string length while parsing, so hostile files are refused before any recursive code
// (dump, schema validation) can run on them. Errors name the file, line and column.
#pragma once

#include <string>

#include "host/state.h"

namespace plateau {

struct JsonLimits {
  size_t max_bytes = 8u << 20;
  int max_depth = 64;
  size_t max_string = 64u << 10;
  size_t max_array = 100000;
};

// Parses `text`; `name` is used in error messages ("games/x/game.json").
bool ParseJsonLimited(const std::string& text, const std::string& name, Json* out, std::string* error,
                      const JsonLimits& limits = {});
bool ReadJsonFile(const std::string& path, const std::string& name, Json* out, std::string* error,
                  const JsonLimits& limits = {});
bool ReadTextFile(const std::string& path, size_t max_bytes, std::string* out, std::string* error);

}  // namespace plateau
