// JUnit XML and JSON forms of `plateau test`'s results (see test_report.h).
#include "designer/cli/test_report.h"

#include "host/text.h"

#include <cstdio>
#include <map>
#include <cstring>

namespace plateau {
namespace {

// Text inside an XML attribute or element (host/text.h: the one rule for XML).
std::string Xml(const std::string& s) { return XmlText(s); }

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

}  // namespace

bool FailureLocation(const std::string& message, std::string* file, int* line) {
  // "<file>.lua:<line>:" at the start of the first line, the file name without spaces or colons.
  const std::string first = FirstLine(message);
  const size_t colon = first.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  const std::string name = first.substr(0, colon);
  if (name.find_first_of(" \t") != std::string::npos) return false;
  auto ends = [&](const char* ext) {
    const size_t n = std::strlen(ext);
    return name.size() > n && name.compare(name.size() - n, n, ext) == 0;
  };
  if (!ends(".lua") && !ends(".json") && !ends(".txt")) return false;
  const size_t end = first.find(':', colon + 1);
  if (end == std::string::npos) return false;
  int64_t n = 0;
  std::string error;
  if (!ParseInt(std::string_view(first).substr(colon + 1, end - colon - 1), 1, 1'000'000'000, "", &n, &error)) return false;
  *file = name;
  *line = static_cast<int>(n);
  return true;
}

std::string TestLog::JUnitXml() const {
  // Suites in the order games were tested.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const TestCaseResult*>> suites;
  int failures = 0;
  double total = 0;
  for (const auto& c : cases_) {
    if (!suites.count(c.game)) order.push_back(c.game);
    suites[c.game].push_back(&c);
    failures += c.passed || c.skipped ? 0 : 1;
    total += c.seconds;
  }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites name=\"plateau test\" tests=\"" + std::to_string(cases_.size()) + "\" failures=\"" +
       std::to_string(failures) + "\" errors=\"0\" time=\"" + Seconds(total) + "\">\n";
  for (const auto& game : order) {
    const auto& cs = suites[game];
    int f = 0, skipped = 0;
    double t = 0;
    for (const auto* c : cs) {
      f += c->passed || c->skipped ? 0 : 1;
      skipped += c->skipped ? 1 : 0;
      t += c->seconds;
    }
    x += "  <testsuite name=\"" + Xml(game) + "\" tests=\"" + std::to_string(cs.size()) + "\" failures=\"" +
         std::to_string(f) + "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\" time=\"" + Seconds(t) + "\">\n";
    for (const auto* c : cs) {
      // classname groups the cases the way CI shows them: game.kind, or the test file.
      const std::string classname = c->kind == "scenario" ? c->file : game + "." + c->kind;
      std::string file = c->file;
      int line = 0;
      if (!c->passed) FailureLocation(c->message, &file, &line);
      x += "    <testcase classname=\"" + Xml(classname) + "\" name=\"" + Xml(c->name) + "\"";
      if (!file.empty()) x += " file=\"" + Xml(file) + "\"";
      if (line > 0) x += " line=\"" + std::to_string(line) + "\"";
      x += " time=\"" + Seconds(c->seconds) + "\"";
      if (c->passed) {
        x += "/>\n";
        continue;
      }
      if (c->skipped) {
        x += ">\n      <skipped message=\"" + Xml(FirstLine(c->message)) + "\"/>\n    </testcase>\n";
        continue;
      }
      x += ">\n      <failure message=\"" + Xml(FirstLine(c->message)) + "\" type=\"" + Xml(c->kind) + "\">" +
           Xml(c->message) + "</failure>\n    </testcase>\n";
    }
    x += "  </testsuite>\n";
  }
  x += "</testsuites>\n";
  return x;
}

Json TestLog::ToJson() const {
  Json cases = Json::array();
  int passed = 0, skipped = 0;
  for (const auto& c : cases_) {
    std::string file = c.file;
    int line = 0;
    if (!c.passed) FailureLocation(c.message, &file, &line);
    Json j = {{"game", c.game}, {"kind", c.kind}, {"name", c.name}, {"file", file}, {"passed", c.passed},
              {"seconds", c.seconds}};
    if (line > 0) j["line"] = line;
    if (!c.passed) j["message"] = c.message;
    if (c.skipped) j["skipped"] = true;
    cases.push_back(std::move(j));
    passed += c.passed ? 1 : 0;
    skipped += c.skipped ? 1 : 0;
  }
  return {{"passed", passed}, {"failed", static_cast<int>(cases_.size()) - passed - skipped}, {"skipped", skipped},
          {"cases", std::move(cases)}};
}

}  // namespace plateau
