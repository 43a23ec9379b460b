// Text across boundaries: terminal, XML, CSV, Lua code, and integers read from text (see text.h).
#include "host/text.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace plateau {
namespace {

// The length of the UTF-8 sequence at s[i], or 0 when it is not a valid one.
size_t Utf8Length(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// The code point of a valid sequence of length n at s[i].
uint32_t CodePoint(std::string_view s, size_t i, size_t n) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (n == 1) return c;
  uint32_t cp = n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

bool IsControl(uint32_t cp) { return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F); }

void Hex(std::string* out, unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", c);
  *out += buf;
}

}  // namespace

bool HasControlBytes(std::string_view s, bool lines) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8Length(s, i);
    if (n == 0) {
      ++i;
      continue;
    }
    const uint32_t cp = CodePoint(s, i, n);
    if (IsControl(cp) && !(lines && (cp == '\t' || cp == '\n'))) return true;
    i += n;
  }
  return false;
}

std::string TerminalText(std::string_view s, bool lines) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8Length(s, i);
    if (n == 0) {
      Hex(&out, static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    const uint32_t cp = CodePoint(s, i, n);
    if (IsControl(cp)) {
      if (lines && (cp == '\n' || cp == '\t')) out += static_cast<char>(cp);
      else if (cp == '\n') out += "\\n";
      else if (cp == '\t') out += "\\t";
      else if (n == 1) Hex(&out, static_cast<unsigned char>(cp));
      else {
        char buf[16];
        std::snprintf(buf, sizeof buf, "\\u%04X", cp);
        out += buf;
      }
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string XmlText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8Length(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    const uint32_t cp = CodePoint(s, i, n);
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 holds tab, LF, CR and U+0020 and above but for U+FFFE and U+FFFF; a
        // character it cannot hold at all becomes U+FFFD.
        if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF) out += "\xEF\xBF\xBD";
        else out.append(s.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string CsvField(std::string_view s) {
  std::string v;
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8Length(s, i);
    if (n == 0) {
      v += "\xEF\xBF\xBD";
      ++i;
    } else {
      v.append(s.substr(i, n));
      i += n;
    }
  }
  if (!v.empty() && (v[0] == '=' || v[0] == '+' || v[0] == '-' || v[0] == '@')) {
    // A number stays a number ("-3", "+1.5e3"); anything else would be a formula.
    bool number = v.size() > 1;
    for (size_t i = 1; i < v.size() && number; ++i)
      number = (v[i] >= '0' && v[i] <= '9') || v[i] == '.' || v[i] == 'e' || v[i] == 'E' || v[i] == '-' || v[i] == '+';
    if (v[0] == '=' || v[0] == '@' || !number) v = "'" + v;
  }
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string LuaStringBody(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\'') out += "\\'";
    else if (c >= 0x20 && c < 0x7F) out += ch;
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03u", c);  // three digits: never joins a digit after it
      out += buf;
    }
  }
  return out;
}

bool ParseReal(std::string_view text, double lo, double hi, const std::string& what, double* out, std::string* error) {
  const std::string head = what.empty() ? "" : what + ": ";
  const std::string t(text.substr(0, 400));
  char* end = nullptr;
  const double v = t.empty() || t.size() != text.size() || std::isspace(static_cast<unsigned char>(t[0])) ? NAN : std::strtod(t.c_str(), &end);
  if (!std::isfinite(v) || !end || *end != '\0') {
    *error = head + "expected a number, got '" + TerminalText(t.substr(0, 40)) + "'";
    return false;
  }
  if (v < lo || v > hi) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.17g is outside %g..%g", v, lo, hi);
    *error = head + buf;
    return false;
  }
  *out = v;
  return true;
}

bool ParseUint64(std::string_view text, const std::string& what, uint64_t* out, std::string* error) {
  uint64_t v = 0;
  bool ok = !text.empty() && text.size() <= 20;
  for (size_t i = 0; ok && i < text.size(); ++i) {
    const char c = text[i];
    const uint64_t d = static_cast<uint64_t>(c - '0');
    ok = c >= '0' && c <= '9' && v <= (UINT64_MAX - d) / 10;
    v = v * 10 + d;
  }
  if (!ok) {
    *error = (what.empty() ? "" : what + ": ") + "expected a whole number from 0 to 2^64-1, got '" +
             TerminalText(text.substr(0, 40)) + "'";
    return false;
  }
  *out = v;
  return true;
}

bool ParseInt(std::string_view text, int64_t lo, int64_t hi, const std::string& what, int64_t* out, std::string* error) {
  const std::string head = what.empty() ? "" : what + ": ";
  const std::string shown = text.size() > 40 ? TerminalText(text.substr(0, 40)) + "..." : TerminalText(text);
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size()) {
    *error = head + "expected an integer, got '" + shown + "'";
    return false;
  }
  // Accumulated as a magnitude in unsigned 64 bits; past 2^63 it is out of every range.
  uint64_t mag = 0;
  bool huge = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') {
      *error = head + "expected an integer, got '" + shown + "'";
      return false;
    }
    if (mag > (UINT64_MAX - 9) / 10) huge = true;
    else mag = mag * 10 + static_cast<uint64_t>(c - '0');
  }
  const uint64_t limit = negative ? static_cast<uint64_t>(INT64_MAX) + 1 : static_cast<uint64_t>(INT64_MAX);
  if (huge || mag > limit) {
    *error = head + shown + " is outside " + std::to_string(lo) + ".." + std::to_string(hi);
    return false;
  }
  const int64_t v = negative ? (mag == limit ? INT64_MIN : -static_cast<int64_t>(mag)) : static_cast<int64_t>(mag);
  if (v < lo || v > hi) {
    *error = head + shown + " is outside " + std::to_string(lo) + ".." + std::to_string(hi);
    return false;
  }
  *out = v;
  return true;
}

}  // namespace plateau
