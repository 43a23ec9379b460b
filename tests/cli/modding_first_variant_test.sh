#!/usr/bin/env bash
# The first variant of docs/modding.md ("A first variant: Montagne, five cards and a bonus") built from the
# page alone, as a newcomer copies it (issue 34): the `plateau new` command of the section, every
# file the page gives (each code block after a `<!-- file: PATH -->` line, written to PATH),
# then every command of its `<!-- run -->` block. Then each mistake of the page's table of
# refusals is made on a copy of the variant: the command exits 2 and its message starts as the
# page says.
# Usage: modding_first_variant_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
doc="$src/docs/modding.md"
cd "$work"

# The section, from its heading to the next "## ".
awk '/^## A first variant: Montagne/ {s = 1; print; next} s && /^## / {exit} s {print}' "$doc" > section.md
[ -s section.md ] || fail "docs/modding.md has no section 'A first variant: Montagne'"

# 1. plateau new, as the page writes it.
new_cmd=$(grep -m1 '^plateau new ecosysteme montagne' section.md) || fail "no plateau new command in the section"
eval "\"\$plateau\" ${new_cmd#plateau }" > new.txt || fail "$new_cmd: $(cat new.txt)"

# 2-4. Every file of the page: plateau new --example wrote each as the page shows it; written
# again where the page says (as a modder copying them would).
python3 - section.md <<'PY'
import os, re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```\n", text, re.S)
assert len(blocks) == 3, "expected 3 files in the section, found %d" % len(blocks)
for path, body in blocks:
    assert os.path.exists(path), "plateau new --example did not write " + path
    got = open(path).read()
    if got != body:
        import difflib
        sys.exit("plateau new --example wrote %s otherwise than the page:\n" % path +
                 "".join(difflib.unified_diff(body.splitlines(True), got.splitlines(True), "page", "written")))
    open(path, "w").write(body)
PY
[ -f montagne/tests/cards_test.lua ] || fail "the page's test file was not written"
# The README plateau new wrote lists the example's cards as its data gives them.
grep -qF "| edelweiss | 15 | 2 per row and 2 per column holding an edelweiss |" montagne/README.md &&
  grep -qF "| meadow | 55 |" montagne/README.md || fail "the README's table of cards: $(grep '^|' montagne/README.md)"

# 5. Every command of the run block.
python3 - section.md > run.txt <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"<!-- run -->\n```sh\n(.*?)```\n", text, re.S)
assert m, "no run block"
print(m.group(1), end="")
PY
[ "$(grep -c '^plateau ' run.txt)" -ge 4 ] || fail "the run block lost its commands: $(cat run.txt)"
n=0
while read -r line; do
  n=$((n + 1))
  eval "\"\$plateau\" ${line#plateau }" > "cmd$n.txt" 2>&1 || fail "$line: $(cat "cmd$n.txt")"
done < run.txt
# validate reached every card and row; the three tests ran and passed.
grep -qE "^coverage: .*: 6 of 6 cards placed, 7 of 7 score rows scored" cmd1.txt || fail "validate's coverage: $(cat cmd1.txt)"
for t in "marmot: 2 per meadow next to it" "eagle: turns the meadows next to it face down" "ibex: the most ibexes 8" \
         "edelweiss: 2 per row and per column" "chamois: 5 per chamois alone in its row" "harmony: 3 per card row worth 4 or more"; do
  grep -qF "PASS" cmd2.txt && grep -qF "$t" cmd2.txt || fail "the page's test '$t' did not pass: $(cat cmd2.txt)"
done
if grep -q "FAIL" cmd2.txt; then fail "a test failed: $(cat cmd2.txt)"; fi
for row in meadow marmot ibex eagle edelweiss chamois harmony TOTAL; do grep -q "$row" cmd3.txt || fail "the score table lacks '$row': $(cat cmd3.txt)"; done
# --explain: every row of both seats, each at its rule's line in the variant.
grep -qF "how each row was scored:" cmd3.txt || fail "score --explain gave no explanation: $(cat cmd3.txt)"
grep -qE "^\s+\+10  games/montagne/rules.lua:[0-9]+  groups\(meadow, \{1, 3, 6, 10\}, up\): group of 20 at \(0,0\) → 10$" cmd3.txt ||
  fail "score --explain: the meadow row: $(cat cmd3.txt)"
[ "$(grep -c "^  kept ibexes = 0" cmd3.txt)" = 2 ] || fail "score --explain: the ibex count kept for each seat: $(cat cmd3.txt)"
# Rows set by Lua are named at the line that set them: the chamois in the grid function, the
# harmony bonus in finish.
chamois_line=$(grep -n '^    b.chamois = ' montagne/rules.lua | cut -d: -f1)
harmony_line=$(grep -n '^    b.harmony = ' montagne/rules.lua | cut -d: -f1)
grep -qF "= 0  set by the grid function at games/montagne/rules.lua:$chamois_line" cmd3.txt &&
  grep -qF "= 3  set by finish at games/montagne/rules.lua:$harmony_line" cmd3.txt ||
  fail "score --explain: the rows set in Lua (lines $chamois_line, $harmony_line): $(cat cmd3.txt)"

# --as-test, as the page runs it: the board as a test that passes as written, and fails when
# one of its numbers is changed.
# A row scored in Lua is explained cell by cell through scoring.note: the lone chamois of row 0.
echo '{"players": [{"name": "A", "grid": [["chamois", "meadow", "meadow"], ["chamois", "meadow", "chamois"]]}]}' > chamois.json
"$plateau" score montagne chamois.json --explain > chamois.txt 2>&1 || fail "score --explain chamois.json: $(cat chamois.txt)"
grep -qF "noted (scoring.note): (0,0) 5" chamois.txt || fail "the chamois row's cells: $(cat chamois.txt)"

# The page's small board, explained: the marmot row cell by cell.
small=$(grep -m1 "^echo '{\"players\"" "$doc") || fail "no small board on the page"
eval "$small"
small_cmd=$(grep -m1 '^plateau score montagne marmot.json --explain' "$doc") || fail "no --explain of the small board on the page"
eval "\"\$plateau\" ${small_cmd#plateau }" > small.txt 2>&1 || fail "$small_cmd: $(cat small.txt)"
grep -qF "+14 = 2 × 7  games/montagne/rules.lua:27  pairs(marmot, meadow, orthogonal, up): (0,1) 3 · (1,0) 2 · (1,2) 2" small.txt ||
  fail "the small board's explanation: $(cat small.txt)"
cmd=$(grep -m1 '^plateau score montagne .* --as-test > ' "$doc") || fail "no --as-test command on the page"
eval "\"\$plateau\" ${cmd#plateau }" 2> as_test.err || fail "$cmd: $(cat as_test.err)"
grep -qE '^  expect_score\(g, "Ann", 13, \{ .*harmony = 3' montagne/tests/two_test.lua || fail "--as-test: $(cat montagne/tests/two_test.lua)"
grep -qF -- '--      +10  games/montagne/rules.lua:' montagne/tests/two_test.lua || fail "--as-test has no explanation: $(cat montagne/tests/two_test.lua)"
"$plateau" test montagne --scenario montagne/tests/two_test.lua > as_test.txt 2>&1 || fail "the test --as-test wrote fails: $(cat as_test.txt)"
sed -i 's/expect_score(g, "Ann", 13,/expect_score(g, "Ann", 14,/' montagne/tests/two_test.lua
"$plateau" test montagne --scenario montagne/tests/two_test.lua > as_test2.txt 2>&1 && fail "a changed number still passed: $(cat as_test2.txt)"
rm montagne/tests/two_test.lua
# A player named with an escape sequence: --explain and --as-test show it escaped (no raw
# ESC byte reaches the terminal), and the test they write still names that very player.
python3 - montagne/tests/boards/two.json > evil.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
b["players"][0]["name"] = "A\u001b[31mnn"
print(json.dumps(b))
PY
"$plateau" score montagne evil.json --explain > evil_explain.txt 2>&1 || fail "score --explain on evil.json: $(cat evil_explain.txt)"
"$plateau" score montagne evil.json --as-test > montagne/tests/evil_test.lua 2> evil.err || fail "score --as-test on evil.json: $(cat evil.err)"
if grep -q $'\x1b' evil_explain.txt montagne/tests/evil_test.lua; then fail "a raw escape byte was printed"; fi
"$plateau" test montagne --scenario montagne/tests/evil_test.lua > evil_test.txt 2>&1 || fail "the --as-test test of evil.json: $(cat evil_test.txt)"
rm montagne/tests/evil_test.lua

# "Checking a test's points": a test expecting the wrong points fails as the page shows it,
# with how the row was scored, cell by cell.
python3 - "$doc" > explained.txt <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"\*\*Checking a test's points\.\*\*.*?```text\n(.*?)```\n", text, re.S)
assert m, "no failure shown under 'Checking a test's points'"
print(m.group(1), end="")
PY
rm -rf montagne3 && cp -r montagne montagne3
python3 - montagne3/tests/cards_test.lua <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
old = 'expect_line(g, "A", { meadow = 3, marmot = 14 })'
assert old in text, "the page's marmot test changed"
open(path, "w").write(text.replace(old, 'expect_line(g, "A", { meadow = 3, marmot = 12 })'))
PY
"$plateau" test montagne3 --scenarios-only > wrong.txt 2>&1 && fail "a test expecting marmot = 12 passed: $(cat wrong.txt)"
while IFS= read -r line; do
  grep -qF -- "${line//montagne\//montagne3/}" wrong.txt || fail "the page shows '$line', plateau test printed: $(cat wrong.txt)"
done < explained.txt
grep -qF "card balance" cmd4.txt || fail "simulate: $(cat cmd4.txt)"

# The page's table of refusals: each mistake made on a copy, the message as the page shows it.
# doc_message <first words of the mistake>: the message the page gives for it (before any '...').
doc_message() {
  python3 - "$doc" "$1" <<'PY'
import sys
for line in open(sys.argv[1]):
    if line.startswith("| " + sys.argv[2]):
        msg = line.split("|")[2].strip().strip("`")
        print(msg.split("...")[0].rstrip(": "))
        break
