#!/usr/bin/env bash
# A game folder outside games/ (a modder's): its errors name files games/<folder>/... like
# every game's, and say once where that folder is on disk; a game in the tree gets no such line.
# Usage: folder_note_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"

mkdir -p "$work/mods/crash/data"
cp "$src/tests/data/games/safety-counter/data/cards.json" "$work/mods/crash/data/"
cat > "$work/mods/crash/game.json" <<'JSON'
{"id": "crash", "api_version": 1, "version": 1, "name": {"en": "Crash"}, "players": {"min": 2, "max": 2},
 "rules": "rules.lua", "data": {"cards": {"file": "data/cards.json", "schema": "cards"}}}
JSON
cat > "$work/mods/crash/rules.lua" <<'LUA'
-- Crashes on its first move: an undeclared global.
local game = {api_version = 1, moves = {}, categories = {'n'}}
function game.setup(ctx, state) state.data.n = 0 end
function game.to_move(ctx, state) return {1} end
function game.legal_moves(ctx, state, seat) return {{type = "go"}} end
function game.moves.go(ctx, state, seat, move)
  state.data.n = no_such_thing.n
end
function game.score(ctx, state) return {{total = 0, breakdown = {n = 0}}, {total = 0, breakdown = {n = 0}}} end
return game
LUA

set +e
"$plateau" validate "$work/mods/crash" > "$work/validate.txt" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "validate: exit $rc, not 2 (a script error refuses the game): $(cat "$work/validate.txt")"
grep -qF "games/crash/rules.lua:7: undeclared global 'no_such_thing'" "$work/validate.txt" ||
  fail "validate: the error does not name games/crash/rules.lua:7: $(cat "$work/validate.txt")"
grep -qF "(games/crash is the folder $work/mods/crash)" "$work/validate.txt" ||
  fail "validate: no line saying where games/crash is: $(cat "$work/validate.txt")"

# The same from inside the folder's parent, by relative path: the folder is still named whole.
(cd "$work/mods" && "$plateau" test crash > "$work/test.txt" 2>&1) && fail "test: a crashing game passed"
grep -qF "(games/crash is the folder $work/mods/crash)" "$work/test.txt" ||
  fail "test: no line saying where games/crash is: $(cat "$work/test.txt")"

# A game of the tree is where its name says: no such line.
refused "unknown game 'nope'" validate nope
"$plateau" validate chenilles > "$work/tree.txt" 2>&1 || fail "validate chenilles: $(cat "$work/tree.txt")"
if grep -q "is the folder" "$work/tree.txt"; then fail "a game of the tree got a folder note"; fi

# A bare id that resolves to ./chenilles, not the installed Chenilles (issue 34): each command's
# first line names the folder used, and a simulate report names it in its header and its JSON.
mkdir -p "$work/here"
cp -r "$src/games/chenilles" "$work/here/chenilles"
cd "$work/here"
for args in "validate chenilles" "test chenilles --games 1 --scenarios-only" "simulate chenilles -n 2" \
            "play chenilles --bots random,random --seed 1"; do
  # shellcheck disable=SC2086
  "$plateau" $args < /dev/null > out.txt 2>&1 || true
  head -1 out.txt | grep -qF "plateau: the game games/chenilles is the folder $work/here/chenilles (found before the installed one)" ||
    fail "plateau $args: the first line does not name ./chenilles: $(head -3 out.txt)"
done
"$plateau" simulate chenilles -n 2 > report.txt 2> /dev/null || fail "simulate ./chenilles"
head -1 report.txt | grep -qF "chenilles (the folder $work/here/chenilles): " ||
  fail "the simulate report's header does not name the folder: $(head -3 report.txt)"
"$plateau" simulate chenilles -n 2 --format json 2> /dev/null | python3 -c '
import json, sys
assert json.load(sys.stdin).get("folder") == sys.argv[1]' "$work/here/chenilles" || fail "the JSON report has no folder"
cd "$work"
"$plateau" simulate chenilles -n 2 --format json 2> /dev/null | python3 -c "import json, sys; assert 'folder' not in json.load(sys.stdin)" ||
  fail "the installed game's report names a folder"

# From inside a game's folder: its id finds nothing below it, and the refusal says to name it
# '.'; '.' is then named by the folder's own name, said once.
cp -r "$work/here/chenilles" "$work/here/mychen"
cd "$work/here/mychen"
refused "(this is the folder mychen itself: name it '.')" validate mychen
"$plateau" validate . > "$work/dot.txt" 2>&1 || fail "validate .: $(cat "$work/dot.txt")"
[ "$(grep -c "is the folder $work/here/mychen" "$work/dot.txt")" = 1 ] || fail "validate . names its folder once: $(cat "$work/dot.txt")"
if grep -qF "games/." "$work/dot.txt"; then fail "'.' shown as games/.: $(cat "$work/dot.txt")"; fi
# Inside a copy named as an installed game, the id is the installed game: said, with '.'.
mkdir -p "$work/copy" && cp -r "$src/games/chenilles" "$work/copy/chenilles"
cd "$work/copy/chenilles"
"$plateau" validate chenilles > "$work/inst.txt" 2>&1 || fail "validate chenilles: $(cat "$work/inst.txt")"
grep -qF "not this folder of the same name: name this one '.'" "$work/inst.txt" ||
  fail "inside a copy of chenilles: $(cat "$work/inst.txt")"
cd "$work"
echo "ok"
