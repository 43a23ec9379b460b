#!/usr/bin/env bash
# A saved game keeps the data overrides it was played with: the save records them, replay and
# --load use them, a different --set on --load is refused naming the save, and the same save
# without them no longer replays (so the override really is what made the game). It keeps its
# seats and parameters too (another --players or parameter is refused), and another game's
# save is refused by its game id. It records the engine (Plateau, Lua, nlohmann-json) that
# played it, and a save from another engine replays with a warning.
# Usage: save_overrides_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
save="$work/game.json"
"$plateau" play chenilles --players 2 --bots random --seed 5 --set chenilles.income.copper=5 --save "$save" > "$work/play.txt" 2>&1 \
  || fail "play with a data override failed: $(cat "$work/play.txt")"
grep -A4 '^ "data_overrides": \[' "$save" | grep -q '"path": "chenilles.income.copper"' || fail "the save does not record the override"
grep -A4 '^ "data_overrides": \[' "$save" | grep -q '"value": 5' || fail "the save does not record the override's value"
"$plateau" replay chenilles "$save" > "$work/replay.txt" 2>&1 || fail "replay failed: $(cat "$work/replay.txt")"
grep -q "replay ok" "$work/replay.txt" || fail "no 'replay ok': $(cat "$work/replay.txt")"
# The same moves with the published numbers diverge: the override mattered.
sed '/^ "data_overrides": \[/,/^ \],$/d' "$save" > "$work/stripped.json"
grep -q data_overrides "$work/stripped.json" && fail "the test could not strip the override"
if "$plateau" replay chenilles "$work/stripped.json" > "$work/stripped.txt" 2>&1; then
  fail "a save stripped of its override still replays, so the test proves nothing"
fi
# Continuing with other numbers is refused, naming the save and both sets of values.
set +e
"$plateau" play chenilles --bots random --load "$save" --set chenilles.income.copper=3 > "$work/other.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "--load with another --set exited $rc, not 2"
grep -q "game.json: this game was saved with data overrides chenilles.income.copper=5" "$work/other.txt" || fail "$(cat "$work/other.txt")"
grep -q "given: chenilles.income.copper=3" "$work/other.txt" || fail "$(cat "$work/other.txt")"
# Continuing with no --set, or the same one, works.
"$plateau" play chenilles --bots random --load "$save" > "$work/cont.txt" 2>&1 || fail "--load failed: $(cat "$work/cont.txt")"
"$plateau" play chenilles --bots random --load "$save" --set chenilles.income.copper=5 > "$work/same.txt" 2>&1 \
  || fail "--load with the same --set failed: $(cat "$work/same.txt")"
refused "--players 3: $save is a 2-player game" play chenilles --bots random --load "$save" --players 3
refused "--set max_rounds: $save was played with max_rounds=60; a saved game keeps its parameters" \
  play chenilles --bots random --load "$save" --set max_rounds=20
refused "$save: at /game: a saved 'chenilles' game, not 'ecosysteme-savane'" replay ecosysteme-savane "$save"
# A save whose overrides are not {"path", "value"} entries is refused, not a crash.
sed 's/"path": "chenilles.income.copper",/"where": "chenilles.income.copper",/' "$save" > "$work/malformed.json"
refused "$work/malformed.json: bad saved state: each of data_overrides must be" replay chenilles "$work/malformed.json"
# The save records the engine that played it, outside the state's hash; another engine's save
# still replays, with a warning naming both.
grep -q '"lua": "Lua 5\.4' "$save" || fail "the save does not record the Lua release: $(head -c 400 "$save")"
"$plateau" --version | grep -q "^plateau [0-9.]* (Lua 5\.4\.[0-9]* (package .* at build time), nlohmann-json " ||
  fail "--version: $("$plateau" --version)"
sed 's/"lua": "Lua 5\.4\.[0-9]*[^"]*"/"lua": "Lua 9.9.9"/' "$save" > "$work/other_engine.json"
"$plateau" replay chenilles "$work/other_engine.json" > "$work/engine.txt" 2>&1 || fail "another engine's save: $(cat "$work/engine.txt")"
grep -q "saved by .*Lua 9.9.9.*now running" "$work/engine.txt" || fail "no engine warning: $(cat "$work/engine.txt")"
echo "1 passed, 0 failed"
