# Helpers shared by the CLI end-to-end scripts in this folder. Each script is run as
# `<script> <plateau binary> <source dir>` and sources this file first: it sets $plateau,
# $src and $work (a scratch folder removed on exit, after stopping a background $pid).

plateau=$1
src=${2:-}
work=$(mktemp -d)
cleanup() {
  if [ -n "${pid:-}" ]; then kill "$pid" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }

# refused <text the message must hold> <plateau arguments...>: the command exits 2 (bad input)
# and says the text.
refused() {
  local want=$1
  shift
  set +e
  "$plateau" "$@" > "$work/refused.txt" 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$*: exit $rc, not 2: $(cat "$work/refused.txt")"
  grep -qF -- "$want" "$work/refused.txt" || fail "$*: expected '$want' in: $(cat "$work/refused.txt")"
}

# wait_lines <file> <n>: waits until the file has n lines (at most 20 s).
wait_lines() {
  for _ in $(seq 1 400); do
    [ "$(wc -l < "$1")" -ge "$2" ] && return 0
    sleep 0.05
  done
  echo "timed out waiting for $2 lines:"; cat "$1"; exit 1
}
