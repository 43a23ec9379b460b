#!/usr/bin/env bash
# The designer's report from the command line: simulate prints the report and its JSON form,
# --set overrides a data value (and a bad one is refused with the schema's error, exit 2),
# sweep runs the report once per value and writes CSV, --max-rounds is accepted, an override the
# rules refuse at setup ends the run with their message, the rules' own stops are findings,
# --compare sets a saved report against a new run, and --rotate-seats deals the seats in turn.
# Usage: report_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$src"

out=$("$plateau" simulate ecosysteme-savane -n 30 --players 3 --bots greedy,random 2>&1)
for want in "30 games (0 failed, 0 stopped)" "win rate per seat" "length:" "card balance" "pick rate when offered" "findings:"; do
  grep -qF "$want" <<<"$out" || fail "simulate text lacks '$want': $out"
done

json=$("$plateau" simulate ecosysteme-savane -n 20 --players 2 --format json)
for want in '"games_per_second"' '"bots"' '"endings"' '"cards"' '"pick_rate"' '"findings"'; do
  grep -qF "$want" <<<"$json" || fail "simulate json lacks $want"
done

# --compare: a saved report against a new run. The same run changes nothing; without gazelles
# the gazelle card's measures change, and --fail-on-change makes that an exit 1.
"$plateau" simulate ecosysteme-savane -n 40 --players 2 --format json > "$work/before.json"
out=$("$plateau" simulate ecosysteme-savane -n 40 --players 2 --compare "$work/before.json" --fail-on-change) ||
  fail "the same run should compare equal: $out"
grep -qF "compared with $work/before.json:" <<<"$out" && grep -qE "^  0 of [0-9]+ measures changed" <<<"$out" ||
  fail "compare text: $out"
set +e
out=$("$plateau" simulate ecosysteme-savane -n 40 --players 2 --compare "$work/before.json" --fail-on-change \
        --set cards.cards.gazelle.count=0 2>&1); rc=$?
set -e
[ "$rc" = 1 ] || fail "--fail-on-change should exit 1 when measures changed, got $rc: $out"
grep -qF "note: --set: [] before, [\"cards.cards.gazelle.count=0\"] now" <<<"$out" || fail "the override is not named: $out"
grep -qE "category gazelle \(per player\) .*changed" <<<"$out" || fail "the gazelles' points should have changed: $out"
json=$("$plateau" simulate ecosysteme-savane -n 10 --players 2 --format json --compare "$work/before.json")
grep -qF '"compare": {' <<<"$json" && grep -qF '"baseline": "'"$work/before.json"'"' <<<"$json" || fail "compare JSON: $json"
echo '{"not": "a report"}' > "$work/other.json"
refused "is not a report written by" simulate ecosysteme-savane -n 5 --compare "$work/other.json"
refused "--fail-on-change needs --compare" simulate ecosysteme-savane -n 5 --fail-on-change
refused "is a report of ecosysteme-savane, not of chenilles" simulate chenilles -n 5 --compare "$work/before.json"

# --rotate-seats: every bot plays every seat, and the report says so.
out=$("$plateau" simulate ecosysteme-savane -n 6 --players 3 --bots greedy,random --threads 1 --rotate-seats)
grep -qF "bots greedy,random (rotating seats)" <<<"$out" && grep -qF "P1 (rotating)" <<<"$out" &&
  grep -qF "(seats rotate every game)" <<<"$out" || fail "rotating seats are not reported: $out"

# A data override changes the game: without gazelles nobody scores gazelle points.
json=$("$plateau" simulate ecosysteme-savane -n 20 --players 2 --format json --set cards.cards.gazelle.count=0)
grep -qF '"cards.cards.gazelle.count=0"' <<<"$json" || fail "the override is not recorded in the JSON"
if grep -A3 '"gazelle": {' <<<"$json" | grep -q '"mean_points": [1-9]'; then fail "gazelles still score with count 0"; fi

set +e
err=$("$plateau" simulate ecosysteme-savane -n 5 --set cards.cards.gazelle.count=-1 2>&1); rc=$?
set -e
[ "$rc" = 2 ] || fail "a bad override should exit 2, got $rc: $err"
grep -qF "games/ecosysteme-savane/data/cards.json: at /cards/3/count" <<<"$err" || fail "no schema error: $err"
set +e
err=$("$plateau" simulate ecosysteme-savane -n 5 --set cards.cards.gazele.count=1 2>&1); rc=$?
set -e
[ "$rc" = 2 ] && grep -qF "no element with id 'gazele'" <<<"$err" || fail "a misspelt path should be named: $err"

# An override the schema accepts but the rules refuse when they set up a game ends the run with
# the rules' message, before any game, instead of a report of zeros; sweep names the value.
set +e
err=$("$plateau" simulate chenilles -n 5 --threads 1 --set chenilles.forest.empty_handed.roll=2 2>&1); rc=$?
set -e
[ "$rc" != 0 ] || fail "an override the rules refuse should fail the run: $err"
grep -qF "data/chenilles.json: forest.one_of_each: a second lot for roll 2" <<<"$err" || fail "the rules' message is missing: $err"
if grep -qF "games/s" <<<"$err"; then fail "a report was printed for a run that could not set up a game: $err"; fi
set +e
err=$("$plateau" sweep chenilles -n 4 --threads 1 --set chenilles.forest.empty_handed.roll=1,2 2>&1); rc=$?
set -e
[ "$rc" != 0 ] && grep -qF "chenilles.forest.empty_handed.roll=2: data/chenilles.json: forest.one_of_each" <<<"$err" ||
  fail "sweep should name the value the rules refused: $err"

