#!/usr/bin/env bash
# A simulation run in slices is the same run (issue 19): 4 shards of a run (simulate --shard K/N
# --format json) merged by plateau merge print exactly the report one simulate prints, text and
# JSON, byte for byte but for the time it took. Checked on a game with its own stats, tags and
# shared wins (Chenilles, seats rotating, a data override), on a drafting game's card balance and
# pick rates past 2,048 games (Savane: blocks of two chunks), and with more slices than blocks.
# Refused, naming the files: a missing or repeated slice, slices of other settings, rules, engine
# or format, an empty file left by a slice that did not finish (with the slices missing), a file
# that is not a slice's report; and --shard values other than K/N with 1 <= K <= N.
# Usage: shard_merge_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$src"

# The report without its timings: the JSON's "seconds" and "games_per_second", the text's
# "in 1.23 s: 456.7 games/s".
untimed_json() { grep -v '^  "seconds": \|^  "games_per_second": '; }
untimed_text() { sed -E '1,2s/ in [0-9.]+ s: [0-9.]+ games\/s$//'; }

# same_run <label> <shards> <simulate arguments...>: one run and its <shards> slices merged.
same_run() {
  local label=$1 shards=$2
  shift 2
  "$plateau" simulate "$@" --format json > "$work/$label-one.json"
  "$plateau" simulate "$@" > "$work/$label-one.txt"
  local files=()
  for k in $(seq "$shards"); do
    # Each slice on another thread count: the report never depends on it.
    "$plateau" simulate "$@" --threads $((k % 2 + 1)) --shard "$k/$shards" --format json > "$work/$label-$k.json"
    files+=("$work/$label-$k.json")
  done
  "$plateau" merge "${files[@]}" --format json > "$work/$label-merged.json"
  # The slices in any order.
  "$plateau" merge $(printf '%s\n' "${files[@]}" | sort -r) > "$work/$label-merged.txt"
  cmp <(untimed_json < "$work/$label-one.json") <(untimed_json < "$work/$label-merged.json") ||
    fail "$label: the merged JSON differs from one run: $(diff <(untimed_json < "$work/$label-one.json") <(untimed_json < "$work/$label-merged.json") | head -20)"
  cmp <(untimed_text < "$work/$label-one.txt") <(untimed_text < "$work/$label-merged.txt") ||
    fail "$label: the merged text differs from one run: $(diff <(untimed_text < "$work/$label-one.txt") <(untimed_text < "$work/$label-merged.txt") | head -20)"
  # What the comparison leaves out is only the timings.
  [ "$(diff "$work/$label-one.json" "$work/$label-merged.json" | grep -c '^[<>]')" -le 4 ] ||
    fail "$label: more than the timings differ"
}

same_run chenilles 4 chenilles -n 45 --players 3 --bots heuristic,random --rotate-seats \
  --set chenilles.time_board.spaces.e1.kind=plain
grep -qF '"tags": {' "$work/chenilles-one.json" && grep -qF '"player_metrics": {' "$work/chenilles-one.json" ||
  fail "the Chenilles run should have tags and per-player measures to merge"
same_run savane 4 ecosysteme-savane -n 2100 --players 3 --bots random --seed 77
grep -qF '"pick_rate": 0.' "$work/savane-one.json" || fail "the Savane run should have pick rates to merge"
# 16 games are two blocks: of five slices, three are empty, and still merge into the run.
same_run small 5 ecosysteme-savane -n 16 --players 2
grep -qF "shard 1/5: no games of 16" <(
  "$plateau" simulate ecosysteme-savane -n 16 --players 2 --shard 1/5) || fail "an empty slice should say so"
grep -qF "shard 2/4: games 9-24 of 45" <(
  "$plateau" simulate chenilles -n 45 --players 2 --shard 2/4) || fail "a slice's text report should say which games"

# Refusals, naming the files.
c=("$work"/chenilles-{1,2,3,4}.json)
refused "shard 3/4 is missing: the files given are ${c[0]} (1), ${c[1]} (2), ${c[3]} (4)" merge "${c[0]}" "${c[1]}" "${c[3]}"
refused "shard 2/4, 3/4 are missing" merge "${c[0]}" "${c[3]}"
refused "${c[1]} and ${c[1]} are both shard 2/4" merge "${c[0]}" "${c[1]}" "${c[1]}" "${c[2]}" "${c[3]}"
cp "${c[2]}" "$work/again.json"
refused "${c[2]} and $work/again.json are both shard 3/4" merge "${c[@]}" "$work/again.json"
"$plateau" simulate chenilles -n 45 --players 3 --bots heuristic,random --rotate-seats --seed 2 \
  --set chenilles.time_board.spaces.e1.kind=plain --shard 2/4 --format json > "$work/seed2.json"
refused "shards of different settings: seed is 1 in ${c[0]} but 2 in $work/seed2.json" \
  merge "${c[0]}" "$work/seed2.json" "${c[2]}" "${c[3]}"
"$plateau" simulate chenilles -n 45 --players 3 --bots heuristic,random --shard 2/4 \
  --set chenilles.time_board.spaces.e1.kind=plain --format json > "$work/fixed.json"
refused "shards of different settings: rotate_seats is true in ${c[0]} but false in $work/fixed.json" \
  merge "${c[0]}" "$work/fixed.json" "${c[2]}" "${c[3]}"
