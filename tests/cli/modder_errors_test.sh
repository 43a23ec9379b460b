#!/usr/bin/env bash
# A modder's mistakes with the Écosystème base are refused with one message that starts at the
# modder's own file and line, then names the base line that found the mistake (issue 17): a
# misspelt card in a score sheet, a sheet row for a category the table lacks, a majority's
# unknown card or category, a grid function returning fewer counts than the table declares,
# a card without a count, a manifest without "data" or "extends". `plateau test` shows the
# same message and the rules' traceback.
# Usage: modder_errors_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$work"
cp -r "$src/games/ecosysteme/template" foret
find foret -type f -exec sed -i 's/{{id}}/foret/g; s/{{name}}/Foret/g; s/{{base}}/ecosysteme/g' {} +
cp foret/rules.lua rules.orig
cp foret/data/cards.json cards.orig
cp foret/game.json game.orig
"$plateau" validate foret > /dev/null || fail "the template does not validate"

# edit <file> <python literal old> <python literal new>: one replacement, which must apply.
edit() {
  python3 - "$@" << 'EOF'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
assert old in text, "no '%s' in %s" % (old, path)
open(path, "w").write(text.replace(old, new, 1))
EOF
}
restore() { cp rules.orig foret/rules.lua; cp cards.orig foret/data/cards.json; cp game.orig foret/game.json; }
# line_of <text>: the line of foret/rules.lua holding it.
line_of() { grep -nF -- "$1" foret/rules.lua | head -1 | cut -d: -f1; }

# script_error <first line of the message> <base file that found it> [<more text>]: a script
# error in one of validate's games: validate refuses the game (exit 2) with the rules' message,
# which starts with the given line; the base line follows.
script_error() {
  set +e
  "$plateau" validate foret > out.txt 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "exit $rc, not 2: $(cat out.txt)"
  grep -qF -- "plateau: script error: $1" out.txt || fail "expected 'plateau: script error: $1' in: $(cat out.txt)"
  [ -z "$2" ] || grep -qF -- "(found by games/ecosysteme/ecosysteme/$2:" out.txt || fail "no '(found by ...$2:' in: $(cat out.txt)"
  [ -z "${3:-}" ] || grep -qF -- "$3" out.txt || fail "expected '$3' in: $(cat out.txt)"
}

# load_refused <first line of the message> <base file that found it> [<more text>]: the mistake
# is found when the rules load (game.check, issue 34): validate exits 2, the message starts with
# the given line, the base line follows.
load_refused() {
  set +e
  "$plateau" validate foret > out.txt 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "exit $rc, not 2: $(cat out.txt)"
  grep -qF -- "plateau: $1" out.txt || fail "expected 'plateau: $1' in: $(cat out.txt)"
  [ -z "$2" ] || grep -qF -- "(found by games/ecosysteme/ecosysteme/$2:" out.txt || fail "no '(found by ...$2:' in: $(cat out.txt)"
  [ -z "${3:-}" ] || grep -qF -- "$3" out.txt || fail "expected '$3' in: $(cat out.txt)"
}

restore
edit foret/rules.lua '{ score = "meadow", query = { "groups", "meadow", MEADOW_POINTS } },' \
  '{ score = "meadow", query = { "groups", "meadow", MEADOW_POINTS } },
    { score = "meadow", query = { "count", "medow" } },'
# A sheet entry's mistake is named at the entry's own line, not the sheet's.
load_refused "games/foret/rules.lua:$(line_of '{ "count", "medow" }'): score sheet entry #2 (score = 'meadow'): unknown card 'medow' (did you mean 'meadow' (games/foret/data/cards.json /cards/0/id)?)" scoring.lua

restore
edit foret/rules.lua '{ score = "meadow", query = { "groups", "meadow", MEADOW_POINTS } },' \
  '{ score = "meadow", query = { "groups", "meadow", MEADOW_POINTS } },
    { score = "bee", per = 3, query = { "pairs", "meadow", "meadow" } },'
load_refused "games/foret/rules.lua:$(line_of '{ score = "bee", per = 3'): score sheet entry #2 (score = 'bee'): 'bee' is not a category of the score table (meadow)" scoring.lua

