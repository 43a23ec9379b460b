#!/usr/bin/env bash
# `plateau test --junit FILE` writes JUnit XML that CI systems read: one <testcase> per
# scenario test, conformance run and golden playthrough, and a <failure> whose message starts
# with the failing test's file:line; `--format json` gives the same cases to scripts. A report
# that cannot be written is refused before anything runs.
# Usage: junit_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$work"

# A passing game: every case passes, and the counts agree with the text run.
"$plateau" test ecosysteme-savane --games 3 > text.txt || fail "plateau test ecosysteme-savane: $(tail -5 text.txt)"
"$plateau" test ecosysteme-savane --games 3 --junit savane.xml > /dev/null || fail "plateau test --junit"
passed=$(sed -n 's/^\([0-9]*\) passed, 0 failed$/\1/p' text.txt)
[ -n "$passed" ] || fail "no summary line: $(tail -3 text.txt)"
python3 - savane.xml "$passed" << 'EOF' || fail "savane.xml: $(head -c 2000 savane.xml)"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
cases = root.findall("./testsuite/testcase")
assert len(cases) == int(sys.argv[2]), (len(cases), sys.argv[2])
assert root.get("tests") == sys.argv[2] and root.get("failures") == "0", root.attrib
suite = root.find("testsuite")
assert suite.get("name") == "ecosysteme-savane", suite.attrib
kinds = {c.get("classname") for c in cases}
assert "ecosysteme-savane.conformance" in kinds, kinds
assert "ecosysteme-savane.playthrough" in kinds, kinds
assert any(k.startswith("games/ecosysteme-savane/tests/") for k in kinds), kinds
assert all(c.find("failure") is None for c in cases)
assert all(float(c.get("time")) >= 0 for c in cases)
EOF

# A failing scenario test: its <failure> names the test file and line; the exit code is 1.
cp -r "$src/games/ecosysteme/template" foret
find foret -type f -exec sed -i 's/{{id}}/foret/g; s/{{name}}/Foret/g; s/{{base}}/ecosysteme/g' {} +
cat > foret/tests/broken_test.lua << 'EOF'
test("a test that fails <on purpose> & says so", function()
  expect_eq(1 + 1, 3, "arithmetic")
end)
EOF
set +e
"$plateau" test foret --games 2 --junit foret.xml > /dev/null 2>&1
rc=$?
"$plateau" test foret --games 2 --format json > foret.json 2> /dev/null
rc_json=$?
set -e
[ "$rc" -eq 1 ] && [ "$rc_json" -eq 1 ] || fail "a failing test should exit 1 (got $rc, $rc_json)"
python3 - foret.xml foret.json << 'EOF' || fail "foret.xml: $(cat foret.xml)"
import sys, json, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.get("failures") == "1", root.attrib
failed = [c for c in root.iter("testcase") if c.find("failure") is not None]
assert len(failed) == 1, [c.attrib for c in failed]
c = failed[0]
assert c.get("name") == "a test that fails <on purpose> & says so", c.attrib
assert c.get("file") == "games/foret/tests/broken_test.lua" and c.get("line") == "2", c.attrib
msg = c.find("failure").get("message")
assert msg.startswith("games/foret/tests/broken_test.lua:2: arithmetic"), msg
report = json.load(open(sys.argv[2]))
assert report["failed"] == 1 and report["passed"] == len(list(root.iter("testcase"))) - 1, report
bad = [k for k in report["cases"] if not k["passed"]]
assert bad[0]["file"] == "games/foret/tests/broken_test.lua" and bad[0]["line"] == 2, bad
assert bad[0]["message"].startswith("games/foret/tests/broken_test.lua:2: arithmetic"), bad
EOF

# A report that cannot be written: refused before any test runs, nothing written.
refused "--junit $work/no/such/dir/x.xml: cannot write there: the folder $work/no/such/dir does not exist" test foret --games 1 --junit "$work/no/such/dir/x.xml"
refused "--format: text or json" test foret --games 1 --format yaml
[ ! -e "$work/no" ] || fail "something was written"
# The same conformance failure in several games (--keep-going) is printed once, with the
# number of games and their seeds, and is one failed case. (Seed 1 is a solo game, where the
# bots try each pick and the score meets the mistake first; in seeds 2 and 3 the bots' first
# evaluate_moves does.)
sed -i 's/  solo = true,/  solo = true, majorities = { { category = "meadow", card = "meadow", points = { 5, 2 } } },/' foret/rules.lua
set +e
"$plateau" test foret --conformance-only --keep-going --games 3 --junit same.xml > same.txt 2>&1
set -e
[ "$(grep -c '^FAIL' same.txt)" -eq 2 ] || fail "identical failures are not printed once: $(cat same.txt)"
grep -qxF "FAIL foret: conformance: score" same.txt || fail "$(cat same.txt)"
grep -qF "FAIL foret: conformance: evaluate_moves (2 games, seeds 2, 3)" same.txt || fail "$(cat same.txt)"
python3 -c "
import sys, xml.etree.ElementTree as ET
r = ET.parse('same.xml').getroot()
assert r.get('failures') == '2', r.attrib
" || fail "same.xml: $(cat same.xml)"
echo "ok"