else:
    sys.exit("no row '%s' in the table of refusals" % sys.argv[2])
PY
}
fresh() { rm -rf montagne2; cp -r montagne montagne2; }
# edit <file> <old> <new>: one replacement, which must apply.
edit() {
  python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
assert old in text, "no '%s' in %s" % (old, path)
open(path, "w").write(text.replace(old, new, 1))
PY
}
# page_refusal <row of the table>: validate montagne2 exits 2 with the page's message, which
# names montagne2's files as the page names montagne's.
page_refusal() {
  local want
  want=$(doc_message "$1" | sed 's/montagne/montagne2/g')
  [ -n "$want" ] || fail "no message for '$1' on the page"
  refused "$want" validate montagne2
}

fresh   # a card in the data with no rule: the eagle's row and rule both gone
edit montagne2/rules.lua 'game.categories = { "meadow", "marmot", "ibex", "eagle", ' 'game.categories = { "meadow", "marmot", "ibex", '
edit montagne2/rules.lua '    { score = "eagle", per = 1, query = { "flip_touching", "meadow", "eagle" } },          -- meadows by an eagle: 1 each
' ''
page_refusal "a card in the data with no rule"

fresh   # the eagle's row kept, its rule forgotten
edit montagne2/rules.lua '    { score = "eagle", per = 1, query = { "flip_touching", "meadow", "eagle" } },          -- meadows by an eagle: 1 each
' ''
page_refusal 'a card in `game.categories` whose rule is missing'

