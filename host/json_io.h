// Reading JSON files under hard limits. Size is checked before parsing and depth and
// string length while parsing, so hostile files are refused before any recursive code
// (dump, schema validation) can run on them. Errors name the file, line and column.
#pragma once

#include <sys/stat.h>

#include <functional>
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
// Reads a regular file the user named (a save, a board, an overlay, a report: a FIFO, a folder
// or a device is refused, never waited on). A game's own files are read by host/files.h.
bool ReadTextFile(const std::string& path, size_t max_bytes, std::string* out, std::string* error);

// Whether s[0..n) is UTF-8 (no overlong forms or surrogates); *bad_at is the first bad byte.
bool IsValidUtf8(const char* s, size_t n, size_t* bad_at = nullptr);
// s with every byte that is not part of valid UTF-8 replaced by '?'.
std::string SanitizeUtf8(const std::string& s);
// j as JSON text; bytes that are not UTF-8 become U+FFFD instead of throwing (a last line of
// defence: strings from scripts are checked where they enter the state).
std::string DumpJson(const Json& j, int indent = -1);

}  // namespace plateau
