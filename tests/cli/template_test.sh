#!/usr/bin/env bash
# The variant template of the Écosystème base (games/ecosysteme/template), copied outside games/
# with its {{id}} and {{name}} placeholders filled in as `plateau new ecosysteme <id>` does,
# must validate and pass its own scenario tests and conformance checks; and neither the base
# (abstract) nor its template may show up as a game of their own.
# Usage: template_test.sh <plateau binary> <source dir>
set -euo pipefail
plateau=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }
cp -r "$src/games/ecosysteme/template" "$work/mymod"
find "$work/mymod" -type f -exec sed -i 's/{{id}}/mymod/g; s/{{name}}/My Mod/g' {} +
if grep -rq '{{' "$work/mymod"; then fail "a placeholder is left after substitution"; fi
(cd "$work" && "$plateau" validate "$work/mymod") || fail "the filled-in template does not validate"
(cd "$work" && "$plateau" test "$work/mymod" --games 20) || fail "the filled-in template's tests fail"
listed=$(cd "$work" && "$plateau" list)
echo "$listed" | grep -q '^ecosysteme .*abstract base' || fail "plateau list does not mark the base as abstract"
if echo "$listed" | grep -q 'template\|{{'; then fail "plateau list shows the template"; fi
echo "1 passed, 0 failed"
