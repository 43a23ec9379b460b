#!/usr/bin/env bash
# docs/scale.md's GNU parallel recipes run as written on this machine (local cores only): the
# shell blocks marked <!-- recipe: parallel-local --> and <!-- recipe: parallel-sweep --> are
# taken from the page, their `run=` line swapped for a smaller run, and run with `plateau` on the
# PATH. The merged reports must equal one `plateau simulate $run` (per swept value), but for the
# time it took. A recipe edited into something that no longer works turns this test red.
# Usage: scale_recipe_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
command -v parallel > /dev/null || fail "GNU parallel is not installed (apt-get install parallel; tools/bootstrap.sh does)"

# recipe <name>: the ```sh block under <!-- recipe: <name> --> in docs/scale.md.
recipe() {
  awk -v mark="<!-- recipe: $1 -->" '$0 == mark {found = 1; next}
    found && /^```sh$/ {body = 1; next}
    body && /^```$/ {exit}
    body {print}' "$src/docs/scale.md"
}
# with_run <run> <name>: the recipe with its run= line replaced (there must be exactly one).
with_run() {
  local text
  text=$(recipe "$2")
  [ -n "$text" ] || fail "docs/scale.md has no block marked <!-- recipe: $2 -->"
  [ "$(grep -c '^run=' <<<"$text")" = 1 ] || fail "recipe $2 should set run= once: $text"
  sed "s/^run=.*/run=\"$1\"/" <<<"$text"
}
untimed_json() { grep -v '^  "seconds": \|^  "games_per_second": '; }
untimed_text() { sed -E '1,2s/ in [0-9.]+ s: [0-9.]+ games\/s$//'; }

mkdir -p "$work/bin" "$work/local" "$work/sweep"
ln -s "$plateau" "$work/bin/plateau"
export PATH="$work/bin:$PATH"

# The run on local cores, 8 slices.
run="chenilles -n 60 --players 3 --bots heuristic,random"
with_run "$run" parallel-local > "$work/local.sh"
(cd "$work/local" && bash -e "$work/local.sh" > merged.txt) || fail "the local recipe failed: $(cat "$work/local.sh")"
ls "$work/local"/shard-*.json > /dev/null || fail "the local recipe wrote no slices"
# shellcheck disable=SC2086
plateau simulate $run > "$work/one.txt"
cmp <(untimed_text < "$work/one.txt") <(untimed_text < "$work/local/merged.txt") ||
  fail "the recipe's merged report differs from one run: $(diff <(untimed_text < "$work/one.txt") <(untimed_text < "$work/local/merged.txt") | head -20)"

# The sweep: one job per value and slice, one merge per value.
run="ecosysteme-savane -n 40 --players 3 --bots greedy,random"
with_run "$run" parallel-sweep > "$work/sweep.sh"
(cd "$work/sweep" && bash -e "$work/sweep.sh") || fail "the sweep recipe failed: $(cat "$work/sweep.sh")"
for v in 10 11 12; do
  [ -s "$work/sweep/hand_size-$v.json" ] || fail "the sweep recipe wrote no hand_size-$v.json"
  # shellcheck disable=SC2086
  plateau simulate $run --set hand_size=$v --format json > "$work/one-$v.json"
  cmp <(untimed_json < "$work/one-$v.json") <(untimed_json < "$work/sweep/hand_size-$v.json") ||
    fail "hand_size=$v: the merged report differs from one run"
done
echo "docs/scale.md's GNU parallel recipes ok"
