#!/usr/bin/env bash
# Issue 30's hostile catalogue, counted by class: every class has at least 10 cases written
# from it (tests/hostile/*/ with "-- class: 30.N", the studio's cases in
# tests/studio/hostile_test.mjs for class 6). Prints the counts; fails naming a class short of 10.
set -uo pipefail
src=${1:?usage: catalogue_counts.sh <source dir>}
names=("" "no shell" "one reader" "one writer" "saves" "bounded work" "the studio's server" "numbers and text" "failing fast")
status=0
for n in 1 2 3 4 5 6 7 8; do
  count=$(grep -rlE "^-- class: 30\.$n\$" "$src/tests/hostile" | wc -l)
  if [ "$n" = 6 ]; then
    count=$((count + $(grep -cE '^  async [a-z_]+\(\) \{' "$src/tests/studio/hostile_test.mjs")))
  fi
  printf 'class 30.%d (%s): %d cases\n' "$n" "${names[$n]}" "$count"
  [ "$count" -ge 10 ] || { echo "FAIL: class 30.$n has fewer than 10 cases"; status=1; }
done
exit $status
