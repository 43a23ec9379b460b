#!/usr/bin/env bash
# Seat balance with intervals (issue 32): each seat's win rate (ties shared) with its Wilson 95%
# interval and its difference from a fair share, in the text and JSON reports; a finding fires
# when the edge is significant at the level the report states (not at a fixed share), and not
# when the game is fair; with --rotate-seats, the same per bot; tune's seat_edge measure.
# On tests/data/games/tune-target, where --set lean=L makes P1 win outright in a share L of the
# games (else the dice decide, ties shared), so P1's true edge is L/2.
# Usage: seat_balance_test.sh <plateau> <src>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$src"
game=tests/data/games/tune-target

"$plateau" simulate $game -n 2000 --set lean=0.1 --format json > "$work/lean.json"
"$plateau" simulate $game -n 2000 --set lean=0 --format json > "$work/fair.json"
python3 - "$work/lean.json" "$work/fair.json" <<'PY' || fail "seat balance in JSON"
import json, math, sys
lean, fair = (json.load(open(p)) for p in sys.argv[1:3])
def wilson(k, n, z=1.959964):
    p = k / n
    c = (p + z*z/(2*n)) / (1 + z*z/n)
    h = z / (1 + z*z/n) * math.sqrt(p*(1-p)/n + z*z/(4*n*n))
    return c - h, c + h
for j in (lean, fair):
    n = j["games"]
    rates = [s["win_rate"] for s in j["seats"]]
    assert abs(sum(rates) - 1) < 1e-9, rates  # ties shared: the rates add up to one game
    for s in j["seats"]:
        b = s["balance"]
        lo, hi = wilson(s["win_rate"] * n, n)
        assert abs(b["interval95"][0] - lo) < 1e-9 and abs(b["interval95"][1] - hi) < 1e-9, (b, lo, hi)
        assert b["fair_share"] == 0.5 and abs(b["edge"] - (s["win_rate"] - 0.5)) < 1e-12, b
        assert b["level"] == 0.005, b  # 1% over the two seats tested together
p1 = lean["seats"][0]["balance"]
# P1's true edge is lean / 2 = 0.05: inside the interval, significant, and a finding names it.
assert p1["interval95"][0] - 0.5 < 0.05 < p1["interval95"][1] - 0.5, p1
assert p1["significant"] and p1["p_value"] < 0.005, p1
assert any(f.startswith("seat edge: P1 (random) wins ") and "significant at the 1% level" in f for f in lean["findings"]), lean["findings"]
# The fair game: no edge found, 1/2 inside each interval.
for s in fair["seats"]:
    b = s["balance"]
    assert not b["significant"] and b["interval95"][0] < 0.5 < b["interval95"][1], b
assert not any("edge" in f for f in fair["findings"]), fair["findings"]
PY

out=$("$plateau" simulate $game -n 2000 --set lean=0.1)
grep -qE "^seat +mean +stdev +min +max +win rate +95% interval +vs fair$" <<<"$out" || fail "text: the seat table's header: $out"
grep -qE "^P1 \(random\) .* 5[0-9]\.[0-9]% +5[0-9]\.[0-9]- ?5[0-9]\.[0-9]% +\+[0-9.]+ \*$" <<<"$out" || fail "text: P1's row: $out"
grep -qF "* significant at the 1% level" <<<"$out" || fail "text: the level is stated: $out"
grep -qF "seat edge: P1 (random) wins" <<<"$out" || fail "text: the finding: $out"

# Per bot with --rotate-seats (fair share 1/players); without it a bot's rate includes its
# seat's edge, so no fair share is claimed.
"$plateau" simulate $game -n 400 --bots random,greedy --rotate-seats --format json > "$work/rot.json"
"$plateau" simulate $game -n 400 --bots random,greedy --format json > "$work/fixed.json"
python3 - "$work/rot.json" "$work/fixed.json" <<'PY' || fail "bot balance"
import json, sys
rot, fixed = (json.load(open(p)) for p in sys.argv[1:3])
for name, b in rot["bots"].items():
    assert b["balance"]["fair_share"] == 0.5 and b["balance"]["level"] == 0.005, (name, b)
    assert b["balance"]["interval95"][0] <= b["win_rate"] <= b["balance"]["interval95"][1], b
for name, b in fixed["bots"].items():
    assert "fair_share" not in b["balance"], (name, b)
# Fixed seats with two bots: each seat is the only one of its bot, no fair share either.
assert all("fair_share" not in s["balance"] for s in fixed["seats"]), fixed["seats"]
PY

# tune can aim at a seat's edge.
"$plateau" tune $game --vary lean=0..0.5 --target 'seat_edge:P1=0.08..0.12' -n 400 --budget 12 --format json > "$work/tune.json"
python3 - "$work/tune.json" <<'PY' || fail "tune seat_edge: $(head -c 2000 "$work/tune.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"]["all_met"], j["verdict"]
assert 0.1 <= j["best"]["lean"] <= 0.3, j["best"]  # edge = lean / 2
PY
refused "has no fair share to measure an edge against" tune $game --vary lean=0..0.5 --target seat_edge:random=0 --bots random,greedy -n 5
echo "seat balance: ok"
