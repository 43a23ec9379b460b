// Limited JSON parsing (see json_io.h).
#include "host/json_io.h"

#include <fstream>
#include <sstream>

namespace plateau {
namespace {
struct LimitError {
  std::string what;
};

std::string Position(const std::string& text, size_t byte) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') { ++line; col = 1; }
    else ++col;
  }
  return std::to_string(line) + ":" + std::to_string(col);
}
}  // namespace

bool ParseJsonLimited(const std::string& text, const std::string& name, Json* out, std::string* error,
                      const JsonLimits& limits) {
  if (text.size() > limits.max_bytes) {
    *error = name + ": " + std::to_string(text.size()) + " bytes is over the " + std::to_string(limits.max_bytes) +
             "-byte limit";
    return false;
  }
  // Depth and string checks run in the parser callback, before containers close.
  std::vector<size_t> counts;
  auto cb = [&](int depth, Json::parse_event_t event, Json& parsed) -> bool {
    if (depth > limits.max_depth) throw LimitError{"nesting deeper than " + std::to_string(limits.max_depth)};
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start: counts.push_back(0); break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        if (!counts.empty()) counts.pop_back();
        break;
      case Json::parse_event_t::key:
      case Json::parse_event_t::value:
        if (parsed.is_string() && parsed.get_ref<const std::string&>().size() > limits.max_string)
          throw LimitError{"a string longer than " + std::to_string(limits.max_string) + " bytes"};
        if (!counts.empty() && ++counts.back() > limits.max_array)
          throw LimitError{"a container with more than " + std::to_string(limits.max_array) + " entries"};
        break;
    }
    return true;
  };
  try {
    *out = Json::parse(text, cb, /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const LimitError& e) {
    *error = name + ": refused: " + e.what;
    return false;
  } catch (const Json::parse_error& e) {
    std::string what = e.what();
    const auto colon = what.find("syntax error");
    *error = name + ":" + Position(text, e.byte > 0 ? e.byte - 1 : 0) + ": invalid JSON: " +
             (colon == std::string::npos ? what : what.substr(colon));
    return false;
  }
  return true;
}

bool ReadTextFile(const std::string& path, size_t max_bytes, std::string* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open file";
    return false;
  }
  in.seekg(0, std::ios::end);
  const auto size = static_cast<size_t>(in.tellg());
  if (size > max_bytes) {
    *error = path + ": " + std::to_string(size) + " bytes is over the " + std::to_string(max_bytes) + "-byte limit";
    return false;
  }
  in.seekg(0);
  out->assign(size, '\0');
  in.read(out->data(), static_cast<std::streamsize>(size));
  return true;
}

bool ReadJsonFile(const std::string& path, const std::string& name, Json* out, std::string* error,
                  const JsonLimits& limits) {
  std::string text;
  if (!ReadTextFile(path, limits.max_bytes, &text, error)) {
    if (error->rfind(path, 0) == 0) *error = name + error->substr(path.size());
    return false;
  }
  return ParseJsonLimited(text, name, out, error, limits);
}

}  // namespace plateau