fresh   # a typo in the data
edit montagne2/data/cards.json '"id": "marmot"' '"id": "marmott"'
page_refusal "a misspelt id"

# A typo two edits away in a short id still finds its card ('ixez' for 'ibex'); a name like no
# id lists the ids the data has.
fresh
edit montagne2/data/cards.json '"id": "ibex"' '"id": "ixez"'
refused "games/montagne2/rules.lua:$(grep -n '"count", "ibex"' montagne2/rules.lua | cut -d: -f1): score sheet entry #5: unknown card 'ibex' (did you mean 'ixez' (games/montagne2/data/cards.json /cards/2/id)?)" validate montagne2
fresh
edit montagne2/data/cards.json '"id": "ibex"' '"id": "goat"'
refused "unknown card 'ibex' (the known card ids: meadow, marmot, goat, eagle, edelweiss, chamois)" validate montagne2

fresh
edit montagne2/rules.lua 'score = "marmot", per = 2,' 'score = "marmot", per = 0.5,'
page_refusal '`per = 0.5`'

fresh   # 145 cards deal 6 players x 2 rounds x 10; 100 do not
edit montagne2/data/cards.json '"count": 55' '"count": 10'
page_refusal "a deck too small"
grep -qE "[0-9]+ cards" refused.txt || fail "the deck refusal does not give the counts: $(cat refused.txt)"

