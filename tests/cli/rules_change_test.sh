#!/usr/bin/env bash
# A save records the fingerprint of the rules and data that played it. While the files are
# unchanged the game replays and reloads silently; once the designer edits a number, loading
# the save warns that the files changed since, and a replay that no longer reaches the saved
# state says why. A game whose log records a hot reload says at which move the rules changed.
# Usage: rules_change_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cp -r "$src/games/chenilles" "$work/chenilles"
save="$work/game.json"
"$plateau" play "$work/chenilles" --players 2 --bots random --seed 3 --save "$save" > "$work/play.txt" 2>&1 \
  || fail "play failed: $(cat "$work/play.txt")"
grep -A3 '^ "rules": {' "$save" | grep -Eq '"fingerprint": "[0-9a-f]{16}"' || fail "the save records no rules fingerprint"
"$plateau" replay "$work/chenilles" "$save" > "$work/replay.txt" 2>&1 || fail "replay failed: $(cat "$work/replay.txt")"
grep -q "replay ok" "$work/replay.txt" || fail "no 'replay ok': $(cat "$work/replay.txt")"
"$plateau" play "$work/chenilles" --bots random --load "$save" > "$work/load.txt" 2>&1 || fail "--load failed: $(cat "$work/load.txt")"
grep -q "changed since" "$work/load.txt" && fail "unchanged files were reported as changed: $(cat "$work/load.txt")"
# A scenario test is not part of the rules: editing one changes nothing.
echo "-- a comment" >> "$work/chenilles/tests/$(ls "$work/chenilles/tests" | grep '\.lua$' | head -1)"
"$plateau" play "$work/chenilles" --bots random --load "$save" > "$work/load_tests.txt" 2>&1 || fail "--load failed"
grep -q "changed since" "$work/load_tests.txt" && fail "an edited test counted as a rules change: $(cat "$work/load_tests.txt")"
# The designer gives everyone more copper at the start: the save's moves now meet another game.
sed -i 's/"id": "copper", "kind": "money", "cap": 10, "start": 4/"id": "copper", "kind": "money", "cap": 10, "start": 6/' \
  "$work/chenilles/data/chenilles.json"
grep -q '"start": 6' "$work/chenilles/data/chenilles.json" || fail "the test could not edit the data"
"$plateau" play "$work/chenilles" --bots random --load "$save" > "$work/load2.txt" 2>&1 || true
grep -q "game.json: the game's rules or data changed since this game was saved" "$work/load2.txt" \
  || fail "no warning that the files changed: $(cat "$work/load2.txt")"
if "$plateau" replay "$work/chenilles" "$save" > "$work/replay2.txt" 2>&1; then
  fail "the save still replays after the starting copper changed, so the test proves nothing"
fi
grep -q "the game's rules or data changed since it was saved (rules [0-9a-f]* then, [0-9a-f]* now)" "$work/replay2.txt" \
  || fail "the failed replay does not say the files changed: $(cat "$work/replay2.txt")"
# A log that records a hot reload names the move where the rules changed.
sed 's/^ "log": \[$/ "log": [{"seat": -1, "kind": "reload", "detail": {"from": "00000000000000aa", "to": "00000000000000bb", "version_from": 1, "version_to": 1, "move": 0}},/' \
  "$save" > "$work/reloaded.json"
grep -q '"kind": "reload"' "$work/reloaded.json" || fail "the test could not add a reload to the log"
if "$plateau" replay "$work/chenilles" "$work/reloaded.json" > "$work/replay3.txt" 2>&1; then
  fail "the edited game still replays"
fi
grep -q "the rules were reloaded at move 0 (rules 00000000000000aa -> 00000000000000bb)" "$work/replay3.txt" \
  || fail "the replay does not name the reload: $(cat "$work/replay3.txt")"
echo "ok"
