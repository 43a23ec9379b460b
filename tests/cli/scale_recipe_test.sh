#!/usr/bin/env bash
# docs/scale.md's GNU parallel recipes run as written on this machine (local cores only): the
# shell blocks marked <!-- recipe: parallel-local --> and <!-- recipe: parallel-sweep --> are
# taken from the page, their `run=` line swapped for a smaller run, and run with `plateau` on the
# PATH. The merged reports must equal one `plateau simulate $run` (per swept value), but for the
# time it took. A recipe edited into something that no longer works turns this test red.
# Usage: scale_recipe_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/scale_lib.sh"
command -v parallel > /dev/null || fail "GNU parallel is not installed (apt-get install parallel; tools/bootstrap.sh does)"

mkdir -p "$work/bin" "$work/local" "$work/sweep"
ln -s "$plateau" "$work/bin/plateau"
export PATH="$work/bin:$PATH"

# The run on local cores, 8 slices.
run="chenilles -n 60 --players 3 --bots heuristic,random"
recipe_with parallel-local run="$run" > "$work/local.sh"
(cd "$work/local" && bash -e "$work/local.sh" > merged.txt) || fail "the local recipe failed: $(cat "$work/local.sh")"
ls "$work/local"/shard-*.json > /dev/null || fail "the local recipe wrote no slices"
# shellcheck disable=SC2086
plateau simulate $run > "$work/one.txt"
same_report "$work/one.txt" "$work/local/merged.txt" text "the local recipe"

# The sweep: one job per value and slice, one merge per value.
run="ecosysteme-savane -n 40 --players 3 --bots greedy,random"
recipe_with parallel-sweep run="$run" > "$work/sweep.sh"
(cd "$work/sweep" && bash -e "$work/sweep.sh") || fail "the sweep recipe failed: $(cat "$work/sweep.sh")"
for v in 10 11 12; do
  [ -s "$work/sweep/hand_size-$v.json" ] || fail "the sweep recipe wrote no hand_size-$v.json"
  # shellcheck disable=SC2086
  plateau simulate $run --set hand_size=$v --format json > "$work/one-$v.json"
  same_report "$work/one-$v.json" "$work/sweep/hand_size-$v.json" json "the sweep recipe, hand_size=$v"
done
echo "docs/scale.md's GNU parallel recipes ok"
