#!/usr/bin/env bash
# How the game feels and how often a reading matters (issue 32): the report's "feel" (lead
# changes, lead for good, drama, score gap, dead turns, kingmaking, each with its interval) in
# text and JSON; tune takes them as measures and refuses one it does not know, naming those it
# does; plateau compare-readings plays the same seeds under two values of one setting and says
# how often the winner changed, refusing a pair it cannot compare. tests/data/games/tune-target:
# two players roll a die each; with lean=1 P1 always wins.
# Usage: feel_test.sh <plateau> <src>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$src"
game=tests/data/games/tune-target

# The report: every measure with its 95% interval, kingmaking in the first 2 games of 3 players.
"$plateau" simulate chenilles --players 3 -n 6 --kingmaking 2 --format json > "$work/feel.json"
python3 - "$work/feel.json" <<'PY' || fail "the report's feel: $(head -c 3000 "$work/feel.json")"
import json, sys
j = json.load(open(sys.argv[1]))
f = j["feel"]
assert f["games"] == 6 and f["sampled_by_round"] == 6, f
for key in ("lead_changes", "lead_for_good", "dead_turns"):
    lo, hi = f[key]["interval95"]
    assert lo <= f[key]["mean"] <= hi, (key, f[key])
for at in ("25%", "50%", "75%", "100%"):
    assert f["score_gap"][at]["n"] == 6, f["score_gap"]
d = f["drama"]
assert d["interval95"][0] <= d["rate"] <= d["interval95"][1] and d["margin"] == 0.2, d
k = f["kingmaking"]
assert k["of"] == 2 and 0 <= k["count"] <= 2, k
assert j["kingmaking_games"] == 2
PY
out=$("$plateau" simulate chenilles --players 3 -n 6 --kingmaking 2)
for want in "how the game feels (6 games, scores taken at the end of each round" "lead changes per game" \
            "winner leads for good from" "drama: winner came back" "score gap, leader - second" "dead turns" \
            "kingmaking                  " "of 2 sampled games"; do
  grep -qF -- "$want" <<<"$out" || fail "the text report lacks '$want': $out"
done
# Two players: a player who cannot win has no one else to hand the win to; not looked for.
"$plateau" simulate $game -n 20 --format json > "$work/two.json"
python3 -c "
import json, sys
f = json.load(open(sys.argv[1]))['feel']
assert 'kingmaking' not in f, f
# One legal move at every decision: every turn is dead, which the findings say.
assert f['dead_turns']['mean'] == 1 and f['dead_turns']['single_move'] == f['dead_turns']['decisions'] == 40, f
" "$work/two.json" || fail "two players: $(cat "$work/two.json")"
grep -qF "dead turns: 100% of a game's decisions" "$work/two.json" || fail "no dead-turns finding"

# tune: the feel measures are measures; one it does not know is refused, naming them.
refused "unknown measure 'fun'; the measures are:" tune $game --vary a=0..3 --target fun=1
refused "lead_for_good: share of the game played before the winner leads for good" tune $game --vary a=0..3 --target fun=1
refused "score_gap is read at 25, 50, 75 or 100" tune $game --vary a=0..3 --target score_gap:60=1 -n 10 --budget 2
refused "no game was searched for kingmaking" tune $game --vary a=0..3 --target kingmaking=0 -n 10 --budget 2
out=$("$plateau" tune $game --vary lean=0..1 --target 'drama<=0.5' --target 'lead_changes<=1' -n 40 --budget 6 --confirm 40)
grep -qF "drama" <<<"$out" || fail "tune on drama: $out"

# compare-readings: the same seeds under lean=0 (the dice decide) and lean=1 (P1 wins): the
# winner changes in every game P1 did not win alone.
"$plateau" compare-readings $game --set lean=0 --set lean=1 -n 200 --format json > "$work/paired.json"
"$plateau" simulate $game --set lean=0 -n 200 --format json > "$work/lean0.json"
python3 - "$work/paired.json" "$work/lean0.json" <<'PY' || fail "compare-readings: $(head -c 3000 "$work/paired.json")"
import json, sys
p = json.load(open(sys.argv[1]))
alone = json.load(open(sys.argv[2]))
w = p["winner_changed"]
assert p["games_paired"] == 200 and w["of"] == 200, p["games_paired"]
assert w["interval95"][0] < w["rate"] < w["interval95"][1], w
# P2's wins (a tie counts half to each) are games P1 did not win alone: at least that many changed.
p2 = alone["seats"][1]["win_rate"] * 200
assert w["count"] >= round(p2) and w["count"] <= 200 - (alone["seats"][0]["win_rate"] * 200 - p2), (w, p2)
# With lean=1 P1 wins 7-0: a margin of 7 in every game.
assert p["margin"]["second"]["mean"] == 7 and p["margin"]["second"]["stdev"] == 0, p["margin"]
assert p["readings"] == ["0", "1"] and p["setting"] == "lean", p["readings"]
assert len(p["reports"]) == 2 and p["reports"][0]["params"]["lean"] == 0 and p["reports"][1]["params"]["lean"] == 1
PY
out=$("$plateau" compare-readings $game --set lean=0 --set lean=1 -n 200)
grep -qE "this reading changed the winner in [0-9.]+% of games \([0-9]+ of 200; 95% interval [0-9.]+-[0-9.]+%\)" <<<"$out" ||
  fail "the paired line: $out"
grep -qF "compared with lean=0:" <<<"$out" || fail "no side-by-side table: $out"
# A setting that changes nothing on these seeds (setup fails only when a equals fail_at): no
# game changes winner, the margin changes by exactly 0.
"$plateau" compare-readings $game --set fail_at=-1 --set fail_at=20 --set b=2 -n 50 --format json > "$work/same.json"
python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))
assert p['winner_changed']['count'] == 0 and p['margin']['difference']['mean'] == 0, p
assert p['reports'][0]['params']['b'] == 2 and p['reports'][1]['params']['b'] == 2, 'the other --set holds for both'
" "$work/same.json" || fail "a setting without effect: $(head -c 2000 "$work/same.json")"

# What cannot be paired is refused, naming it.
refused "no setting is given twice (settings given: a, b)" compare-readings $game --set a=1 --set b=2
refused "several are: a, b; compare one reading at a time" compare-readings $game --set a=1 --set a=2 --set b=1 --set b=2
refused "--set a is given 3 times" compare-readings $game --set a=1 --set a=2 --set a=3
refused "both readings of lean are 0 (0.0): nothing to compare" compare-readings $game --set lean=0 --set lean=0.0
refused "lean=2: " compare-readings $game --set lean=0 --set lean=2
echo "feel and paired comparison: ok"
