// Limited JSON parsing (see json_io.h).
#include "host/json_io.h"

#include <fstream>
#include <sstream>

namespace plateau {
namespace {
struct LimitError {
  std::string what;
};

// Checks depth, string length and entries per container while the SAX parser reads; throws
// LimitError on the first breach. Depth counts open containers (64 nested arrays are depth 64).
// A nested container is one entry of its parent; an object member counts once (on its value).
class LimitSax : public nlohmann::json_sax<Json> {
 public:
  explicit LimitSax(const JsonLimits& limits) : limits_(limits) {}
  bool null() override { return Entry(); }
  bool boolean(bool) override { return Entry(); }
  bool number_integer(number_integer_t) override { return Entry(); }
  bool number_unsigned(number_unsigned_t) override { return Entry(); }
  bool number_float(number_float_t, const string_t&) override { return Entry(); }
  bool string(string_t& s) override {
    CheckString(s);
    return Entry();
  }
  bool binary(binary_t&) override { return Entry(); }
  bool key(string_t& s) override {
    CheckString(s);
    return true;
  }
  bool start_object(std::size_t) override { return Open(); }
  bool start_array(std::size_t) override { return Open(); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool Entry() {
    if (!counts_.empty() && ++counts_.back() > limits_.max_array)
      throw LimitError{"a container with more than " + std::to_string(limits_.max_array) + " entries"};
    return true;
  }
  bool Open() {
    Entry();
    if (static_cast<int>(counts_.size()) + 1 > limits_.max_depth)
      throw LimitError{"nesting deeper than " + std::to_string(limits_.max_depth)};
    counts_.push_back(0);
    return true;
  }
  bool Close() {
    if (!counts_.empty()) counts_.pop_back();
    return true;
  }
  void CheckString(const string_t& s) const {
    if (s.size() > limits_.max_string)
      throw LimitError{"a string longer than " + std::to_string(limits_.max_string) + " bytes"};
  }
  const JsonLimits& limits_;
  std::vector<size_t> counts_;
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
  try {
    // Limits first, in a SAX pass that builds nothing; then the plain parse. (nlohmann's callback
    // parser rescans a container each time an object inside it closes: quadratic on [{}, {}, ...].)
    // A syntax error stops the SAX pass quietly; the plain parse then throws it with its position.
    LimitSax sax(limits);
    Json::sax_parse(text, &sax, Json::input_format_t::json, /*strict=*/true, /*ignore_comments=*/false);
    *out = Json::parse(text, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/false);
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
