#!/bin/bash
# Faster is never different (issue 19): for each shipped game, games between the bots designers
# use, on fixed seeds, must give the same report as the one recorded before the bots were made
# faster (tests/data/reports/<name>.json), byte for byte apart from the timings (seconds,
# games_per_second). A difference means a speed-up changed what the bots choose or how games
# are scored. After a deliberate change of the rules or the bots, rewrite the references with
#   bash tests/cli/same_report_test.sh build/plateau . --write
# and say why in the commit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
write=${3:-}
refs=$src/tests/data/reports

# name | simulate arguments
runs=(
  "savane_greedy|ecosysteme-savane --players 4 -n 8 --bots greedy --seed 19001"
  "savane_solo_greedy|ecosysteme-savane --players 1 -n 6 --bots greedy --seed 19002"
  "ocean_greedy|ecosysteme-ocean --players 4 -n 4 --bots greedy --seed 19003"
  "ocean_2p_greedy|ecosysteme-ocean --players 2 -n 4 --bots greedy --seed 19004"
  "ecosystem_greedy|ecosystem --players 4 -n 8 --bots greedy --seed 19005"
  "chenilles_heuristic|chenilles --players 4 -n 6 --bots heuristic --seed 19006"
  "chenilles_greedy_2p|chenilles --players 2 -n 6 --bots greedy,heuristic --seed 19007"
  "savane_mcts|ecosysteme-savane --players 2 -n 1 --bots mcts:iters=40,greedy --seed 19008"
  "safari_greedy|safari --players 3 -n 4 --bots greedy --seed 19009"
  "fauna_greedy|fauna --players 3 -n 4 --bots greedy --seed 19010"
)

# The report without its timings, keys sorted, one stable text. The rules fingerprint and the
# data values in force go too: they change with any edit of a game's files, which these reports
# do not pin (they pin what the games give when played on these seeds).
strip() {
  python3 -c 'import json,sys
d=json.load(sys.stdin)
for k in ("seconds","games_per_second","rules","data"): d.pop(k,None)
print(json.dumps(d,sort_keys=True,indent=1))'
}

status=0
for run in "${runs[@]}"; do
  name=${run%%|*}
  args=${run#*|}
  # shellcheck disable=SC2086
  "$plateau" simulate $args --threads 1 --format json > "$work/$name.raw" 2> "$work/$name.err" ||
    fail "$name: plateau simulate $args failed: $(cat "$work/$name.err")"
  strip < "$work/$name.raw" > "$work/$name.json"
  if [ "$write" = "--write" ]; then
    cp "$work/$name.json" "$refs/$name.json"
    echo "wrote $refs/$name.json"
  elif ! diff -q "$refs/$name.json" "$work/$name.json" > /dev/null; then
    echo "FAIL: $name (plateau simulate $args) differs from $refs/$name.json:"
    diff "$refs/$name.json" "$work/$name.json" | head -20
    status=1
  else
    echo "ok: $name"
  fi
done
exit $status
