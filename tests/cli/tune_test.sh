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

# The same --seed gives the same result; another --seed gives the same verdict and optimum on this
# game, whose optimum is clear (a=8, b=6).
clear=(tune $game --vary a=0..20 --vary b=0..20 --target count:total=16 --target count:gap=2 -n 100 --budget 40 --format json)
"$plateau" "${clear[@]}" --seed 1 > "$work/seed1.json"
"$plateau" "${clear[@]}" --seed 1 > "$work/seed1-again.json"
"$plateau" "${clear[@]}" --seed 5000 > "$work/seed5000.json"
python3 - "$work/seed1.json" "$work/seed1-again.json" "$work/seed5000.json" <<'PY' || fail "tune is not the same on the same seed, or its verdict changed with the seed"
import json, sys
def strip(j):
    for c in j["candidates"]: c.pop("seconds", None)
    for c in j["verdict"]["confirmed"]: c.pop("seconds", None)
    j["confirmation"].pop("seconds", None)
    j["verdict"].pop("seconds", None)
    return j
one, again, other = (strip(json.load(open(p))) for p in sys.argv[1:4])
assert one == again, "same seed, different result"
assert one["seed"] != other["seed"]
assert one["verdict"]["status"] in ("met", "met_within_noise"), one["verdict"]["status"]
assert other["verdict"]["status"] in ("met", "met_within_noise"), other["verdict"]["status"]
for j in (one, other):
    assert abs(j["best"]["a"] - 8) <= 1 and abs(j["best"]["b"] - 6) <= 1, j["best"]
    # Each knob's effect carries its standard error; a knob that moves a measure by one per step
    # is not within noise (total and gap move by 1 per step of a or b).
    for s in j["sensitivity"]:
        for t in ("count:total=16", "count:gap=2"):
            assert s["se"][t] > 0 and abs(abs(s["change"][t]) - 1) < 0.3, s
            assert s["within_noise"][t] is False, s
PY

# Tied optima: count:total in 15..17 is met by every a + b from 13 to 15. Every search candidate
# that met it (on its games) is re-played on the confirmation seeds, and the verdict comes from
# those runs: the best is the confirmed run closest to the target.
"$plateau" tune $game --vary a=0..20 --vary b=0..20 --target count:total=15..17 -n 60 --budget 30 --format json > "$work/tied.json"
python3 - "$work/tied.json" <<'PY' || fail "tied optima: $(head -c 3000 "$work/tied.json")"
import json, sys
j = json.load(open(sys.argv[1]))
v = j["verdict"]
search = [c for c in j["candidates"] if c["phase"] in ("start", "global", "local")]
met = {tuple(sorted(c["values"].items())) for c in search if all(m["verdict"] != "missed" for m in c["measures"])}
assert len(met) >= 2, ("the test wants several tied optima", met)
confirmed = [tuple(sorted(c["values"].items())) for c in v["confirmed"]]
assert set(confirmed) == met and len(confirmed) == len(met), (confirmed, met)
assert all(c["seed"] == j["seed"] + 1000003 and c["games"] == 240 for c in v["confirmed"]), v["confirmed"]
assert v["search_met"] == len(met)
best = min((c for c in v["confirmed"]), key=lambda c: c["distance"])
assert j["best"] == best["values"], (j["best"], best)
assert v["status"] in ("met", "met_within_noise") and v["all_met"], v["status"]
assert v["confirmed_met"] >= 1
PY
out=$("$plateau" tune $game --vary a=0..20 --vary b=0..20 --target count:total=15..17 -n 60 --budget 30)
grep -qE "^confirmed [0-9]+ settings on the confirmation seeds: every one of the [0-9]+ that met the targets" <<<"$out" ||
  fail "tied optima, text: $out"
if grep -qF "cannot" <<<"$out"; then fail "tied optima: the verdict says 'cannot': $out"; fi

