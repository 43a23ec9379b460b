#!/usr/bin/env bash
# The mechanisms of docs/security.md are the only way: this greps the C++ tree for what would go
# around them. No shell (system, popen: a file name with quotes would become a command); no
# std::regex (it recurses per character: a long line of input overflows the stack); no
# get<int>() or std::stoi-family on input (they narrow or throw: limits::JsonInt and ParseInt
# range-check). scripting/api/ is the build-time generator over the project's own spec, outside
# any input path.
set -uo pipefail
src=${1:?usage: source_rules_test.sh <source dir>}
cd "$src" || exit 2
status=0
report() {
  local what=$1 hits=$2
  if [ -n "$hits" ]; then
    echo "FAIL: $what:"
    printf '%s\n' "$hits" | sed 's/^/  /'
    status=1
  else
    echo "ok: $what"
  fi
}
code() { grep -rnE "$1" host scripting designer bench --include='*.cc' --include='*.h' | grep -v '^scripting/api/' |
         grep -vE '^[^:]+:[0-9]+:\s*//' ; }
report "no shell command line (system, popen)" "$(code '\b(std::)?(system|popen)\s*\(')"
report "no std::regex" "$(code 'std::regex|#include <regex>')"
report "no narrowing get<int>() or stoi/stol/atoi on input" "$(code 'get<int>\(\)|std::sto(i|l|ul|ll|ull)\(|\batoi\(')"
exit $status
