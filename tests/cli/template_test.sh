#!/usr/bin/env bash
# The variant template of the Écosystème base (games/ecosysteme/template), copied outside games/
# with its {{id}}, {{name}} and {{base}} placeholders filled in as `plateau new ecosysteme <id>` does,
# must validate and pass its own scenario tests and conformance checks; and neither the base
# (abstract) nor its template may show up as a game of their own.
# Usage: template_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cp -r "$src/games/ecosysteme/template" "$work/mymod"
# ({{cards}}, the README's table of cards, plateau new fills from the card data: left out here.)
find "$work/mymod" -type f -exec sed -i 's/{{id}}/mymod/g; s/{{name}}/My Mod/g; s/{{base}}/ecosysteme/g; /^{{cards}}$/d' {} +
if grep -rq '{{' "$work/mymod"; then fail "a placeholder is left after substitution"; fi
(cd "$work" && "$plateau" validate "$work/mymod") || fail "the filled-in template does not validate"
(cd "$work" && "$plateau" test "$work/mymod" --games 20) || fail "the filled-in template's tests fail"
listed=$(cd "$work" && "$plateau" list)
echo "$listed" | grep -q '^ecosysteme .*abstract base' || fail "plateau list does not mark the base as abstract"
if echo "$listed" | grep -q 'template\|{{'; then fail "plateau list shows the template"; fi

# plateau new does the same, refuses to overwrite, and refuses a bad id.
(cd "$work" && "$plateau" new ecosysteme jungle --dir "$work/jungle" --name 'Jungle "J"' >/dev/null) || fail "plateau new"
grep -q '"Jungle \\"J\\""' "$work/jungle/game.json" || fail "the name is not escaped in game.json: $(grep name "$work/jungle/game.json")"
(cd "$work" && "$plateau" test "$work/jungle" --games 5 >/dev/null) || fail "the new variant's tests fail"
set +e
out=$(cd "$work" && "$plateau" new ecosysteme jungle --dir "$work/jungle" 2>&1); rc=$?
[ "$rc" = 2 ] && echo "$out" | grep -q "already exists" || fail "plateau new over an existing folder: $out"
out=$(cd "$work" && "$plateau" new ecosysteme "Bad Id" --dir "$work/bad" 2>&1); rc=$?
[ "$rc" = 2 ] && [ ! -e "$work/bad" ] || fail "plateau new with a bad id: $out"
# Without --dir the variant goes where the command runs, and every "next:" hint works as typed
# from there; an unknown game names each place it was looked for.
(cd "$work" && "$plateau" new ecosysteme foret > "$work/new.txt") || fail "plateau new ecosysteme foret: $(cat "$work/new.txt")"
[ -f "$work/foret/game.json" ] || fail "plateau new did not write ./foret: $(cat "$work/new.txt")"
[ ! -e "$src/games/foret" ] || fail "plateau new wrote into the source tree"
grep -q '^  plateau validate foret$' "$work/new.txt" || fail "the hints do not name the game by its id: $(cat "$work/new.txt")"
(cd "$work" && "$plateau" validate foret > /dev/null) || fail "'plateau validate foret' from where it was made"
(cd "$work" && "$plateau" test foret --games 3 > /dev/null) || fail "'plateau test foret' from where it was made"
# A games/ folder where the command runs comes first: the hints then give the path.
mkdir -p "$work/coll/games" && cp -r "$work/foret" "$work/coll/games/foret"
(cd "$work/coll" && "$plateau" new ecosysteme foret > "$work/new2.txt") || fail "plateau new beside games/foret"
grep -q '^  plateau validate ./foret$' "$work/new2.txt" || fail "the hints should name ./foret: $(cat "$work/new2.txt")"
out=$(cd "$work" && "$plateau" validate nope 2>&1); rc=$?   # (set +e since the bad id above)
[ "$rc" = 2 ] || fail "an unknown game should exit 2, got $rc: $out"
echo "$out" | grep -qF "unknown game 'nope': no game.json in ./games/nope, ./nope nor $src/games/nope" || fail "$out"
# A card type without a scoring rule is named with its file and place; two are named at once.
sed -i 's/"cards": \[/"cards": [\n    {"id": "vine", "count": 20, "kind": "plant", "name": {"en": "Vine"}},\n    {"id": "fern", "count": 20, "kind": "plant", "name": {"en": "Fern"}},/' "$work/jungle/data/cards.json"
out=$(cd "$work" && "$plateau" validate "$work/jungle" 2>&1); rc=$?
set -e
[ "$rc" = 2 ] || fail "a card without a scoring rule should be refused at load (exit 2), got $rc: $out"
echo "$out" | grep -qF "games/jungle/data/cards.json: at /cards/0/id: card 'vine' has no scoring rule" || fail "$out"
echo "$out" | grep -qF "also at /cards/1/id: card 'fern' has no scoring rule" || fail "the second card without a rule is not named: $out"
# Counts that cannot fill every hand are named with the card file.
cp -r "$src/games/ecosysteme/template" "$work/small"
find "$work/small" -type f -exec sed -i 's/{{id}}/small/g; s/{{name}}/Small/g; s/{{base}}/ecosysteme/g' {} +
sed -i 's/"count": 130/"count": 50/' "$work/small/data/cards.json"
set +e
out=$(cd "$work" && "$plateau" simulate "$work/small" -n 1 --players 4 2>&1); rc=$?
set -e
[ "$rc" = 2 ] || fail "a deck too small for the hands should exit 2, got $rc: $out"
echo "$out" | grep -qF "games/small/data/cards.json: the deck has 50 cards" || fail "$out"
echo "3 passed, 0 failed"
