#!/usr/bin/env bash
# plateau tune: on tests/data/games/tune-target, whose measures are known functions of its
# knobs (count 'total' = a + b + coin.bonus, count 'gap' = a - b, plus dice noise), the search
# finds the known optimum a=8, b=6 of total=16, gap=2 within one step from three starting
# points; targets that cannot be met are reported as such (never met, and a pair that pulls
# against each other); --write makes an overlay that --set-file applies to simulate; bad knobs,
# ranges and measures are refused (exit 2) before any game runs. Usage: tune_test.sh <plateau> <src>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$src"
game=tests/data/games/tune-target

# The known optimum, from three starting points (the search starts at the game's values).
for start in "a=0 b=0" "a=20 b=20" "a=3 b=17"; do
  fixed=()
  for s in $start; do fixed+=(--set "$s"); done
  "$plateau" tune $game "${fixed[@]}" --vary a=0..20 --vary b=0..20 --target count:total=16 --target count:gap=2 \
    -n 100 --budget 40 --threads 2 --format json --write "$work/best.json" > "$work/tune.json" 2> "$work/tune.err" ||
    fail "tune from $start: $(cat "$work/tune.err")"
  python3 - "$work/tune.json" "$start" <<'PY' || fail "tune from $start missed the optimum"
import json, sys
j = json.load(open(sys.argv[1]))
best = j["best"]
assert abs(best["a"] - 8) <= 1 and abs(best["b"] - 6) <= 1, (sys.argv[2], best)
assert isinstance(best["a"], int) and isinstance(best["b"], int), best
assert j["verdict"]["all_met"], j["verdict"]
assert j["confirmation"]["games"] == 400 and j["confirmation"]["seed"] != j["seed"], j["confirmation"]
# Every candidate of the search played the same seeds (common random numbers).
assert {c["seed"] for c in j["candidates"] if c["phase"] in ("start", "global", "local")} == {j["seed"]}
assert {s["knob"] for s in j["sensitivity"]} == {"a", "b"}
PY
done

# The overlay it wrote applies with --set-file: the same values as --set.
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert set(j['values']) == {'a','b'} and j['game'] == 'tune-target', j" \
  "$work/best.json" || fail "overlay: $(cat "$work/best.json")"
a=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['values']['a'])" "$work/best.json")
b=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['values']['b'])" "$work/best.json")
one=$("$plateau" simulate $game -n 50 --set-file "$work/best.json" --format json | python3 -c "import json,sys; j=json.load(sys.stdin); print(j['counts']['total']['mean'], j['params'])")
two=$("$plateau" simulate $game -n 50 --set a="$a" --set b="$b" --format json | python3 -c "import json,sys; j=json.load(sys.stdin); print(j['counts']['total']['mean'], j['params'])")
[ "$one" = "$two" ] || fail "--set-file differs from --set: $one / $two"
# The command line's --set wins over the overlay.
three=$("$plateau" simulate $game -n 50 --set-file "$work/best.json" --set a=0 --format json | python3 -c "import json,sys; print(json.load(sys.stdin)['params']['a'])")
[ "$three" = "0" ] || fail "--set after --set-file should win: a=$three"

# A data knob (cards.cards.coin.bonus) and a text run: candidates printed as they finish.
out=$("$plateau" tune $game --set a=5 --set b=5 --vary cards.cards.coin.bonus=0..10 --target count:total=14..15 \
  -n 60 --budget 12 --threads 2)
grep -qE "^#1 +start +coin.bonus=2 " <<<"$out" || fail "text: the start candidate: $out"
grep -qF "all 1 targets met on the confirmation seeds" <<<"$out" || fail "text: verdict: $out"
grep -qE "^best: cards.cards.coin.bonus=(4|5)$" <<<"$out" || fail "text: best bonus: $out"

# Infeasible: total >= 60 cannot be reached with a, b <= 20 and bonus 2; gap >= 5 and gap <= -5
# are each reachable but never together.
out=$("$plateau" tune $game --vary a=0..20 --vary b=0..20 --target 'count:total>=60' -n 40 --budget 15 --threads 2)
grep -qF "1 of 1 targets not met: the targets cannot all be met within these ranges" <<<"$out" || fail "infeasible: $out"
grep -qE "count:total>=60: no candidate met it; closest 4[0-9.]+ at a=20  b=20" <<<"$out" || fail "closest: $out"
out=$("$plateau" tune $game --vary a=0..20 --vary b=0..20 --target 'count:gap>=5' --target 'count:gap<=-5' -n 40 --budget 20 --threads 2)
grep -qF "count:gap>=5 and count:gap<=-5 pull against each other" <<<"$out" || fail "conflict: $out"