"$plateau" simulate chenilles -n 45 --players 3 --bots heuristic,random --rotate-seats --shard 2/3 \
  --set chenilles.time_board.spaces.e1.kind=plain --format json > "$work/third.json"
refused "$work/third.json is shard 2/3 but ${c[0]} is shard 1/4" merge "${c[0]}" "$work/third.json"
# Other rules: the same folder with a rules file edited between two slices (a comment is enough:
# the fingerprint covers every file), both fingerprints and both files named.
cp -r games/chenilles "$work/chenilles"
"$plateau" simulate "$work/chenilles" -n 20 --players 2 --shard 1/2 --format json > "$work/rules-1.json"
echo "-- edited" >> "$work/chenilles/rules.lua"
"$plateau" simulate "$work/chenilles" -n 20 --players 2 --shard 2/2 --format json > "$work/rules-2.json"
before=$(grep -o '"rules": "[0-9a-f]*"' "$work/rules-1.json" | cut -d'"' -f4)
after=$(grep -o '"rules": "[0-9a-f]*"' "$work/rules-2.json" | cut -d'"' -f4)
[ -n "$before" ] && [ -n "$after" ] && [ "$before" != "$after" ] || fail "the edit should change the rules fingerprint"
refused "the shards ran different rules: $work/rules-1.json has rules $before, $work/rules-2.json has rules $after" \
  merge "$work/rules-1.json" "$work/rules-2.json"
# Another engine (a node with another plateau, or other Lua or JSON libraries), and a slice
# written in another version's format: refused naming the files and both engines.
sed 's/"plateau": "[^"]*"/"plateau": "0.0.1-other"/' "${c[1]}" > "$work/engine.json"
grep -qF '"plateau": "0.0.1-other"' "$work/engine.json" || fail "a slice should record plateau's version"
refused "the shards ran on different engines: ${c[0]} on {" merge "${c[0]}" "$work/engine.json" "${c[2]}" "${c[3]}"
refused "$work/engine.json on {" merge "${c[0]}" "$work/engine.json" "${c[2]}" "${c[3]}"
refused '"plateau":"0.0.1-other"' merge "${c[0]}" "$work/engine.json" "${c[2]}" "${c[3]}"
sed 's/"format": 2,/"format": 3,/' "${c[1]}" > "$work/format.json"
refused "$work/format.json: at /shard/format: a shard report of another version of plateau (3, this one reads 2)" \
  merge "${c[0]}" "$work/format.json" "${c[2]}" "${c[3]}"
# An empty file: the slice that writes it did not finish (`> shard-3.json` on a job that failed or
# was killed). Named, with the slices missing from the others' numbers.
: > "$work/empty-3.json"
refused "shard 3/4 is missing: the files given are ${c[0]} (1), ${c[1]} (2), ${c[3]} (4); run plateau simulate ... --shard 3/4 --format json for it; $work/empty-3.json is empty: the slice that writes it did not finish (failed, stopped, or still running)" \
  merge "${c[0]}" "${c[1]}" "$work/empty-3.json" "${c[3]}"
: > "$work/empty-2.json"
refused "shard 2/4, 3/4 are missing: the files given are ${c[0]} (1), ${c[3]} (4); run plateau simulate ... --shard 2/4 --format json for it; $work/empty-2.json, $work/empty-3.json are empty: the slices that write them did not finish" \
  merge "${c[0]}" "$work/empty-2.json" "$work/empty-3.json" "${c[3]}"
refused "$work/empty-3.json is empty" merge "$work/empty-3.json"
# Named up to 20, then counted.
empties=()
for i in $(seq 1 22); do : > "$work/e-$i.json"; empties+=("$work/e-$i.json"); done
refused "$work/e-20.json and 2 more are empty" merge "${empties[@]}"
# Every slice there, and an empty file besides: refused too (a stray file is not merged over).
refused "$work/empty-3.json is empty" merge "${c[@]}" "$work/empty-3.json"
# Files that are not slices' reports.
refused "$work/chenilles-one.json is not a shard's report" merge "${c[0]}" "$work/chenilles-one.json"
refused "$work/chenilles-one.txt" merge "$work/chenilles-one.txt"
refused "$work/absent.json" merge "$work/absent.json"
sed 's/"first_block":1,/"first_block":2,/' "${c[1]}" > "$work/edited.json"
refused "$work/edited.json: at /parts:" merge "${c[0]}" "$work/edited.json" "${c[2]}" "${c[3]}"
sed 's/"seat_wins":\[[^]]*\]/"seat_wins":[1]/' "${c[1]}" > "$work/edited.json"
refused "$work/edited.json: at /parts/blocks/0: seat_wins: expected an array of 3" \
  merge "${c[0]}" "$work/edited.json" "${c[2]}" "${c[3]}"

# --shard K/N only, 1 <= K <= N, with the accepted form in the message.
for bad in 0/4 5/4 1/0 a/b 1/4x 4 /4 1/ 1.0/4 +1/4; do
  refused "--shard $bad: expected K/N, the K-th of N slices of the seeds, with 1 <= K <= N <= 4096 (--shard 1/4 .. --shard 4/4)" \
    simulate chenilles -n 4 --shard "$bad"
done
refused "--compare with --shard" simulate chenilles -n 4 --shard 1/2 --compare "$work/chenilles-one.json"
refused "--keep-going with --shard" simulate chenilles -n 4 --shard 1/2 --keep-going
refused "--format must be text or json" merge "${c[@]}" --format csv
echo "shard/merge CLI ok"
