#!/usr/bin/env bash
# plateau play asks a choice among many moves in steps (issue 31): the groups a game's describe
# hook gives (Safari: a cell, then a rotation drawn; an action, then its tile, then the corner;
# Fauna: a region by continent with its neighbours), or by type and card or cell for a game
# that gives none (Écosystème); `b` goes back a step, a number out of range is asked again with
# the reason, a move the rules refuse at the second step sends the player back to the first
# step with the reason and never ends the game; the end names the winner in words.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# A game of 30 moves grouped in rows by its describe hook, whose rules refuse square 2,3.
mkdir -p "$work/steps"
cat > "$work/steps/game.json" <<'JSON'
{"id": "steps", "api_version": 1, "version": 1, "name": {"en": "Steps"}, "players": {"min": 1, "max": 2},
 "rules": "rules.lua"}
JSON
cat > "$work/steps/rules.lua" <<'LUA'
local game = { api_version = 1, moves = {}, categories = { "picks" } }
function game.setup(ctx, state) state.data.picks = 0 end
function game.to_move(ctx, state) if state.data.picks >= 2 then return {} end return { 1 } end
function game.legal_moves(ctx, state, seat)
  local out = {}
  for r = 1, 5 do for c = 1, 6 do out[#out + 1] = { type = "pick", square = { r, c } } end end
  return out
end
function game.moves.pick(ctx, state, seat, move)
  if move.square[1] == 2 and move.square[2] == 3 then return false, "square 2,3 is cracked" end
  state.data.picks = state.data.picks + 1
end
function game.describe(ctx, state, seat, move)
  return string.format("pick square %d,%d", move.square[1], move.square[2]), "row " .. move.square[1]
end
function game.score(ctx, state) return { { breakdown = { picks = state.data.picks } } } end
return game
LUA
# Row 2, square 3 (refused), then row 1, 9 (no such choice), b, row 1 square 1, row 1 square 2.
printf '2\n3\n1\n9\nb\n1\n1\n1\n2\n' | "$plateau" play "$work/steps" --players 1 --bots human > "$work/steps.txt" 2>&1 \
  || fail "the game ended early: $(cat "$work/steps.txt")"
out=$(cat "$work/steps.txt")
grep -qF "    2. row 2  (6 choices)" <<<"$out" || fail "no groups: $out"
grep -qF "    3. pick square 2,3" <<<"$out" || fail "no second step: $out"
grep -qF "refused: square 2,3 is cracked" <<<"$out" || fail "no reason: $out"
grep -A2 -F "refused: square 2,3 is cracked" <<<"$out" | grep -qF "back to the first step" || fail "not back at the first step: $out"
grep -qF "there is no choice '9' here: type a number from 1 to 6, or b to go back" <<<"$out" || fail "no range: $out"
[ "$(grep -c "    5. row 5  (6 choices)" <<<"$out")" -ge 4 ] || fail "the first step was not asked again: $out"
grep -qF "P1 wins with 2 points." <<<"$out" || fail "no winner in words: $out"
grep -q '"winners"\|{"' <<<"$out" && fail "a JSON line on the screen: $out"

# Safari: 8 placements ask the cell, then the rotation, each drawn; the action asks its kind,
# then the tile, then the corner; b goes back.
printf '1\nb\n1\n1\n1\n1\n' | "$plateau" play safari --players 2 --bots human,greedy --seed 3 > "$work/safari.txt" 2>&1 || true
out=$(cat "$work/safari.txt")
grep -qF "    1. place the tile at [-1, 1]  (2 choices)" <<<"$out" || fail "no cells: $out"
grep -qF "    1. place CS24-EEL at [-1, 1] turned 90°: a trail E-W (elephant), a bush S (elephant), a bush N (lion)" <<<"$out" \
  || fail "no rotations: $out"
grep -A2 -F "    1. place CS24-EEL at [-1, 1] turned 90°" <<<"$out" | grep -qF "       +####+" \
  || fail "the rotation is not drawn: $out"
grep -qF "back to the first step:" <<<"$out" || fail "b did not go back: $out"
awk 'length($0) > 120 && !/^your choice/ { print; bad = 1 } END { exit bad }' "$work/safari.txt" \
  || fail "lines over 120 columns"

# Écosystème gives no groups: its moves are grouped by type and card, then the cell.
printf '1\n1\n' | "$plateau" play ecosysteme-savane --players 2 --bots human,random --seed 3 > "$work/eco.txt" 2>&1 || true
grep -qE "^    1\. place [a-z]+  \([0-9]+ choices\)" "$work/eco.txt" || fail "no default groups: $(cat "$work/eco.txt")"

# Fauna: a region chosen by continent shows what it borders; no internal line, none over 120.
printf '1\n1\n' | "$plateau" play fauna --players 2 --bots human,greedy --seed 4 > "$work/fauna.txt" 2>&1 || true
out=$(cat "$work/fauna.txt")
grep -qF "a piece on a region of the map  (64 choices)" <<<"$out" || fail "no region group: $out"
grep -qF "       borders: Canadian Arctic, Canadian Boreal Forest, Rocky Mountains, Siberia, Arctic Ocean" <<<"$out" \
  || fail "no neighbours: $out"
grep -qE "box \[|card \[|_" <<<"$out" && fail "an internal name on the screen: $(grep -E 'box \[|card \[|_' <<<"$out")"
awk 'length($0) > 120 && !/^your choice/ { print; bad = 1 } END { exit bad }' "$work/fauna.txt" \
  || fail "lines over 120 columns"
echo "play_steps_test: ok"