# Games the rules stop at their own round limit (no event days, 20 rounds at most) are a finding.
plain=()
for k in e1 e3 e5 e7; do plain+=(--set "chenilles.time_board.spaces.$k.kind=plain"); done
out=$("$plateau" simulate chenilles -n 6 --threads 1 --players 2 --set max_rounds=20 "${plain[@]}")
grep -qF "6 games (0 failed, 5 stopped)" <<<"$out" || fail "the rules' stops are not counted: $out"
grep -qF "5 of 6 games reached the rules' own round limit before any of their endings" <<<"$out" ||
  fail "the rules' stops are not a finding: $out"

out=$("$plateau" sweep ecosysteme-savane -n 10 --players 2 --set cards.cards.gazelle.count=10..20:5 --csv "$work/sweep.csv" 2>/dev/null)
grep -qF "sweep of cards.cards.gazelle.count over 3 values" <<<"$out" || fail "sweep header: $out"
[ "$(wc -l < "$work/sweep.csv")" = 4 ] || fail "the CSV should have a header and 3 rows: $(cat "$work/sweep.csv")"
head -1 "$work/sweep.csv" | grep -qF "cards.cards.gazelle.count,games,games/s,rounds" || fail "CSV header: $(head -1 "$work/sweep.csv")"
csv=$("$plateau" sweep ecosysteme-savane -n 5 --players 2 --set hand_size=10,11 --format csv)
[ "$(wc -l <<<"$csv")" = 3 ] || fail "a parameter sweep as CSV: $csv"
set +e
err=$("$plateau" sweep ecosysteme-savane -n 5 --set hand_size=11 2>&1); rc=$?
set -e
[ "$rc" = 2 ] && grep -qF "give the value to sweep" <<<"$err" || fail "a sweep without a range: $err"

"$plateau" simulate ecosysteme-savane -n 3 --max-rounds 100 >/dev/null || fail "--max-rounds"

# --profile adds the time in each of the rules' calls, text and JSON; without it, none.
out=$("$plateau" simulate chenilles -n 4 --players 2 --bots heuristic --profile)
for want in "profile: time in the rules' calls" "evaluate" "legal_moves" "moves.end"; do
  grep -qF "$want" <<<"$out" || fail "simulate --profile lacks '$want': $out"
done
json=$("$plateau" simulate chenilles -n 4 --players 2 --bots heuristic --profile --format json)
grep -qF '"us_per_call"' <<<"$json" || fail "simulate --profile --format json has no profile"
if "$plateau" simulate chenilles -n 4 --players 2 | grep -qF "profile:"; then fail "a profile without --profile"; fi

# One thread or one per core (the default): the same report, but for the time it took.
untimed() { grep -v '"games_per_second"\|"seconds"'; }
one=$("$plateau" simulate chenilles -n 21 --players 3 --bots heuristic,random --format json --threads 1 | untimed)
all=$("$plateau" simulate chenilles -n 21 --players 3 --bots heuristic,random --format json | untimed)
three=$("$plateau" simulate chenilles -n 21 --players 3 --bots heuristic,random --format json --threads 3 | untimed)
[ "$one" = "$all" ] && [ "$one" = "$three" ] || fail "the report depends on the number of threads"
# The per-player table gives one player's mean per game: Chenilles' 'held: dromedary' stays
# within the species cap of 5 (a sum over the seats would not).
"$plateau" simulate chenilles -n 20 --players 4 --bots random > "$work/held.txt"
held=$(awk '/^held:/ {h = 1; next} h && $1 == "dromedary" {print $2; exit}' "$work/held.txt")
[ -n "$held" ] && awk -v h="$held" 'BEGIN {exit !(h <= 5)}' || fail "held: dromedary $held is not one player's mean: $(cat "$work/held.txt")"
grep -q "^per player (one player, one game)  mean" "$work/held.txt" || fail "the per-player header: $(cat "$work/held.txt")"
# A drafted card type that no hand ever held (a count of 0) is a finding.
cp -r "$src/games/ecosysteme/template" "$work/zero"
find "$work/zero" -type f -exec sed -i 's/{{id}}/zero/g; s/{{name}}/Zero/g; s/{{base}}/ecosysteme/g' {} +
sed -i 's/"cards": \[/"cards": [\n    {"id": "bee", "count": 0, "kind": "animal"},/' "$work/zero/data/cards.json"
sed -i 's/game.categories = { "meadow" }/game.categories = { "meadow", "bee" }/' "$work/zero/rules.lua"
out=$("$plateau" simulate "$work/zero" -n 10 --players 3)
grep -qF "card 'bee' was never offered in a hand" <<<"$out" || fail "no finding for a card never offered: $out"
# --compare always shows the rows of the cards an edit touched, changed or not.
"$plateau" simulate ecosysteme-savane -n 6 --players 3 --format json > "$work/before.json"
out=$("$plateau" simulate ecosysteme-savane -n 6 --players 3 --set cards.cards.gazelle.count=15 --compare "$work/before.json")
grep -q "^  cards the edit touched:" <<<"$out" || fail "no touched cards in the comparison: $out"
grep -qE "^  card gazelle pick rate " <<<"$out" || fail "the touched gazelle's pick rate is not shown: $out"
if grep -qE "^  card lion pick rate " <<<"$out"; then
  grep -q "card lion pick rate .*changed" <<<"$out" || fail "an untouched, unchanged card is shown: $out"
fi
echo "report CLI ok"