# The confirmation misses: ending 'rare' comes up in a share 'rare' <= 0.3 of the games, so a
# target of >= 0.6 is met by no setting, but six games can show it by luck. With some seeds a
# search candidate meets it on its games (the log says so) and the confirmation (200 games) does
# not: the verdict is "not confirmed", never "cannot be met". With others no candidate meets it:
# then, and only then, "cannot be met", naming the closest. Seeds are tried in a fixed order
# until both cases are seen.
seen_not_confirmed=; seen_cannot=
for seed in 1 101 201 301 401 501 601 701 801 901; do
  "$plateau" tune $game --vary rare=0..0.3:0.01 --target 'ending:rare>=0.6' -n 6 --confirm 200 --budget 15 --seed $seed \
    --format json > "$work/rare.json" 2>/dev/null
  "$plateau" tune $game --vary rare=0..0.3:0.01 --target 'ending:rare>=0.6' -n 6 --confirm 200 --budget 15 --seed $seed \
    > "$work/rare.txt" 2>/dev/null
  status=$(python3 - "$work/rare.json" <<'PY' || fail "rare, seed $seed: $(cat "$work/rare.json")"
import json, sys
j = json.load(open(sys.argv[1]))
v = j["verdict"]
search = [c for c in j["candidates"] if c["phase"] in ("start", "global", "local")]
met = {c["values"]["rare"] for c in search if c["measures"][0]["verdict"] != "missed"}
assert {c["values"]["rare"] for c in v["confirmed"]} >= met, (v["confirmed"], met)
assert all(c["measures"][0]["verdict"] == "missed" for c in v["confirmed"]), v["confirmed"]
assert not v["all_met"]
if met:
    assert v["status"] == "not_confirmed" and v["search_met"] == len(met) and v["never_met"] == [], v
else:
    assert v["status"] == "cannot_be_met" and v["search_met"] == 0, v
    assert v["never_met"][0]["target"] == "ending:rare>=0.6", v["never_met"]
print(v["status"])
PY
)
  case $status in
    not_confirmed)
      grep -qF "1 of 1 targets not met on the confirmation seeds:" <<<"$(cat "$work/rare.txt")" || fail "not confirmed, text: $(cat "$work/rare.txt")"
      if grep -qF "cannot" "$work/rare.txt"; then fail "not confirmed, but the text says 'cannot': $(cat "$work/rare.txt")"; fi
      seen_not_confirmed=1 ;;
    cannot_be_met)
      grep -qF "no candidate met them all, so they cannot all be met within these ranges" "$work/rare.txt" || fail "cannot, text: $(cat "$work/rare.txt")"
      grep -qE "ending:rare>=0.6: no candidate met it; closest 0[.0-9]* at rare=" "$work/rare.txt" || fail "cannot, closest: $(cat "$work/rare.txt")"
      seen_cannot=1 ;;
  esac
  [ -n "$seen_not_confirmed" ] && [ -n "$seen_cannot" ] && break
done
[ -n "$seen_not_confirmed" ] || fail "no seed gave a search candidate that met ending:rare>=0.6 by luck"
[ -n "$seen_cannot" ] || fail "no seed gave a search where no candidate met ending:rare>=0.6"

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
grep -qE "^  cards.cards.coin.bonus \+1: count:total \+[0-9.]+ ± [0-9.]+$" <<<"$out" || fail "text: the knob's effect and its error: $out"
grep -qE "^best: cards.cards.coin.bonus=(4|5)$" <<<"$out" || fail "text: best bonus: $out"

# Infeasible: total >= 60 cannot be reached with a, b <= 20 and bonus 2; gap >= 5 and gap <= -5
# are each reachable but never together.
out=$("$plateau" tune $game --vary a=0..20 --vary b=0..20 --target 'count:total>=60' -n 40 --budget 15 --threads 2)
grep -qF "1 of 1 targets not met: no candidate met them all, so they cannot all be met within these ranges" <<<"$out" || fail "infeasible: $out"
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
grep -qF "(counts: gap, rare, total)" "$work/refused.txt" || fail "unknown count should list the counts: $(cat "$work/refused.txt")"
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
    for c in j["verdict"]["confirmed"]: c.pop("seconds", None)
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
