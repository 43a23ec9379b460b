#!/usr/bin/env bash
# plateau lint (issue 18): luacheck with the API's globals names each finding at
# games/<id>/<file>.lua:<line> (a folder outside the tree too), gives the scenario-test globals to
# files under tests/ and to test helpers only, exits 1 on findings and 0 when clean, and 2 with
# how to install luacheck when it is missing; plateau validate shows the findings as warnings
# without failing; plateau new writes a .luarc.json that points at this tree's API stubs.
# Usage: lint_test.sh <plateau binary> <source dir>
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# A modder's game with one finding of each kind the issue names, and a test file using the
# test globals (clean).
mkdir -p "$work/mods/linty/data" "$work/mods/linty/tests" "$work/mods/linty/lib"
cp "$src/tests/data/games/safety-counter/data/cards.json" "$work/mods/linty/data/"
cat > "$work/mods/linty/game.json" <<'JSON'
{"id": "linty", "api_version": 1, "version": 1, "name": {"en": "Linty"}, "players": {"min": 2, "max": 2},
 "rules": "rules.lua", "data": {"cards": {"file": "data/cards.json", "schema": "cards"}}}
JSON
cat > "$work/mods/linty/rules.lua" <<'LUA'
local helpers = require("lib.helpers")
local game = {api_version = 1, moves = {}, categories = {'n'}}
function game.setup(ctx, state)
  local unused = 3
  state.data.n = helpers.zero()
end
function game.to_move(ctx, state) return {} end
function game.legal_moves(ctx, state, seat) return {} end
function game.score(ctx, state)
  local lines = {}
  for seat = 1, state.player_count do
    lines[seat] = {total = 0, breakdown = {n = 0}}
    if seat > 99 then
      local lines = os.time()
      print(lines)
    end
  end
  return lines
end
return game
LUA
cat > "$work/mods/linty/lib/helpers.lua" <<'LUA'
return { zero = function() return 0 end, oops = function() return expect_eq end }
LUA
cat > "$work/mods/linty/tests/smoke_test.lua" <<'LUA'
test("loads", function()
  local g = new_game{ players = 2 }
  expect_eq(g:to_move(), {})
end)
LUA

set +e
"$plateau" lint "$work/mods/linty" > "$work/lint.txt" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || fail "findings should exit 1, got $rc: $(cat "$work/lint.txt")"
for want in "games/linty/rules.lua:4:9: (W211) unused variable 'unused'" \
            "games/linty/rules.lua:14:13: (W421) shadowing definition of variable 'lines' on line 10" \
            "games/linty/rules.lua:14:21: (W113) accessing undefined variable 'os'" \
            "games/linty/lib/helpers.lua:1:67: (W113) accessing undefined variable 'expect_eq'" \
            "games/linty: 4 findings in 3 Lua files"; do
  grep -qF -- "$want" "$work/lint.txt" || fail "expected '$want' in: $(cat "$work/lint.txt")"
done
# Unused hook arguments are not findings, and a test file sees the test globals.
if grep -q "W212\|smoke_test" "$work/lint.txt"; then fail "unexpected findings: $(cat "$work/lint.txt")"; fi

# A link out of the folder is not handed to luacheck: named as not linted.
ln -s /etc/hostname "$work/mods/linty/lib/outside.lua"
set +e
"$plateau" lint "$work/mods/linty" > "$work/lint2.txt" 2>&1
set -e
grep -qF "games/linty/lib/outside.lua: not linted: a symbolic link" "$work/lint2.txt" ||
  fail "the link out of the folder: $(cat "$work/lint2.txt")"
rm "$work/mods/linty/lib/outside.lua"

# validate: the same findings as warnings, exit 0.
"$plateau" validate "$work/mods/linty" > "$work/validate.txt" 2> "$work/validate.err" ||
  fail "validate should still pass: $(cat "$work/validate.txt" "$work/validate.err")"
grep -qF "warning: games/linty/rules.lua:4:9: (W211) unused variable 'unused'" "$work/validate.err" ||
  fail "validate does not warn: $(cat "$work/validate.err")"
grep -qF "warning: 4 lint findings (plateau lint $work/mods/linty)" "$work/validate.err" || fail "$(cat "$work/validate.err")"

# Clean: exit 0.
"$plateau" lint "$src/games/fauna" > "$work/clean.txt" || fail "fauna should lint clean: $(cat "$work/clean.txt")"
grep -qF "games/fauna: clean" "$work/clean.txt" || fail "$(cat "$work/clean.txt")"

# luacheck missing: exit 2 with how to install it; validate stays quiet about lint.
set +e
out=$(PATH=/nonexistent "$plateau" lint fauna 2>&1); rc=$?
set -e
[ "$rc" = 2 ] || fail "without luacheck lint should exit 2, got $rc: $out"
echo "$out" | grep -qF "apt-get install lua-check" || fail "no install hint: $out"
PATH=/nonexistent "$plateau" validate "$work/mods/linty" > /dev/null 2> "$work/quiet.err" || fail "validate without luacheck"
# (validate's coverage warnings, "never placed/scored in N games", are not lint's.)
if grep -v '^warning: never ' "$work/quiet.err" | grep -q warning; then fail "validate warned without luacheck: $(cat "$work/quiet.err")"; fi
refused "unknown game 'nope'" lint nope

# plateau new: the copy's .luarc.json points at this tree's stubs and at the base, by absolute paths.
(cd "$work" && "$plateau" new ecosysteme jungle > /dev/null) || fail "plateau new"
grep -qF "\"$src/scripting/api/stubs\"" "$work/jungle/.luarc.json" || fail "stubs path: $(cat "$work/jungle/.luarc.json")"
grep -qF "\"$src/games/ecosysteme\"" "$work/jungle/.luarc.json" || fail "base path: $(cat "$work/jungle/.luarc.json")"
[ -f "$src/scripting/api/stubs/plateau.lua" ] || fail "no stubs at $src/scripting/api/stubs"
"$plateau" lint "$work/jungle" > "$work/jungle.txt" || fail "the new variant does not lint clean: $(cat "$work/jungle.txt")"
echo "1 passed, 0 failed"
