#!/usr/bin/env bash
# docs/modding.md followed as a modder would, in a scratch folder outside the checkout with the
# installed plateau: `plateau new ecosysteme my-variant`, the bee card of section 3 added to
# the data, the refusal the doc shows when its rule is forgotten, the rule of section 5, the
# scenario test of section 7 (taken from the doc itself), plateau test in its three forms, the
# score table of section 6 on a hand-made board, a misspelt card named at the modder's line
# (then the base's), hot reload's neighbour validate, and the balance check of section 9.
# Usage: modding_walkthrough_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
doc="$src/docs/modding.md"
cd "$work"

# 1. Start from the template: ./my-variant, valid at once.
"$plateau" new ecosysteme my-variant > new.txt || fail "plateau new: $(cat new.txt)"
[ -f my-variant/game.json ] || fail "plateau new did not write ./my-variant"
"$plateau" validate my-variant > /dev/null || fail "the fresh variant does not validate"

# 4. The page's copy of the template's rules.lua is the file the modder got, and its tree
# lists every file plateau new wrote.
python3 - "$doc" my-variant <<'PY' || fail "docs/modding.md section 4 or 1 no longer matches the template"
import os, sys
doc, folder = open(sys.argv[1]).read(), sys.argv[2]
start = doc.index("template's `rules.lua`, whole")
block = doc[doc.index("```lua\n", start) + 7:]
block = block[:block.index("```\n")]
got = open(os.path.join(folder, "rules.lua")).read().replace("my-variant", "My Variant")
if block != got:
    import difflib
    sys.exit("".join(difflib.unified_diff(block.splitlines(True), got.splitlines(True), "doc", "template")))
for root, _, files in os.walk(folder):
    for f in files:
        rel = os.path.relpath(os.path.join(root, f), folder)
        if "\n  " + rel + " " not in doc:
            sys.exit("section 1's tree does not list " + rel)
PY

# 3. The bee card (and the meadows lowered so the deck stays 130).
python3 - my-variant/data/cards.json <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["cards"][0]["count"] = 100
d["cards"].append({"id": "bee", "count": 30, "kind": "animal", "name": {"en": "Bee", "fr": "Abeille"},
                   "doc": "3 per orthogonally adjacent meadow"})
json.dump(d, open(p, "w"), indent=2)
PY
# 5. Forgetting step 2 is refused as the doc shows, naming the card and its place.
set +e
out=$("$plateau" validate my-variant 2>&1); rc=$?
set -e
[ "$rc" = 2 ] || fail "a card without a rule should be refused with exit 2, got $rc: $out"
grep -qF "games/my-variant/data/cards.json: at /cards/1/id: card 'bee' has no scoring rule" <<<"$out" || fail "$out"
grep -qF "card 'bee' has no scoring rule" "$doc" || fail "docs/modding.md no longer shows this message"
# Step 2: the category and the rule (the template's commented example line, uncommented).
sed -i 's/^game.categories = { "meadow" }/game.categories = { "meadow", "bee" }/' my-variant/rules.lua
sed -i 's/^    -- { score = "bee", per = 3,/    { score = "bee", per = 3,/' my-variant/rules.lua
grep -q '^    { score = "bee", per = 3, query = { "pairs", "bee", "meadow" } },' my-variant/rules.lua ||
  fail "the template no longer has the doc's bee line to uncomment"
"$plateau" validate my-variant > /dev/null || fail "the variant with its bee does not validate"

# 7. The doc's scenario test, copied from the doc.
awk '/^## 7\. Scenario tests/ {s = 1} s && /^```lua$/ {on = 1; next} on && /^```$/ {exit} on {print}' "$doc" > my-variant/tests/bee_test.lua
grep -q 'test("bee: 3 per meadow next to it"' my-variant/tests/bee_test.lua || fail "no scenario test found in section 7 of the doc"
"$plateau" test my-variant --games 10 > test.txt || fail "plateau test my-variant: $(cat test.txt)"
grep -qF "PASS my-variant/tests/bee_test.lua: bee: 3 per meadow next to it" test.txt ||
  grep -qF "bee: 3 per meadow next to it" test.txt || fail "the doc's test did not run: $(cat test.txt)"
