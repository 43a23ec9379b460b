#!/usr/bin/env bash
# Fauna from the command line: plateau score on a round (each piece's points and why), bot
# options the game declares (greedy:knowledge=...) and a misspelt one refused with exit 2,
# and a round file naming an unknown region or card refused naming the place.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

out=$("$plateau" score fauna "$src/games/fauna/tests/rounds/okapi.json")
grep -q "TOTAL         19      11       8" <<<"$out" || fail "okapi totals: $out"
grep -qF "on Sahel; player 2; points 8; why next to a correct region: 8" <<<"$out" || fail "sahel: $out"
grep -qF "back false; on Height (shoulder or standing): 1.6–2 m" <<<"$out" && fail "the lost height piece is on bucket 12, over 3 m: $out"
grep -qF "why wrong (the answer is 1.6–2 m)" <<<"$out" || fail "height reason: $out"

"$plateau" play fauna --players 2 --seed 3 --bots greedy:knowledge=1,greedy:knowledge=0 > "$work/play.txt" || fail "play with knowledge"
grep -q "^TOTAL" "$work/play.txt" || fail "no score table: $(tail -5 "$work/play.txt")"
refused "bot 'greedy' has no option 'knowlege' and fauna declares none such (its bot options: knowledge)" \
  play fauna --players 2 --seed 3 --bots greedy:knowlege=1
refused "bot 'greedy:knowledge=2': fauna's option knowledge=2 is outside 0..1" play fauna --players 2 --seed 3 --bots greedy:knowledge=2

sed 's/"congo_basin": \[1\]/"atlantis": [1]/' "$src/games/fauna/tests/rounds/okapi.json" > "$work/bad.json"
refused "$work/bad.json: at /regions/marks/atlantis: unknown region" score fauna "$work/bad.json"
sed 's/"card": \["okapi"\]/"card": ["unicorn"]/' "$src/games/fauna/tests/rounds/okapi.json" > "$work/bad.json"
refused "$work/bad.json: at /zones/card/0: unknown card 'unicorn'" score fauna "$work/bad.json"
echo "fauna_test: ok"
