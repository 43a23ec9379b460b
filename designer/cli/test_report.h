// What `plateau test` found, kept case by case so it can also be written for machines:
// JUnit XML (`--junit FILE`, which CI systems display natively) and JSON (`--format json`).
// One case per scenario test, per conformance run (or per conformance failure) and per golden
// playthrough; a failure keeps its message and the `file:line` it starts with.
#pragma once

#include <string>
#include <vector>

#include "host/state.h"

namespace plateau {

struct TestCaseResult {
  std::string game;     // the game id (the JUnit test suite)
  std::string kind;     // "load", "conformance", "playthrough", "scenario"
  std::string name;     // the test's name, the conformance check, the playthrough file
  std::string file;     // the file the case is about: a test file, a playthrough, or ""
  bool passed = false;
  bool skipped = false;  // not run: a hook it needed had run past the backstop (message says which)
  std::string message;  // failure or skip: the whole message (traceback included)
  double seconds = 0;
};

class TestLog {
 public:
  void Add(TestCaseResult c) { cases_.push_back(std::move(c)); }
  const std::vector<TestCaseResult>& cases() const { return cases_; }
  // A JUnit XML document: <testsuites> with one <testsuite> per game and one <testcase> per
  // case; a failure is <failure message="<file:line: first line>" type="...">full text</failure>.
  std::string JUnitXml() const;
  // {"passed": n, "failed": n, "cases": [{"game", "kind", "name", "file", "line", "passed",
  // "message", "seconds"}]}.
  Json ToJson() const;

 private:
  std::vector<TestCaseResult> cases_;
};

// The "file" and line a failure message starts with ("games/x/tests/y.lua:12: ..."), found in
// its first line; false when it names none.
bool FailureLocation(const std::string& message, std::string* file, int* line);

}  // namespace plateau