# Bad input, refused before any game runs (exit 2), saying what exists.
refused "has no parameter 'nope' (numeric parameters: a, b, fail_at, lean" tune $game --vary nope=0..3 --target rounds=1
refused "no 'nope' in cards.cards.coin (keys: bonus, count" tune $game --vary cards.cards.coin.nope=0..3 --target rounds=1
refused "the range is empty (5 > 2)" tune $game --vary a=5..2 --target rounds=1
refused "holds integers; give whole numbers" tune $game --vary a=0..2.5 --target rounds=1
refused "the range's upper end is refused" tune $game --vary a=0..30 --target rounds=1
refused "expected at least 0, got -1" tune $game --vary cards.cards.coin.count=-1..3 --target rounds=1
refused "unknown measure 'fun'; the measures are:" tune $game --vary a=0..3 --target fun=1
refused "count:total<=3..4: expected <measure><op><value>" tune $game --vary a=0..3 --target 'count:total<=3..4'
refused "--budget soon: give a number of candidates (40) or a time (90s, 5m)" tune $game --vary a=0..3 --target rounds=1 --budget soon
refused "no count 'totl' in" tune $game --vary a=0..3 --target count:totl=1 -n 5
grep -qF "(counts: gap, total)" "$work/refused.txt" || fail "unknown count should list the counts: $(cat "$work/refused.txt")"
refused "no seat or bot 'P9' (seats: P1, P2; bots: random)" tune $game --vary a=0..3 --target win_rate:P9=0.5 -n 5
echo '{"game": "chenilles", "values": {"a": 1}}' > "$work/other.json"
refused "the overlay is for 'chenilles', not" simulate $game --set-file "$work/other.json"
echo '{"values": {"a": [1]}}' > "$work/bad.json"
refused "bad.json: at /values/a: expected" simulate $game --set-file "$work/bad.json"
refused "plateau test applies data values only; 'a' is a parameter" test $game --set-file "$work/best.json"
# A setting where the rules fail is a lost candidate, not the end of the search: listed at the end.
out=$("$plateau" tune $game --set fail_at=10 --vary a=0..20 --vary b=0..20 --target count:total=16 --target count:gap=2 \
  -n 60 --budget 40 --threads 2)
grep -qE "^#[0-9]+ +global +a=10 b=10  \| failed: games/tune-target/rules.lua:[0-9]+: a = 10 is refused on purpose" <<<"$out" ||
  fail "the failed candidate's line: $out"
grep -qE "^[0-9]+ settings? failed, the first at a=10" <<<"$out" || fail "the failures in the verdict: $out"
grep -qE "^best: a=(7|8|9)  b=(5|6|7)$" <<<"$out" || fail "the search should go on past failures: $out"

# --shards: each candidate's games as slices run by --runner and merged; the search is the same
# as in one process (same candidates, measures and best), and a runner that fails says so.
common=(tune $game --vary a=0..20 --vary b=0..20 --target count:total=16 --target count:gap=2 -n 100 --budget 20 --format json)
"$plateau" "${common[@]}" > "$work/here.json"
"$plateau" "${common[@]}" --shards 3 --runner 'env PLATEAU_SLICE={k}/{n} {cmd}' > "$work/sliced.json"
python3 - "$work/here.json" "$work/sliced.json" <<'PY' || fail "tune --shards differs from tune"
import json, sys
def strip(j):
    for c in j["candidates"]: c.pop("seconds", None)
    j["confirmation"].pop("seconds", None)
    j["verdict"].pop("seconds", None)
    return j
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
assert a == b, (a["best"], b["best"])
PY
set +e
out=$("$plateau" tune $game --vary a=0..20 --target count:total=16 -n 20 --budget 3 --shards 2 --runner 'sh -c "echo no >&2; exit 1" {cmd}' 2>&1); rc=$?
set -e
[ "$rc" = 1 ] || fail "a runner that always fails should end with exit 1, got $rc: $out"
grep -qF "failed: shard 1/2: the runner's command exited 1: no" <<<"$out" || fail "the runner's failure: $out"
refused "the command must contain {cmd}" tune $game --vary a=0..3 --target rounds=1 --shards 2 --runner 'ssh host'
refused "--runner runs the slices of --shards N" tune $game --vary a=0..3 --target rounds=1 --runner 'x {cmd}' 

# An ending no game of the first candidate had is a warning (it may come up at other settings).
"$plateau" tune $game --vary a=0..3 --target 'ending:x>=0.1' -n 5 --budget 3 > /dev/null 2> "$work/warn.txt" || true
grep -qF "no game of the first candidate ended 'x' (endings seen: rolled)" "$work/warn.txt" || fail "ending warning: $(cat "$work/warn.txt")"
echo "tune: ok"
