#!/usr/bin/env bash
# plateau watch on a variant also watches the base it extends: saving a broken base module is
# rejected naming the base's file and line, the fixed module reloads, and the table stays.
# Usage: watch_base_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
mkdir "$work/games"
ln -s "$src/schemas" "$work/schemas"
cp -r "$src/games/ecosysteme" "$src/games/ecosysteme-ocean" "$work/games/"
module="$work/games/ecosysteme/ecosysteme/score.lua"
cp "$module" "$work/good.lua"
PLATEAU_HOME="$work" "$plateau" watch ecosysteme-ocean --players 2 --moves 10 --format json --reloads 2 --timeout 60 \
  --settle-ms 200 > "$work/out.jsonl" 2>&1 &
pid=$!
wait_lines "$work/out.jsonl" 1
sed -i '0,/^local M = {}$/s//local M = {}\nlocal broken = = 1/' "$module"
grep -q 'local broken = = 1' "$module" || { echo "FAIL: the test's edit did not apply"; exit 1; }
wait_lines "$work/out.jsonl" 2
cp "$work/good.lua" "$module"
wait_lines "$work/out.jsonl" 3
kill "$pid" 2>/dev/null || true
out="$work/out.jsonl"
fail() { echo "FAIL: $1"; cat "$out"; exit 1; }
sed -n 1p "$out" | grep -q '"event":"start"' || fail "no start event"
sed -n 2p "$out" | grep -q '"ok":false' || fail "the broken base module was not seen or not rejected"
sed -n 2p "$out" | grep -q 'games/ecosysteme/ecosysteme/score.lua:[0-9]*:' || fail "the error does not name the base module's line"
sed -n 3p "$out" | grep -q '"ok":true' || fail "the fixed module did not reload"
hashes=$(grep -o '"state_hash":"[0-9a-f]*"' "$out" | sort -u | wc -l)
[ "$hashes" -eq 1 ] || fail "the state hash changed across reloads"
echo "1 passed, 0 failed"