# A board file of tests/boards/ left behind by a rename: plateau test scores each, and says so.
fresh
sed -i '0,/"meadow"/s//"medow"/' montagne2/tests/boards/two.json
"$plateau" test montagne2 --scenarios-only > boards.txt 2>&1 && fail "a stale board file passed: $(cat boards.txt)"
grep -qF "FAIL montagne2/tests/boards/two.json: scores as plateau score scores it" boards.txt &&
  grep -qF "unknown card id 'medow'" boards.txt || fail "the stale board file: $(cat boards.txt)"

# A typo in a scenario test's board: the test fails saying which id was meant.
fresh
edit montagne2/tests/cards_test.lua 'local M, R, I, E, W, C = "meadow", "marmot",' 'local M, R, I, E, W, C = "meadow", "marmott",'
"$plateau" test montagne2 --scenarios-only > typo.txt 2>&1 && fail "a test board with a misspelt card passed: $(cat typo.txt)"
grep -qF "unknown card id 'marmott'" typo.txt && grep -qF "did you mean 'marmot' (games/montagne2/data/cards.json /cards/1/id)?" typo.txt ||
  fail "the test's misspelt card: $(cat typo.txt)"

# A rule that errs on some tables only: a Lua error behind a short-circuited `and` (on the
# fifth seat's grid). The one 2-player game validate used to play never reached it; its seeded
# games at every player count do.
fresh
edit montagne2/rules.lua '    return b, kept.ibexes' '    if seat == 5 and b.nothing.here then b.ibex = 0 end
    return b, kept.ibexes'
set +e
"$plateau" validate montagne2 > lua.txt 2>&1
rc=$?
set -e
[ "$rc" = 2 ] || fail "a rule erring on some tables: validate exit $rc, not 2: $(cat lua.txt)"
grep -qE "games/montagne2/rules.lua:[0-9]+: .*nothing" lua.txt || fail "not at the rule's line: $(cat lua.txt)"
grep -qF "validate's coverage game" lua.txt || fail "the seeded game is not named: $(cat lua.txt)"
# The command it names replays that very game: the same error, at the same line.
replay=$(grep -o '(plateau play [^)]*)' lua.txt | tr -d '()' | sed 's/^plateau //')
[ -n "$replay" ] || fail "no replay command: $(cat lua.txt)"
set +e
# shellcheck disable=SC2086  # the words of the command validate printed
"$plateau" $replay < /dev/null > replay.txt 2>&1
rc=$?
set -e
[ "$rc" != 0 ] || fail "'plateau $replay' (named by validate) did not replay the failure: $(tail -3 replay.txt)"
grep -qE "games/montagne2/rules.lua:[0-9]+: .*nothing" replay.txt || fail "the replay fails otherwise: $(tail -3 replay.txt)"
# simulate's command to reproduce a failed game names the folder it ran, not the manifest's
# id (which is the original's: montagne2 is a copy of montagne).
set +e
"$plateau" simulate montagne2 -n 3 --players 5 --bots random > sim5.txt 2>&1
set -e
grep -qF "reproduce with: plateau play montagne2 --players 5 --seed" sim5.txt || fail "simulate's reproduce command: $(cat sim5.txt)"
# validate says "valid" only once every seeded game has run: not before the failure above.
if grep -q "are valid" lua.txt; then fail "validate said valid before a seeded game failed: $(cat lua.txt)"; fi

echo "modding first variant: ok"
