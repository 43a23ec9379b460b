#!/usr/bin/env bash
# The worked example of games/chenilles/README.md ("Letting plateau tune find the numbers"),
# taken from the README as written and run at a small size (8 games per candidate, a budget of
# 5, 8 confirmation games): it runs to the end, prints the best setting, the confirmation and
# each knob's effect, writes the overlay, and the overlay applies to simulate and to the
# game's own scenario tests (which pin the numbers they check, so they stay green).
# Usage: tune_chenilles_example_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$src"

# The command: from its first line ("plateau tune chenilles") through its continuation lines.
cmd=$(awk '/^plateau tune chenilles/ {on = 1} on {print} on && !/\\$/ {exit}' games/chenilles/README.md | tr -d '\\\n')
[ -n "$cmd" ] || fail "no 'plateau tune chenilles' command in games/chenilles/README.md"
grep -qF -- "-n 200 --budget 30" <<<"$cmd" || fail "the README's command changed its size; update this test: $cmd"
grep -qF -- "--write chenilles-tuned.json" <<<"$cmd" || fail "the README's command no longer writes chenilles-tuned.json: $cmd"
cmd=${cmd/-n 200 --budget 30/-n 8 --budget 5 --confirm 8 --threads 2}
cmd=${cmd/--write chenilles-tuned.json/--write $work/tuned.json}
cmd=${cmd/#plateau /}
eval "set -- $cmd"
out=$("$plateau" "$@") || fail "the example failed: $out"
for want in "tune chenilles: 3 knobs, 5 targets, 8 games per candidate" "#1   start" "best: chenilles.events.insurer.price=" \
            "confirmation: 8 games on other seeds" "most effect first:" "wrote $work/tuned.json"; do
  grep -qF -- "$want" <<<"$out" || fail "the example's output lacks '$want': $out"
done
grep -qE "^the search (settled after|used its whole budget)" <<<"$out" || fail "no word on the budget: $out"

"$plateau" simulate chenilles -n 4 --bots heuristic --set-file "$work/tuned.json" > "$work/sim.txt" ||
  fail "simulate --set-file: $(cat "$work/sim.txt")"
"$plateau" test chenilles --scenarios-only --set-file "$work/tuned.json" > "$work/test.txt" ||
  fail "the scenario tests with the overlay: $(cat "$work/test.txt")"
echo "tune chenilles example: ok"
