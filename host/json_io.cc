// Limited JSON parsing (see json_io.h).
#include "host/json_io.h"

#include <set>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cerrno>
#include <cstring>

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
    // A key given twice: the last one would silently win (a manifest with two "id"s).
    if (!keys_.empty() && !keys_.back().insert(s).second) throw LimitError{"the key \"" + s + "\" appears twice in one object"};
    return true;
  }
  bool start_object(std::size_t) override {
    keys_.emplace_back();
    return Open();
  }
  bool start_array(std::size_t) override {
    Open();
    keys_.emplace_back();  // arrays have no keys; the entry keeps the stack aligned
    return true;
  }
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
    if (!keys_.empty()) keys_.pop_back();
    return true;
  }
  void CheckString(const string_t& s) const {
    if (s.size() > limits_.max_string)
      throw LimitError{"a string longer than " + std::to_string(limits_.max_string) + " bytes"};
  }
  const JsonLimits& limits_;
  std::vector<size_t> counts_;
  std::vector<std::set<std::string>> keys_;  // per open container: an object's keys so far
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
  } catch (const Json::out_of_range& e) {
    // 1e400: a number no double holds. nlohmann names no position for it.
    *error = name + ": invalid JSON: a number is out of range (" + std::string(e.what()) + ")";
    return false;
  } catch (const std::exception& e) {
    *error = name + ": invalid JSON: " + e.what();
    return false;
  }
  return true;
}

bool IsValidUtf8(const char* s, size_t n, size_t* bad_at) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    size_t len;
    uint32_t cp;
    if (c < 0x80) { ++i; continue; }
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; }
    else { if (bad_at) *bad_at = i; return false; }
    if (i + len > n) { if (bad_at) *bad_at = i; return false; }
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) { if (bad_at) *bad_at = i; return false; }
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      if (bad_at) *bad_at = i;
      return false;
    }
    i += len;
  }
  return true;
}

std::string SanitizeUtf8(const std::string& s) {
  if (IsValidUtf8(s.data(), s.size())) return s;
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (i + len <= s.size() && IsValidUtf8(s.data() + i, len)) {
      out.append(s, i, len);
      i += len;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

std::string DumpJson(const Json& j, int indent) { return j.dump(indent, ' ', false, Json::error_handler_t::replace); }

bool ReadTextFile(const std::string& path, size_t max_bytes, std::string* out, std::string* error) {
  // Non-blocking open, then a regular-file check: a FIFO or a device named like a data file
  // or a script would otherwise block the host on open or read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": cannot open file (" + std::strerror(errno) + ")";
    return false;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = path + ": not a regular file";
    return false;
  }
  const auto size = static_cast<size_t>(st.st_size);
  if (size > max_bytes) {
    *error = path + ": " + std::to_string(size) + " bytes is over the " + std::to_string(max_bytes) + "-byte limit";
    return false;
  }
  out->assign(size, '\0');
  size_t got = 0;
  while (got < size) {
    const ssize_t r = ::read(fd, out->data() + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  out->resize(got);
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