"$plateau" test my-variant --scenarios-only > /dev/null || fail "--scenarios-only"
"$plateau" test my-variant --scenario my-variant/tests/bee_test.lua > /dev/null || fail "--scenario FILE"

# 6. The score table, card by card: the template's board first (meadows only), then with the
# doc's bees put in (row 0 is the top row).
[ -f my-variant/tests/boards/two.json ] || fail "the template does not ship tests/boards/two.json, which section 6 uses"
"$plateau" score my-variant my-variant/tests/boards/two.json > score0.txt || fail "plateau score on the template's board: $(cat score0.txt)"
python3 - > my-variant/tests/boards/two.json <<'PY'
import json
M, B = "meadow", "bee"
ann = [[M, B, M, B, M], [B, M, B, M, B], [M, B, M, B, M], [M, M, M, M, M]]
bob = [[M] * 5, [M] * 5, [B] * 5, [M] * 5]
print(json.dumps({"game": "my-variant", "players": [{"name": "Ann", "grid": ann}, {"name": "Bob", "grid": bob}]}))
PY
"$plateau" score my-variant my-variant/tests/boards/two.json > score.txt || fail "plateau score: $(cat score.txt)"
for row in "Ann" "meadow" "bee" "TOTAL"; do grep -q "$row" score.txt || fail "the score table lacks '$row': $(cat score.txt)"; done
# Bob: the bee row (5 bees, each between two meadow rows: 2 meadows each) = 30 points.
"$plateau" score my-variant my-variant/tests/boards/two.json --format json | python3 -c '
import json, sys
j = json.load(sys.stdin)
bob = j["players"][1]
assert bob["breakdown"]["bee"] == 30, bob
assert bob["total"] == sum(bob["breakdown"].values()), bob' || fail "Bob's bees should score 30"
# The table the doc shows is the one printed.
python3 - "$doc" score.txt <<'PY' || fail "section 6's table differs from plateau score's: $(cat score.txt)"
import sys
doc, out = open(sys.argv[1]).read(), open(sys.argv[2]).read()
table = doc.split("plateau score my-variant my-variant/tests/boards/two.json\n```\n```\n", 1)[1].split("```", 1)[0]
assert table.strip() == out.strip(), (table, out)
PY

# A misspelt card in the sheet: named at the modder's own line, then at the base's.
cp -r my-variant typo
sed -i 's/"id": "my-variant"/"id": "typo"/' typo/game.json
sed -i 's/{ score = "bee", per = 3, query = { "pairs", "bee", "meadow" } }/{ score = "bee", per = 3, query = { "pairs", "be", "meadow" } }/' typo/rules.lua
line=$(grep -n '"pairs", "be", "meadow"' typo/rules.lua | cut -d: -f1)
set +e
out=$("$plateau" validate typo 2>&1); rc=$?
set -e
[ "$rc" = 2 ] || fail "a misspelt card should be refused with exit 2, got $rc: $out"
grep -qE "^plateau: games/typo/rules.lua:[0-9]+: .*unknown card 'be' \(did you mean 'bee' \(games/typo/data/cards.json /cards/1/id\)" <<<"$out" ||
  fail "not at the modder's line, or no suggestion: $out"
grep -qF "(found by games/ecosysteme/ecosysteme/" <<<"$out" || fail "the base's line is not named: $out"

# 9. A balance check: every card has its row in the report.
"$plateau" simulate my-variant -n 40 --bots greedy --threads 2 > sim.txt || fail "plateau simulate: $(cat sim.txt)"
grep -qF "card balance" sim.txt && grep -qE "^  ?bee|^bee" sim.txt || fail "the report has no bee row: $(cat sim.txt)"
echo "modding walkthrough: ok"
