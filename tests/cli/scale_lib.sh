# Helpers shared by the tests that run docs/scale.md's recipes as written (GNU parallel here,
# over ssh, on Slurm). Sourced after lib.sh, which sets $src, $work and fail.

# recipe <name>: the code block (```sh or ```bash) under <!-- recipe: <name> --> in docs/scale.md.
recipe() {
  awk -v mark="<!-- recipe: $1 -->" '$0 == mark {found = 1; next}
    found && /^```(sh|bash)$/ {body = 1; next}
    body && /^```$/ {exit}
    body {print}' "$src/docs/scale.md"
}

# recipe_with <name> [var=value | --option=value ...]: the recipe with the line that sets var
# (exactly one line must start with var=) set to "value" instead, and the line `#SBATCH
# --option=...` to `#SBATCH --option=value`: the run, the slices, the hosts... of the page swapped
# for a small run here. A comment after the page's value goes with it.
recipe_with() {
  local name=$1 text
  shift
  text=$(recipe "$name")
  [ -n "$text" ] || fail "docs/scale.md has no block marked <!-- recipe: $name -->"
  for set in "$@"; do
    local key=${set%%=*} value=${set#*=} line
    if [[ $key == --* ]]; then line="#SBATCH $key="; else line="$key="; fi
    [ "$(awk -v l="$line" 'index($0, l) == 1' <<<"$text" | wc -l)" = 1 ] ||
      fail "recipe $name should have one line starting with $line: $text"
    text=$(VALUE=$value awk -v l="$line" 'index($0, l) != 1 {print; next}
      l ~ /^#/ {print l ENVIRON["VALUE"]; next}
      {print l "\"" ENVIRON["VALUE"] "\""}' <<<"$text")
  done
  printf '%s\n' "$text"
}

# recipe_value <name> <var | --option>: the value the page gives var (or #SBATCH --option), its
# quotes or brackets and a trailing comment removed.
recipe_value() {
  local line=$2=
  [[ $2 == --* ]] && line="#SBATCH $2="
  recipe "$1" | awk -v l="$line" 'index($0, l) == 1 {v = substr($0, length(l) + 1); sub(/[ \t]+#.*/, "", v);
    gsub(/^["(]|[")]$/, "", v); print v; exit}'
}

# The report without its timings: the JSON's "seconds" and "games_per_second", the text's
# "in 1.23 s: 456.7 games/s".
untimed_json() { grep -v '^  "seconds": \|^  "games_per_second": '; }
untimed_text() { sed -E '1,2s/ in [0-9.]+ s: [0-9.]+ games\/s$//'; }

# same_report <one run> <merged> <json|text> <label>: equal but for the timings.
same_report() {
  local filter=untimed_$3
  cmp -s <($filter < "$1") <($filter < "$2") ||
    fail "$4: the merged report differs from one run: $(diff <($filter < "$1") <($filter < "$2") | head -20)"
}

# same_search <one process> <sliced> <label>: two `plateau tune --format json` outputs are the
# same search (candidates, measures, best, verdict), every "seconds" aside, of 6 candidates or more.
same_search() {
  python3 - "$1" "$2" <<'PY' || fail "$3: the search differs from tune in one process"
import json, sys
def strip(j):  # every "seconds", wherever it is: the timings
    if isinstance(j, dict): return {k: strip(v) for k, v in j.items() if k != "seconds"}
    if isinstance(j, list): return [strip(v) for v in j]
    return j
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
diff = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
assert not diff, {k: (a.get(k), b.get(k)) for k in diff}
assert len(a["candidates"]) >= 6, len(a["candidates"])
PY
}

# skip <reason>: this machine cannot run the test (a daemon that will not start, a missing
# package): ctest counts it as skipped (SKIP_RETURN_CODE 77), not passed.
skip() {
  echo "SKIPPED: $*"
  exit 77
}

# free_port: a TCP port nobody listens on now on 127.0.0.1 (the kernel's pick).
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# running <pid>: the process is there and not a zombie (one that ended, not yet waited for).
running() { [ -r "/proc/$1/stat" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2> /dev/null)" != Z ]; }
