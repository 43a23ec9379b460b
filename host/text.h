// Text that crosses a boundary, one rule each way (docs/security.md, "Text and numbers").
//
// Out: text from untrusted input (a file name, a card id, a slice file, a script's message)
// written into a terminal, an XML document, a CSV table or generated Lua code goes through the
// one function for that target, which makes it inert there: no escape sequence reaches the
// terminal, no byte makes the XML invalid, no field breaks the table, no newline ends a string.
//
// In: integers from the command line and from text keys ("3" in a save's tally) are read by
// ParseInt, which range-checks and never narrows; integers from JSON by limits::JsonInt.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace plateau {

// Whether s holds a control character: C0 (tab and newline too unless `lines`), DEL, or C1
// (U+0080..U+009F, the 8-bit escape sequences).
bool HasControlBytes(std::string_view s, bool lines = false);
// For the terminal (and every message): bytes that are not UTF-8, escape sequences and other
// control characters shown as \xNN; tabs and newlines kept when `lines` (a message's own
// lines), else shown as \t and \n too (a name inside one line).
std::string TerminalText(std::string_view s, bool lines = false);
// For XML 1.0 text and attribute values: the five escapes; bytes that are not UTF-8 and
// characters XML cannot hold at all become U+FFFD.
std::string XmlText(std::string_view s);
// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF; a text field that a
// spreadsheet would read as a formula (= + - @ first, and not a number) gets a leading '.
std::string CsvField(std::string_view s);
// The body of a double-quoted Lua string literal holding exactly s (every byte outside
// printable ASCII, quotes and backslashes escaped as \ddd or \\): text into generated code.
std::string LuaStringBody(std::string_view s);

// A finite number written as C's strtod reads it, the whole text, within [lo, hi]: what a range
// or a knob on the command line may hold (designer/cli/report.cc, tune.cc keep |v| <= 1e15, so an
// integer among them is exact in a double and never wraps).
bool ParseReal(std::string_view text, double lo, double hi, const std::string& what, double* out, std::string* error);

// An integer written in decimal (optional sign, digits only, no spaces), within [lo, hi].
// False with *error "<what>: <why>" otherwise ("--players: 4294967296 is outside 1..16").
bool ParseInt(std::string_view text, int64_t lo, int64_t hi, const std::string& what, int64_t* out, std::string* error);
// The same for a whole number from 0 to 2^64-1 (seeds), digits only.
bool ParseUint64(std::string_view text, const std::string& what, uint64_t* out, std::string* error);

}  // namespace plateau