restore
edit foret/rules.lua '  solo = true,' '  solo = true, majorities = { { category = "meadow", card = "medow", points = { 5, 2 } } },'
load_refused "games/foret/rules.lua:$(line_of 'table_score.check'): score.assemble: majority #1: unknown card id 'medow' (did you mean 'meadow' (games/foret/data/cards.json /cards/0/id)?) (the cards of games/foret/data/cards.json: meadow)" score.lua

restore
edit foret/rules.lua '  solo = true,' '  solo = true, majorities = { { category = "medow", card = "meadow", points = { 5, 2 } } },'
load_refused "games/foret/rules.lua:$(line_of 'table_score.check'): score.assemble: majority #1: category 'medow' is not a category of the score table (meadow)" score.lua

# The grid function returns the breakdown only, the table declares a majority.
restore
edit foret/rules.lua '  solo = true,' '  solo = true, majorities = { { category = "meadow", card = "meadow", points = { 5, 2 } } },'
script_error "games/foret/rules.lua:$(line_of 'table_score.assemble'): score.assemble: the grid function returned 0 majority count(s) for seat 1, but the table declares 1 (meadow)" score.lua
# plateau test: the same message, with the rules' traceback, in the conformance check and in
# a scenario test that scores (whose line is the test's own, not the base helper's).
set +e
"$plateau" test foret --games 2 > test.txt 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "plateau test: exit $rc, not 1: $(cat test.txt)"
[ "$(grep -c 'stack traceback:' test.txt)" -ge 2 ] || fail "plateau test does not keep the traceback: $(cat test.txt)"
grep -qF "FAIL games/foret/tests/example_test.lua: meadow" test.txt || fail "$(cat test.txt)"
grep -qE "^  games/foret/tests/example_test.lua:[0-9]+: score: games/foret/rules.lua:$(line_of 'table_score.assemble'): score.assemble" test.txt ||
  fail "a scenario failure inside the base's test helpers does not start at the test's line: $(cat test.txt)"
grep -qF "(in games/ecosysteme/ecosysteme/testing.lua:" test.txt || fail "the helper's line is not named: $(cat test.txt)"

# A card without a count: the data file and the card's JSON path.
restore
edit foret/data/cards.json '"count": 130, ' ''
load_refused "games/foret/data/cards.json: at /cards/0: card 'meadow' has no count (the copies of it in the deck)" ""

# A manifest without "data": said in words, not as a nil index inside the base.
restore
python3 -c "import json; j=json.load(open('foret/game.json')); del j['data']; json.dump(j, open('foret/game.json', 'w'))"
load_refused "game 'foret' has no \"cards\" data file: a variant of the Écosystème base needs in its game.json \"data\"" ""

# A manifest without "extends": the base's modules are not found, and the message says why.
restore
python3 -c "import json; j=json.load(open('foret/game.json')); del j['extends']; json.dump(j, open('foret/game.json', 'w'))"
script_error "games/foret/rules.lua:$(line_of 'require("ecosysteme.draft")'): module 'ecosysteme.draft' not found in games/foret (looked for ecosysteme/draft.lua)" "" \
  'the modules of a base game are found only when game.json names the base in "extends"'
# Océan (its own scoring, no score sheet) checks its data at load too: a new card it has no rule
# for, a food-chain group it does not know, refused naming the data's path (exit 2).
cp -r "$src/games/ecosysteme-ocean" abysse
python3 - << 'EOF'
import json
d = json.load(open("abysse/data/cards.json"))
d["cards"].append({"id": "jellyfish", "count": 4, "group": "prey", "name": {"en": "Jellyfish"}})
json.dump(d, open("abysse/data/cards.json", "w"), ensure_ascii=False)
EOF
# ocean_refused <grep -E pattern>: validate abysse exits 2 with a message matching it.
ocean_refused() {
  set +e
  "$plateau" validate abysse > out.txt 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "Océan: exit $rc, not 2: $(cat out.txt)"
  grep -qE -- "$1" out.txt || fail "Océan: expected '$1' in: $(cat out.txt)"
}
ocean_refused "plateau: games/abysse/data/cards.json: at /cards/11/id: card 'jellyfish' has no scoring rule in Océan's rules.lua"
cp "$src/games/ecosysteme-ocean/data/cards.json" abysse/data/cards.json
sed -i 's/"group": "predator"/"group": "predators"/' abysse/data/cards.json
ocean_refused "plateau: games/abysse/data/cards.json: at /cards/[0-9]+/group: 'predators' is not a food-chain group"
echo "ok"
