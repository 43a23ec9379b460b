// Lua expressions decoded from fuzz input, for the harnesses that hand values from scripts to
// the host (fuzz_lua_values, fuzz_hooks). Each expression is Lua source text that evaluates to
// one value, chosen to reach the checks at the Lua/host boundary: integers at and past the
// int32/int64/2^53 edges, NaN, infinities, huge and fractional floats, strings that are not
// UTF-8 or hold NUL bytes, very long strings, tables that are lists, objects, mixed, with holes,
// deeply nested or cyclic, functions, coroutines, tables with metatables, and (where the
// context has them) the state object, data handles and frozen ctx tables. The same input
// always gives the same text.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

namespace plateau::fuzz {

class LuaGen {
 public:
  // `words`: strings worth hitting exactly (card ids, field names, seat kinds, move types).
  // `has_state` / `has_ctx`: the expression may name the locals `state` and `ctx`.
  LuaGen(FuzzedDataProvider* in, std::vector<std::string> words, bool has_state, bool has_ctx)
      : in_(in), words_(std::move(words)), has_state_(has_state), has_ctx_(has_ctx) {}

  // Any value, tables nested at most `depth` more levels.
  std::string Value(int depth = 3) {
    if (in_->remaining_bytes() == 0) return "nil";
    switch (in_->ConsumeIntegralInRange<int>(0, 21)) {
      case 0: return "nil";
      case 1: return in_->ConsumeBool() ? "true" : "false";
      case 2: case 3: return Integer();
      case 4: return Float();
      case 5: case 6: return Word();
      case 7: return Bytes();
      case 8: return LongString();
      case 9: case 10: return depth > 0 ? List(depth - 1) : Integer();
      case 11: case 12: return depth > 0 ? Object(depth - 1) : Word();
      case 13: return depth > 0 ? Mixed(depth - 1) : Float();
      case 14: return Deep();
      case 15: return Cyclic();
      case 16: return Odd();
      case 17: return BigList();
      case 18: return depth > 0 ? MoveTable(depth - 1) : Word();
      case 19: return Context();
      case 20: return "(" + Number() + ")";
      default: return Integer();
    }
  }

  // A number: integer or float, edges first.
  std::string Number() { return in_->ConsumeBool() ? Integer() : Float(); }

  std::string Integer() {
    static const char* const kEdges[] = {
        "0", "1", "-1", "2", "3", "4", "5", "16", "100", "4096", "4097", "-4096", "-4097", "65535", "100000",
        "100001", "1000000", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295",
        "4294967296", "9007199254740992", "9007199254740993", "1000000000000", "1000000000001",
        "math.maxinteger", "math.mininteger", "(math.maxinteger - 1)", "(math.mininteger + 1)"};
    if (in_->ConsumeBool()) return kEdges[in_->ConsumeIntegralInRange<size_t>(0, std::size(kEdges) - 1)];
    const int64_t v = in_->ConsumeIntegral<int64_t>();
    if (v == INT64_MIN) return "math.mininteger";
    return "(" + std::to_string(v) + ")";
  }

  std::string Float() {
    static const char* const kEdges[] = {
        "(0/0)", "(-(0/0))", "(1/0)", "(-1/0)", "1e308", "-1e308", "1.7976931348623157e308", "5e-324", "-0.0", "0.5",
        "-0.5", "2.5", "1.0", "3.0", "2^31", "2^32", "2^53", "2^63", "-2^63", "2^64", "1e300", "-1e300", "1e12",
        "1e12 + 1", "4096.0", "4096.5", "-4097.0", "0.1"};
    if (in_->ConsumeBool()) return kEdges[in_->ConsumeIntegralInRange<size_t>(0, std::size(kEdges) - 1)];
    const double d = in_->ConsumeFloatingPoint<double>();
    if (std::isnan(d)) return "(0/0)";
    if (std::isinf(d)) return d > 0 ? "(1/0)" : "(-1/0)";
    char buf[64];
    std::snprintf(buf, sizeof buf, "(%a)", d);  // hexadecimal: exact, and Lua reads it
    return buf;
  }

  std::string Word() {
    if (words_.empty() || in_->ConsumeIntegralInRange<int>(0, 3) == 0) {
      static const char* const kCommon[] = {"", "x", "type", "card", "cell", "to", "args", "total", "breakdown",
                                            "rounds", "deal", "keep", "pass", "grid", "rows", "cols", "deck",
                                            "neutral", "solo", "hand", "draw", "left", "right", "player",
                                            "opponent", "P1", "P2", "$file", "$schema_name", "1", "-1", "nan"};
      return Quote(kCommon[in_->ConsumeIntegralInRange<size_t>(0, std::size(kCommon) - 1)]);
    }
    return Quote(words_[in_->ConsumeIntegralInRange<size_t>(0, words_.size() - 1)]);
  }

  // Any bytes (NUL, invalid UTF-8, overlong forms, surrogates) as a Lua string literal.
  std::string Bytes() {
    static const char* const kOdd[] = {"\xff", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\0b", "\xe2\x82",
                                       "\xef\xbf\xbd", "%", "%s%n", "\n", "\"", "\\"};
    if (in_->ConsumeBool()) {
      const size_t i = in_->ConsumeIntegralInRange<size_t>(0, std::size(kOdd) - 1);
      return Quote(i == 4 ? std::string("a\0b", 3) : std::string(kOdd[i]));
    }
    return Quote(in_->ConsumeRandomLengthString(64));
  }

