// JUnit XML and JSON forms of `plateau test`'s results (see test_report.h).
#include "designer/test_report.h"

#include <cstdio>
#include <map>
#include <regex>

namespace plateau {
namespace {

// Text inside an XML attribute or element: the five escapes, and the characters XML 1.0
// cannot hold at all (control characters other than tab and newlines) dropped.
std::string Xml(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
        out += c;
    }
  }
  return out;
}

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

}  // namespace

bool FailureLocation(const std::string& message, std::string* file, int* line) {
  static const std::regex kWhere(R"(^([^\s:]+\.(?:lua|json|txt)):(\d+):)");
  std::smatch m;
  const std::string first = FirstLine(message);
  if (!std::regex_search(first, m, kWhere)) return false;
  *file = m[1];
  *line = std::stoi(m[2].str().substr(0, 9));
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
    failures += c.passed ? 0 : 1;
    total += c.seconds;
  }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites name=\"plateau test\" tests=\"" + std::to_string(cases_.size()) + "\" failures=\"" +
       std::to_string(failures) + "\" errors=\"0\" time=\"" + Seconds(total) + "\">\n";
  for (const auto& game : order) {
    const auto& cs = suites[game];
    int f = 0;
    double t = 0;
    for (const auto* c : cs) {
      f += c->passed ? 0 : 1;
      t += c->seconds;
    }
    x += "  <testsuite name=\"" + Xml(game) + "\" tests=\"" + std::to_string(cs.size()) + "\" failures=\"" +
         std::to_string(f) + "\" errors=\"0\" skipped=\"0\" time=\"" + Seconds(t) + "\">\n";
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
  int passed = 0;
  for (const auto& c : cases_) {
    std::string file = c.file;
    int line = 0;
    if (!c.passed) FailureLocation(c.message, &file, &line);
    Json j = {{"game", c.game}, {"kind", c.kind}, {"name", c.name}, {"file", file}, {"passed", c.passed},
              {"seconds", c.seconds}};
    if (line > 0) j["line"] = line;
    if (!c.passed) j["message"] = c.message;
    cases.push_back(std::move(j));
    passed += c.passed ? 1 : 0;
  }
  return {{"passed", passed}, {"failed", static_cast<int>(cases_.size()) - passed}, {"cases", std::move(cases)}};
}

}  // namespace plateau
