#!/usr/bin/env bash
# plateau score on bad boards: each is refused with exit 2, naming the board file and the place
# (an unknown card, a grid bigger than the frame, a short row, a board for another game), and a
# good board scores with exit 0 in text and JSON.
# Usage: score_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"
row='["prairie", "prairie", "prairie", "prairie", "prairie"]'
board() {  # board <file> <game> <grid rows...>
  local file=$1 game=$2
  shift 2
  local rows
  rows=$(IFS=,; echo "$*")
  printf '{"game": "%s", "players": [{"name": "Ann", "grid": [%s]}]}\n' "$game" "$rows" > "$work/$file"
}
board good.json ecosysteme-savane "$row" "$row" "$row" "$row"
"$plateau" score ecosysteme-savane "$work/good.json" > "$work/out.txt" || fail "a good board: $(cat "$work/out.txt")"
grep -q "TOTAL" "$work/out.txt" || fail "no TOTAL line: $(cat "$work/out.txt")"
"$plateau" score ecosysteme-savane "$work/good.json" --format json > "$work/out.json" || fail "--format json"
grep -q '"total": 16' "$work/out.json" || fail "four rows of prairies score 16: $(cat "$work/out.json")"

expect_refused() {  # expect_refused <board file> <text the message must hold after the file's path>
  refused "$work/$1: $2" score ecosysteme-savane "$work/$1"
}
board unknown.json ecosysteme-savane "$row" "$row" '["prairie", "prairie", "unicorn", "prairie", "prairie"]' "$row"
expect_refused unknown.json "players[0].grid[2][2]: unknown card id 'unicorn'"
board tall.json ecosysteme-savane "$row" "$row" "$row" "$row" "$row"
expect_refused tall.json "players[0].grid: 5 rows; a finished ecosysteme-savane grid has 4 rows of 5 cards"
board short.json ecosysteme-savane "$row" "$row" "$row" '["prairie", "prairie", "prairie", "prairie"]'
expect_refused short.json "players[0].grid[3]: 4 cards; a finished ecosysteme-savane grid has 4 rows of 5 cards"
board other.json ecosysteme-ocean "$row" "$row" "$row" "$row"
expect_refused other.json "at /game: board is for 'ecosysteme-ocean', not 'ecosysteme-savane'"
echo "1 passed, 0 failed"