  std::string LongString() {
    static const char* const kSizes[] = {"1000", "65536", "65537", "1048576", "4194304", "16777216"};
    return "string.rep(" + (in_->ConsumeBool() ? Word() : Bytes()) + ", " +
           kSizes[in_->ConsumeIntegralInRange<size_t>(0, std::size(kSizes) - 1)] + ")";
  }

  std::string List(int depth) {
    const int n = in_->ConsumeIntegralInRange<int>(0, 6);
    std::string s = "{";
    for (int i = 0; i < n; ++i) s += (i ? ", " : "") + Value(depth);
    return s + "}";
  }

  std::string Key() {
    switch (in_->ConsumeIntegralInRange<int>(0, 5)) {
      case 0: case 1: case 2: return Word();
      case 3: return Bytes();
      case 4: return Integer();
      default: return in_->ConsumeBool() ? Float() : (in_->ConsumeBool() ? "true" : "false");
    }
  }

  std::string Object(int depth) {
    const int n = in_->ConsumeIntegralInRange<int>(0, 6);
    std::string s = "{";
    for (int i = 0; i < n; ++i) s += (i ? ", [" : "[") + Key() + "] = " + Value(depth);
    return s + "}";
  }

  // Lists with holes, lists with a string key, an object with an integer key.
  std::string Mixed(int depth) {
    switch (in_->ConsumeIntegralInRange<int>(0, 3)) {
      case 0: return "{" + Value(depth) + ", nil, " + Value(depth) + "}";
      case 1: return "{" + Value(depth) + ", " + Value(depth) + ", x = " + Value(depth) + "}";
      case 2: return "{[2] = " + Value(depth) + "}";
      default: return "{[0] = " + Value(depth) + ", " + Value(depth) + "}";
    }
  }

  std::string Deep() {
    static const char* const kDepths[] = {"31", "32", "33", "64", "200", "100000"};
    const std::string n = kDepths[in_->ConsumeIntegralInRange<size_t>(0, std::size(kDepths) - 1)];
    return in_->ConsumeBool() ? "(function() local t = {} for i = 1, " + n + " do t = {t} end return t end)()"
                              : "(function() local t = {} for i = 1, " + n + " do t = {x = t} end return t end)()";
  }

  std::string Cyclic() {
    switch (in_->ConsumeIntegralInRange<int>(0, 2)) {
      case 0: return "(function() local t = {} t[1] = t return t end)()";
      case 1: return "(function() local t = {} t.self = t return t end)()";
      default: return "(function() local a, b = {}, {} a.b = b b[1] = a return {a} end)()";
    }
  }

  // Values that are not data: functions, coroutines, metatables that raise or lie.
  std::string Odd() {
    switch (in_->ConsumeIntegralInRange<int>(0, 6)) {
      case 0: return "(function() end)";
      case 1: return "coroutine.create(function() end)";
      case 2: return "setmetatable({}, {__index = function() error('boom') end})";
      case 3: return "setmetatable({1, 2}, {__len = function() return 100 end})";
      case 4: return "setmetatable({}, {__pairs = function() error('pairs') end})";
      case 5: return "setmetatable({x = 1}, {__metatable = 'locked'})";
      default: return "string";
    }
  }

  // Big tables, up to just past the host's 100000 entries per container; keyed ones stay
  // smaller (each conversion of a big object costs a second under the sanitizers).
  std::string BigList() {
    static const char* const kSizes[] = {"1000", "32768", "100000", "100001"};
    const std::string n = kSizes[in_->ConsumeIntegralInRange<size_t>(0, std::size(kSizes) - 1)];
    return in_->ConsumeBool() ? "(function() local t = {} for i = 1, " + n + " do t[i] = i end return t end)()"
                              : "(function() local t = {} for i = 1, 5000 do t['k' .. i] = i end return t end)()";
  }

  // Something shaped like a move, with random fields.
  std::string MoveTable(int depth) {
    std::string s = "{type = " + (in_->ConsumeIntegralInRange<int>(0, 4) ? Word() : Value(depth));
    if (in_->ConsumeBool()) s += ", card = " + (in_->ConsumeBool() ? Word() : Value(depth));
    if (in_->ConsumeBool()) s += ", cell = " + Cell(depth);
    if (in_->ConsumeBool()) s += ", to = " + Cell(depth);
    if (in_->ConsumeBool()) s += ", args = " + Value(depth);
    if (in_->ConsumeBool()) s += ", [" + Key() + "] = " + Value(depth);
    return s + "}";
  }

  std::string Cell(int depth) {
    switch (in_->ConsumeIntegralInRange<int>(0, 3)) {
      case 0: return "{0, 0}";
      case 1: return "{" + Integer() + ", " + Integer() + "}";
      case 2: return "{" + Number() + ", " + Number() + ", " + Number() + "}";
      default: return Value(depth);
    }
  }

  // The state object, data handles, frozen ctx tables (when the context has them).
  std::string Context() {
    std::vector<std::string> options = {"nil"};
    if (has_state_) {
      options.insert(options.end(), {"state", "state.data", "state.data.v", "state.seat_count", "state.phase",
                                     "state:seats()"});
    }
    if (has_ctx_) options.insert(options.end(), {"ctx", "ctx.data", "ctx.params", "ctx.data.cards", "ctx.rng"});
    return options[in_->ConsumeIntegralInRange<size_t>(0, options.size() - 1)];
  }

  static std::string Quote(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
        out += static_cast<char>(c);
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\%03u", c);
        out += buf;
      }
    }
    return out + "\"";
  }

 private:
  FuzzedDataProvider* in_;
  std::vector<std::string> words_;
  bool has_state_, has_ctx_;
};

}  // namespace plateau::fuzz
