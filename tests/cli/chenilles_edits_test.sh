#!/usr/bin/env bash
# Chenilles survives number edits (issue 17): a copy of games/chenilles with five numbers of
# data/chenilles.json changed at random (fixed seeds, values within the schema's bounds, see
# edit_numbers.py) still passes `plateau test` (30 conformance games, as conformance.chenilles):
# the scenario tests run with the numbers they were written against (chenilles/test_numbers.lua),
# and the golden playthrough replays with the data it recorded, saying so. A change of the rules
# in such a copy still turns the playthrough red. Other seeds by hand:
#   CHENILLES_EDIT_SEEDS="1 2 3" bash tests/cli/chenilles_edits_test.sh build/plateau .
# Usage: chenilles_edits_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
seeds=${CHENILLES_EDIT_SEEDS:-"17 2026"}
for seed in $seeds; do
  copy="$work/seed-$seed/chenilles"
  mkdir -p "$(dirname "$copy")"
  cp -r "$src/games/chenilles" "$copy"
  python3 "$src/tests/cli/edit_numbers.py" "$copy/data/chenilles.json" "$src/schemas/chenilles.schema.json" \
    --seed "$seed" --count 5 > "$work/edits.txt" || fail "seed $seed: editing failed: $(cat "$work/edits.txt")"
  [ "$(grep -c '^--set ' "$work/edits.txt")" -eq 5 ] || fail "seed $seed: not five edits: $(cat "$work/edits.txt")"
  cmp -s "$src/games/chenilles/data/chenilles.json" "$copy/data/chenilles.json" && fail "seed $seed: the data did not change"
  if ! "$plateau" test "$copy" --games 30 > "$work/test.txt" 2>&1; then
    fail "seed $seed: plateau test is red after these edits:
$(cat "$work/edits.txt")
$(grep -A3 '^FAIL' "$work/test.txt" | head -40)"
  fi
  grep -q "golden playthrough replays identically (replayed with the data it was recorded with: the game's data differ at chenilles\." \
    "$work/test.txt" || fail "seed $seed: the playthrough did not replay with its recorded data: $(grep playthrough "$work/test.txt")"
  grep -q "^[0-9]* passed, 0 failed" "$work/test.txt" || fail "seed $seed: $(tail -1 "$work/test.txt")"
done
# With the numbers edited, a change of the rules' behaviour (the time token moves two spaces a
# round) is still caught by the playthrough.
sed -i 's/state:track("time"):move(1)/state:track("time"):move(2)/' "$copy/chenilles/turn.lua"
grep -q 'state:track("time"):move(2)' "$copy/chenilles/turn.lua" || fail "the test could not change the rules (the time token's step)"
set +e
"$plateau" test "$copy" --games 0 > "$work/rules.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a rules change after the edits: exit $rc, not 1"
grep -q "^FAIL .*seed-7-2p.txt: golden playthrough differs (replayed with the data it was recorded with" "$work/rules.txt" ||
  fail "a rules change after the edits is not caught by the playthrough: $(grep -A3 playthrough "$work/rules.txt" | head)"
# The unedited game replays its playthrough with its own data, without the note.
"$plateau" test "$src/games/chenilles" --games 5 > "$work/own.txt" 2>&1 || fail "plateau test chenilles: $(grep -A3 '^FAIL' "$work/own.txt")"
grep -q "golden playthrough replays identically$" "$work/own.txt" || fail "the unedited game: $(grep playthrough "$work/own.txt")"
echo "1 passed, 0 failed"
