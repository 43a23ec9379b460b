#!/usr/bin/env bash
# plateau watch end to end: a broken save is rejected with file:line while the table's hash
# stays the same, the next good save recovers, a rule change shows in the scores, and a burst of
# saves to two files (as an editor saving all) gives exactly one reload.
# Usage: watch_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cp -r "$src/games/ecosysteme-savane" "$work/"
game="$work/ecosysteme-savane"
cp "$game/rules.lua" "$work/good.lua"
"$plateau" watch "$game" --players 3 --moves 20 --format json --reloads 10 --timeout 60 --settle-ms 300 --recovery "$work/recovery.json" > "$work/out.jsonl" 2>&1 &
pid=$!
wait_lines "$work/out.jsonl" 1
sed -i 's/^local game = { api_version = 1, version = 1 }$/&\nlocal x = = 1/' "$game/rules.lua"
wait_lines "$work/out.jsonl" 2
cp "$work/good.lua" "$game/rules.lua"
wait_lines "$work/out.jsonl" 3
sed -i 's/gazelle = 2 \* gazelles/gazelle = 3 * gazelles/' "$game/rules.lua"
wait_lines "$work/out.jsonl" 4
# A burst: two files saved back to back, one through a rename like editors do.
sed 's/gazelle = 3 \* gazelles/gazelle = 2 * gazelles/' "$game/rules.lua" > "$work/next.lua"
mv "$work/next.lua" "$game/rules.lua"
sed -i 's/"Vautour"/"Vautour fauve"/' "$game/data/cards.json"
grep -q 'Vautour fauve' "$game/data/cards.json" || { echo "FAIL: the test's cards.json edit did not apply"; exit 1; }
wait_lines "$work/out.jsonl" 5
sleep 0.5
kill "$pid" 2>/dev/null || true
out="$work/out.jsonl"
fail() { echo "FAIL: $1"; cat "$out"; exit 1; }
sed -n 1p "$out" | grep -q '"event":"start"' || fail "no start event"
sed -n 2p "$out" | grep -q '"ok":false' || fail "the broken save was not rejected"
bad_line=$(( $(grep -n '^local game = ' "$work/good.lua" | cut -d: -f1) + 1 ))  # the line the test broke
sed -n 2p "$out" | grep -q "games/ecosysteme-savane/rules.lua:$bad_line:" || fail "the error does not name rules.lua:$bad_line"
sed -n 3p "$out" | grep -q '"ok":true' || fail "the good save did not recover"
sed -n 4p "$out" | grep -q '"changes":"gazelle' || fail "the rule change is not reported"
[ "$(grep -c '"event"' "$out")" -eq 5 ] || fail "the two-file burst gave more than one reload"
# Stopped by a signal, watch saves the table it held, and the save loads again.
for _ in $(seq 1 100); do [ -s "$work/recovery.json" ] && break; sleep 0.05; done
grep -q 'stopped by SIGTERM; the table is saved in' "$out" || fail "no recovery message on SIGTERM"
"$plateau" play "$game" --load "$work/recovery.json" --bots random > /dev/null || fail "the recovery file does not load"
sed -n 5p "$out" | grep -q '"ok":true' || fail "the burst was not reloaded"
hashes=$(grep -o '"state_hash":"[0-9a-f]*"' "$out" | sort -u | wc -l)
[ "$hashes" -eq 1 ] || fail "the state hash changed across reloads"
echo "1 passed, 0 failed"
