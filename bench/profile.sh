#!/bin/bash
# Where a playout's time goes, as deterministic instruction counts (valgrind's callgrind, only
# inside plateau::PlayOut): instructions per game, and the share spent inside the Lua library
# itself (its VM and C API) against the host's code. A developer's tool, not part of the
# product or of CI: it needs valgrind (apt-get install valgrind) and a built build/plateau.
#   bash bench/profile.sh [savane|ocean|chenilles|all]   (default: all; about 2 minutes)
# The raw profiles stay in $PROFILE_DIR (default /tmp/plateau-profile) for callgrind_annotate.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
plateau=${PLATEAU_BIN:-$here/build/plateau}
out=${PROFILE_DIR:-/tmp/plateau-profile}
which valgrind > /dev/null || { echo "profile.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
[ -x "$plateau" ] || { echo "profile.sh: $plateau is not built" >&2; exit 2; }
mkdir -p "$out"

# profile <name> <games> <simulate arguments...>
profile() {
  local name=$1 games=$2
  shift 2
  valgrind --tool=callgrind --toggle-collect='plateau::PlayOut*' --callgrind-out-file="$out/$name.out" \
    "$plateau" simulate "$@" -n "$games" --players 4 --threads 1 > /dev/null 2> "$out/$name.err"
  local total lua
  total=$(sed -n 's/.*I *refs: *//p' "$out/$name.err" | tr -d ,)
  # Self cost by object file: the Lua library's own instructions (VM, tables, C API, GC).
  lua=$(callgrind_annotate --threshold=100 "$out/$name.out" 2> /dev/null |
        awk '/file:function/ {s = 1; next} s && /^ *[0-9,]+ \(/ && /liblua5\.4/ {n = $1; gsub(",", "", n); t += n} END {print t + 0}')
  echo "$name: $((total / games)) instructions a game, $((100 * lua / total))% of them in the Lua library"
}

what=${1:-all}
case $what in
  savane|all) profile savane 200 ecosysteme-savane --bots random --seed 1000 ;;&
  ocean|all) profile ocean 100 ecosysteme-ocean --bots random --seed 2000 ;;&
  chenilles|all) profile chenilles 2 chenilles --bots heuristic --seed 1 ;;
  savane|ocean) ;;
  *) echo "usage: bash bench/profile.sh [savane|ocean|chenilles|all]" >&2; exit 2 ;;
esac
