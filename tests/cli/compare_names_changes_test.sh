#!/usr/bin/env bash
# --compare says what changed (issue 32): reports carry the rules fingerprint and the bots; the
# comparison names every difference between the two runs (an edit of the game's files, a --set
# value, the bots, the seed) before its table, orders the table by the size of the change, and
# refuses a report of another game naming both. On tests/data/games/tune-target (count 'total'
# is a + b + coin.bonus plus dice), copied so that its data can be edited.
# Usage: compare_names_changes_test.sh <plateau> <src>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$src"
cp -r tests/data/games/tune-target "$work/tune-target"
game=$work/tune-target

"$plateau" simulate $game -n 200 --format json > "$work/before.json"
python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
assert isinstance(j['rules'], str) and len(j['rules']) >= 8, j.get('rules')
assert j['bots_spec'] == 'random' and j['seed'] == 1, (j['bots_spec'], j['seed'])
" "$work/before.json" || fail "the report lacks its fingerprint or bots"

# The same run: no notes, nothing changed.
out=$("$plateau" simulate $game -n 200 --compare "$work/before.json")
if grep -qF "note:" <<<"$out"; then fail "the same run should have no notes: $out"; fi

# An edit of the data file, a parameter set, other bots and another seed: each named before the table.
sed -i 's/"bonus": 2/"bonus": 5/' "$game/data/cards.json"
out=$("$plateau" simulate $game -n 200 --set a=1 --bots random,greedy --seed 7 --compare "$work/before.json")
table=$(grep -n "^  measure " <<<"$out" | cut -d: -f1)
[ -n "$table" ] || fail "no table: $out"
for want in "note: rules: fingerprint " "note: parameter a: 0 before, 1 now" 'note: --bots: "random" before, "random,greedy" now' \
            "note: seed: 1 before, 7 now" 'note: --set: [] before, ["a=1"] now' \
            "note: data cards.cards.coin.bonus: 2 before, 5 now"; do
  at=$(grep -nF -- "$want" <<<"$out" | head -1 | cut -d: -f1)
  [ -n "$at" ] || fail "the comparison does not name '$want': $out"
  [ "$at" -lt "$table" ] || fail "'$want' comes after the table: $out"
done

# The table ordered by the size of the change: changes first, each group by |z|; count 'total'
# (+1 from a, +3 from the bonus: 4 per game) is the largest change and leads.
"$plateau" simulate $game -n 200 --set a=1 --seed 7 --format json --compare "$work/before.json" > "$work/after.json"
python3 - "$work/after.json" <<'PY' || fail "the comparison's order: $(head -c 3000 "$work/after.json")"
import json, sys
c = json.load(open(sys.argv[1]))["compare"]
rows = c["measures"]
changed = [m["changed"] for m in rows]
assert changed == sorted(changed, reverse=True), "changes first"
def size(m):
    if not m.get("judged", True): return -1
    return abs(m["z"]) if m["z"] is not None else (float("inf") if m["changed"] else 0)
for group in (True, False):
    sizes = [size(m) for m in rows if m["changed"] == group]
    assert sizes == sorted(sizes, reverse=True), (group, sizes)
assert rows[0]["measure"] == "total (per game)", rows[0]
assert abs(rows[0]["difference"] - 4) < 0.5, rows[0]
PY

# A data value set on the command line is named the same way, and only the values that differ:
# the edited file's bonus (5 in both runs now) is not.
"$plateau" simulate $game -n 200 --format json > "$work/edited.json"
out=$("$plateau" simulate $game -n 200 --set cards.cards.coin.bonus=9 --compare "$work/edited.json")
grep -qF "note: data cards.cards.coin.bonus: 5 before, 9 now" <<<"$out" || fail "the --set data value is not named: $out"
[ "$(grep -c "note: data " <<<"$out")" -eq 1 ] || fail "only one data value differs: $out"
# The seat balance and how the game feels have rows of their own.
for want in "seat P1 edge over a fair share" "lead changes per game" "winner leads for good from (share of the game)" \
            "drama: the winner came back" "dead turns (share of a game's decisions)" "score gap leader-second at 100%"; do
  grep -qF -- "$want" <<<"$out" || fail "no row '$want' in: $out"
done
# A baseline written before reports carried their data values says so instead of guessing.
python3 -c "
import json, sys
j = json.load(open(sys.argv[1])); j.pop('data')
json.dump(j, open(sys.argv[2], 'w'))" "$work/edited.json" "$work/old.json"
out=$("$plateau" simulate $game -n 200 --compare "$work/old.json")
grep -qF "note: data: the baseline report carries no data values" <<<"$out" || fail "no note on the missing data values: $out"

# A report of another game is refused, naming both.
"$plateau" simulate ecosysteme-savane -n 2 --players 2 --format json > "$work/savane.json"
refused "is a report of ecosysteme-savane, not of $game" simulate $game -n 5 --compare "$work/savane.json"
echo "compare names changes: ok"
