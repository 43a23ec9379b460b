#!/usr/bin/env bash
# The hostile catalogue (issue 20), run from outside through the CLI: every case is one file
# under tests/hostile/<category>/ that attacks the host with a script, a data file, a hand-edited
# save, a board or an argument list, and states the clean outcome it must have: an exit code of
# 0, 1 (a rule script failed) or 2 (bad input), a message naming the place, no signal, within
# its time limit.
#
# Usage: run.sh <plateau binary> <source dir> [<category> [<case name pattern>]]
#   categories: scripts data saves boards cli files (all of them when none is given); the pattern is
#   a bash glob on the case's file name (`run.sh build/plateau . scripts 'num-*'`).
#
# A case file starts with header lines `-- key: value` (the same in every category, Lua
# comments in a script); the first line that does not start with `--` begins the body. Keys:
#   -- <text without a colon-key>  what the case is (any number of lines)
#   -- class: N                    the class of issue 20 it covers (1..7; 0 for general abuse), or
#                                  30.N for the classes of issue 30 (1 no shell, 2 one reader, 3 one
#                                  writer, 4 saves, 5 bounded work, 6 the studio, 7 numbers and text,
#                                  8 failing fast); catalogue_counts.sh counts them
#   -- command: ARGS               the plateau arguments, split like a shell line (quotes work).
#                                  Placeholders: {game} the case's game folder, {dir} the scratch
#                                  folder (the command's working directory), {src} the source
#                                  folder, {save} {dir}/save.json, {seconds:N} N seconds times
#                                  $HOSTILE_TIME_FACTOR (watch's --timeout in a command)
#   -- game: PATH                  the game, relative to the source folder (games/chenilles);
#                                  default: tests/hostile/template. Copied into {dir}/<its name>
#                                  for scripts, data and saves (they write into it); boards and
#                                  cli use it in place
#   -- file: PATH                  where the body goes, relative to the game folder. Default for
#                                  scripts: rules.lua, written as `local game = require('base') `
#                                  prefixed to the case's first line (so line N of the case file
#                                  is line N of rules.lua) and `return game` appended; with
#                                  `-- rules: whole` the case file is rules.lua as it is. Default
#                                  for data: none (give one). For boards: {dir}/board.json. JSON
#                                  bodies lose the header lines
#   -- rules: whole                (scripts) the case is the whole rules.lua, as it is
#   -- save-from-shell: BASH       (saves) instead of save-from: bash run in {dir} (with $GAME,
#                                  $PLATEAU, $DIR) that writes $DIR/save.json (a game in progress:
#                                  `timeout -s INT 3 $PLATEAU watch ... --recovery $DIR/save.json`)
#   -- save-from: ARGS             (saves) the plateau arguments that make {save} first; default
#                                  `play {game} --players 2 --seed 3 --bots random --save {save}`
#   -- edit: PERL                  (saves) perl code run on the decoded save $s (a hash, JSON::PP),
#                                  e.g. `$s->{flow}{to_move} = [7]`; several lines run in order
#   -- edit-text: PERL             (saves) perl code run on the save's text in $_, after `edit`
#                                  (`$_ = substr($_, 0, 200)`)
#                                  Saves also get {game}/tests/load_save.lua, a scenario that
#                                  calls load_game() on the edited save and then its to_move(),
#                                  moves(), score() and play_random(), for `plateau test`
#   -- prepare: SHELL              run (bash) in {dir} before the command, with $GAME, $SRC,
#                                  $PLATEAU, $DIR set; several lines run in order
#   -- stdin: TEXT                 the command's standard input (\n for newlines); default: none
#   -- step: ACTION                while the command runs (in the background), in order:
#                                  `wait TEXT` (until the output holds TEXT), `sleep S`,
#                                  `write` (the body goes to its file now, not before the start:
#                                  a hot reload for watch), `signal TERM|INT`. Without steps the
#                                  command runs in the foreground
#   -- expect-exit: N              the exit code (alternatives as 0|1); default 2
#   -- expect: TEXT                TEXT appears in stdout+stderr (grep -F); every line must hold
#   -- expect-fail: TEXT           TEXT appears when the exit code is not 0 (a case that may pass
#                                  or fail cleanly, e.g. a value within or beyond a host limit)
#   -- reject: TEXT                TEXT must not appear (a wrong name, a silent rewrite)
#   -- max-output: BYTES           the output is at most that long (a 16 MiB message is cut)
#   -- unchanged: PATH             the file (relative to {dir}) is byte-identical afterwards
#   -- expect-file: GLOB           a non-empty file matching GLOB exists under {dir} afterwards
#   -- absent: GLOB                nothing matching GLOB exists anywhere under {dir}, in /tmp or the Plateau tree's top
#                                  afterwards (a command that must not have run, a file that must
#                                  not have been written)
#   -- check: SHELL                bash run in {dir} afterwards (with $OUT the output's file, $GAME,
#                                  $DIR); it must exit 0 (the XML parses, no escape byte printed)
# Category `files` (issue 30): the game is copied into {dir} as for data, a body (when there is
# one) goes to `-- file:`; for cases about what a command reads and writes around a game folder.
#   -- limit: S                    the case must end within S seconds (default 10); it is killed
#                                  5 s later (at most at $HOSTILE_HARD_CAP, 30 s). Both are
#                                  multiplied by $HOSTILE_TIME_FACTOR (default 1; the sanitized
#                                  builds' ctest entries set 5, since ASan runs slower)
# Every case also fails on a signal or a timeout (exit code 124 or more), whatever it expects.
# Each case runs in a fresh scratch folder, with PLATEAU_HOME set to the source folder and the
# address space limited to $HOSTILE_MEM_KB (4 GiB; 0 for no limit, e.g. under ASan), so that a
# host allocation outside the scripts' cap ends as bad_alloc instead of eating the machine.
# Prints one line per case (PASS/FAIL, name, seconds; a failure adds the reason and the first
# lines of the output) and a summary; exits 1 when any case failed.
set -uo pipefail

plateau=$(readlink -f "${1:?usage: run.sh <plateau> <source dir> [category [pattern]]}")
src=$(readlink -f "${2:?usage: run.sh <plateau> <source dir> [category [pattern]]}")
only=${3:-}
pattern=${4:-*}
here=$src/tests/hostile
time_factor=${HOSTILE_TIME_FACTOR:-1}
hard_cap=$((${HOSTILE_HARD_CAP:-30} * time_factor))
mem_kb=${HOSTILE_MEM_KB:-4194304}
export PLATEAU_HOME=$src
export LC_ALL=C

work=$(mktemp -d /tmp/plateau-hostile.XXXXXX)
bg_pid=
cleanup() {
  if [ -n "$bg_pid" ]; then kill -KILL "$bg_pid" 2> /dev/null; fi
  chmod -R u+rwX "$work" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT

passed=0
failed=0
failures=()
keys=" class command game file rules save-from save-from-shell edit edit-text prepare stdin step expect-exit expect expect-fail reject max-output unchanged expect-file absent check limit "

# R = microseconds since the epoch, without a fork.
usec() { R=${EPOCHREALTIME/[.,]/}; }

# parse_case <file>: the header into H[key] (several values joined by newlines) and the line
# where the body starts into body_line.
declare -A H
parse_case() {
  H=()
  body_line=1
  local line k
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line == --* ]] || break
    body_line=$((body_line + 1))
    if [[ $line =~ ^--\ ([a-z-]+):\ ?(.*)$ ]]; then
      k=${BASH_REMATCH[1]}
      [[ $keys == *" $k "* ]] || continue
      if [ -n "${H[$k]+x}" ]; then H[$k]+=$'\n'${BASH_REMATCH[2]}; else H[$k]=${BASH_REMATCH[2]}; fi
    fi
  done < "$1"
}
first() { R=${H[$1]:-}; R=${R%%$'\n'*}; }

expand() {  # expand <text>: R = the text with the placeholders replaced
  R=$1
  R=${R//\{game\}/$game_dir}
  R=${R//\{dir\}/$case_dir}
  R=${R//\{src\}/$src}
  R=${R//\{save\}/$case_dir/save.json}
  # {seconds:N}: N seconds times $HOSTILE_TIME_FACTOR (a command's own timeout, e.g. watch's
  # --timeout, that must stay above how long the host takes to refuse the case).
  while [[ $R =~ \{seconds:([0-9]+)\} ]]; do
    R=${R/"${BASH_REMATCH[0]}"/$((BASH_REMATCH[1] * time_factor))}
  done
}

# Writes the body of the case to its file (scripts: rules.lua spliced as described above).
write_body() {
  local file=$1 target=$2
  mkdir -p "${target%/*}"
  if [ "$category" = scripts ] && [ -z "${H[file]:-}" ] && [ "${H[rules]:-}" != whole ]; then
    { printf "local game = require('base') "; cat "$file"; printf '\nreturn game\n'; } > "$target"
  elif [ "$category" = scripts ]; then
    cat "$file" > "$target"
  else
    tail -n "+$body_line" "$file" > "$target"
  fi
}

# The scenario that loads a hand-edited save through the test API.
write_load_scenario() {
  local save=$1 target=$2
  mkdir -p "${target%/*}"
  {
    echo '-- Written by tests/hostile/run.sh: load_game() on the hand-edited save, then use it.'
    echo 'local SAVE = [==========['
    cat "$save"
    echo ']==========]'
    echo 'test("load_game on a hand-edited save", function()'
    echo '  local g = load_game(SAVE)'
    echo '  local seats = g:to_move()'
    echo '  if seats[1] then g:moves(seats[1]) end'
    echo '  g:score()'
    echo '  g:play_random(50)'
    echo 'end)'
  } > "$target"
}

# The binary may be missing for a moment while it is rebuilt: wait for it (at most 3 minutes).
wait_for_binary() {
  local i
  for i in $(seq 1 180); do
    [ -x "$plateau" ] && return 0
    sleep 1
  done
  echo "no executable $plateau"
  exit 2
}

run_case() {
  local file=$1 base=${1##*/} name
  wait_for_binary
  name=$category/$base
  parse_case "$file"
  case_dir=$work/$base.d
  mkdir -p "$case_dir"
  local out=$case_dir/.output
  local reason=""
  local rel_game game_src
  first game; rel_game=${R:-tests/hostile/template}
  game_src=$src/$rel_game
  case $category in
    scripts|data|saves|files)
      game_dir=$case_dir/${game_src##*/}
      [ "$rel_game" = tests/hostile/template ] && game_dir=$case_dir/hostile
      cp -r "$game_src" "$game_dir"
      ;;
    *) game_dir=$game_src ;;
  esac

  # The body's file.
  local target_rel target="" steps=${H[step]:-}
  first file; target_rel=$R
  case $category in
    scripts) target=$game_dir/${target_rel:-rules.lua} ;;
    boards) target=${target_rel:+$game_dir/$target_rel}; target=${target:-$case_dir/board.json} ;;
    *) [ -n "$target_rel" ] && target=$game_dir/$target_rel ;;
  esac
  if [ -n "$target" ] && [[ $'\n'$steps$'\n' != *$'\n'write$'\n'* ]]; then
    write_body "$file" "$target"
  fi

  # Saves: make the save, edit it, and write the load_game() scenario.
  if [ "$category" = saves ]; then
    local from
    first save-from; from=${R:-'play {game} --players 2 --seed 3 --bots random --save {save}'}
    expand "$from"
    eval "set -- $R"
    if [ -n "${H[save-from-shell]:-}" ]; then
      (cd "$case_dir" && GAME=$game_dir PLATEAU=$plateau DIR=$case_dir timeout 60 bash -c "${H[save-from-shell]}") > "$case_dir/.save-output" 2>&1
    else
      (cd "$case_dir" && timeout 60 "$plateau" "$@" > "$case_dir/.save-output" 2>&1)
    fi
    if [ ! -s "$case_dir/save.json" ]; then
      reason="could not make the save: $(head -c 300 "$case_dir/.save-output")"
    else
      if [ -n "${H[edit]:-}" ]; then
        EDITS=${H[edit]//$'\n'/$';\n'} perl -MJSON::PP -e '
          local $/; my $t = <STDIN>; my $s = JSON::PP->new->decode($t);
          eval "$ENV{EDITS}; 1" or die $@;
          print JSON::PP->new->canonical->pretty->encode($s);' \
          < "$case_dir/save.json" > "$case_dir/save.edited" || reason="the edit failed"
        mv "$case_dir/save.edited" "$case_dir/save.json"
      fi
      if [ -n "${H[edit-text]:-}" ]; then
        EDITS=${H[edit-text]//$'\n'/$';\n'} perl -e 'local $/; $_ = <STDIN>; eval "$ENV{EDITS}; 1" or die $@; print' \
          < "$case_dir/save.json" > "$case_dir/save.edited" || reason="the text edit failed"
        mv "$case_dir/save.edited" "$case_dir/save.json"
      fi
      write_load_scenario "$case_dir/save.json" "$game_dir/tests/load_save.lua"
    fi
  fi

  # Prepare.
  local prep
  while IFS= read -r prep; do
    [ -n "$prep" ] || continue
    expand "$prep"
    (cd "$case_dir" && GAME=$game_dir SRC=$src PLATEAU=$plateau DIR=$case_dir bash -c "$R") \
      > "$case_dir/.prepare-output" 2>&1 || reason="prepare failed: $prep: $(head -c 300 "$case_dir/.prepare-output")"
  done <<< "${H[prepare]:-}"

  # The files that must not change.
  local keep
  while IFS= read -r keep; do
    [ -n "$keep" ] && [ -e "$case_dir/$keep" ] && cp -p "$case_dir/$keep" "$case_dir/$keep.hostile-before"
  done <<< "${H[unchanged]:-}"

  local limit cap stdin_text
  first limit; limit=$((${R:-10} * time_factor))
  cap=$((limit + 5))
  [ "$cap" -le "$hard_cap" ] || cap=$hard_cap
  first stdin; stdin_text=$R
  [ -n "${H[command]:-}" ] || reason="no '-- command:' line"

  local rc=0 t0 t1 elapsed_us elapsed attempt
  for attempt in 1 2 3; do
  usec; t0=$R
  if [ -z "$reason" ]; then
    first command; expand "$R"
    eval "set -- $R"
    if [ -z "$steps" ]; then
      (
        cd "$case_dir" || exit 99
        [ "$mem_kb" = 0 ] || ulimit -v "$mem_kb"
        if [ -n "$stdin_text" ]; then
          printf '%b\n' "$stdin_text" | timeout -k 5 "$cap" "$plateau" "$@" > "$out" 2>&1
        else
          timeout -k 5 "$cap" "$plateau" "$@" > "$out" 2>&1 < /dev/null
        fi
      )
      rc=$?
    else
      (
        cd "$case_dir" || exit 99
        [ "$mem_kb" = 0 ] || ulimit -v "$mem_kb"
        exec timeout -k 5 "$cap" "$plateau" "$@" > "$out" 2>&1 < /dev/null
      ) &
      bg_pid=$!
      local step deadline=$((t0 + cap * 1000000))
      while IFS= read -r step; do
        step=${step#"${step%%[! ]*}"}
        case $step in
          wait\ *)
            local want=${step#wait }
            until grep -qF -- "$want" "$out" 2> /dev/null; do
              usec
              if ! kill -0 "$bg_pid" 2> /dev/null || [ "$R" -gt "$deadline" ]; then
                reason="step '$step': the output never held it"
                break
              fi
              sleep 0.05
            done
            ;;
          sleep\ *) sleep "${step#sleep }" ;;
          write) write_body "$file" "$target" ;;
          signal\ *)
            # $bg_pid is timeout (the subshell exec'd it), which passes the signal on to plateau.
            kill -s "${step#signal }" "$bg_pid" 2> /dev/null
            ;;
          "") ;;
          *) reason="unknown step '$step'" ;;
        esac
        [ -z "$reason" ] || break
      done <<< "$steps"
      wait "$bg_pid"
      rc=$?
      bg_pid=
    fi
  fi
  # 126/127: the binary could not be run (it is being relinked): wait and run the case again.
  if [ "$rc" -ne 126 ] && [ "$rc" -ne 127 ]; then break; fi
  sleep 30
  wait_for_binary
  done
  usec; t1=$R
  elapsed_us=$((t1 - t0))
  elapsed=$((elapsed_us / 1000000)).$(((elapsed_us / 100000) % 10))

  # The checks.
  if [ -z "$reason" ]; then
    local want_exit
    first expect-exit; want_exit=${R:-2}
    if [ "$rc" -eq 126 ] || [ "$rc" -eq 127 ]; then
      reason="could not run $plateau (exit $rc)"
    elif [ "$rc" -ge 124 ]; then
      if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        reason="timed out (killed after ${cap}s)"
      else
        reason="exit $rc (signal $((rc - 128)))"
      fi
    elif [[ "|$want_exit|" != *"|$rc|"* ]]; then
      reason="exit $rc, expected $want_exit"
    elif [ "$elapsed_us" -gt $((limit * 1000000)) ]; then
      reason="took ${elapsed}s, over the ${limit}s limit"
    fi
  fi
  if [ -z "$reason" ]; then
    local want
    while IFS= read -r want; do
      [ -n "$want" ] || continue
      expand "$want"
      if ! grep -qF -- "$R" "$out"; then reason="the output lacks '$R'"; break; fi
    done <<< "${H[expect]:-}"
  fi
  if [ -z "$reason" ] && [ "$rc" -ne 0 ]; then
    local want_fail
    while IFS= read -r want_fail; do
      [ -n "$want_fail" ] || continue
      expand "$want_fail"
      if ! grep -qF -- "$R" "$out"; then reason="exit $rc and the output lacks '$R'"; break; fi
    done <<< "${H[expect-fail]:-}"
  fi
  if [ -z "$reason" ]; then
    local max_output size
    first max-output; max_output=$R
    if [ -n "$max_output" ]; then
      size=$(stat -c %s "$out")
      [ "$size" -le "$max_output" ] || reason="$size bytes of output, over $max_output"
    fi
  fi
  if [ -z "$reason" ]; then
    local bad
    while IFS= read -r bad; do
      [ -n "$bad" ] || continue
      if grep -qF -- "$bad" "$out"; then reason="the output holds '$bad'"; break; fi
    done <<< "${H[reject]:-}"
  fi
  if [ -z "$reason" ]; then
    while IFS= read -r keep; do
      [ -n "$keep" ] || continue
      if [ ! -e "$case_dir/$keep" ] || ! cmp -s "$case_dir/$keep" "$case_dir/$keep.hostile-before"; then
        reason="$keep changed"
        break
      fi
    done <<< "${H[unchanged]:-}"
  fi
  if [ -z "$reason" ]; then
    local glob found
    while IFS= read -r glob; do
      [ -n "$glob" ] || continue
      found=$(find "$case_dir" -name "$glob" -size +0 -print -quit 2> /dev/null)
      if [ -z "$found" ]; then reason="no file $glob"; break; fi
    done <<< "${H[expect-file]:-}"
  fi
  if [ -z "$reason" ]; then
    local gone
    while IFS= read -r gone; do
      [ -n "$gone" ] || continue
      # The Plateau tree too: a program started from another folder (tune's runners) would
      # leave an injected file there.
      found=$( { find "$case_dir" -name "$gone" -print -quit; find /tmp "$src" -maxdepth 1 -name "$gone" -print -quit; } 2> /dev/null | head -1)
      if [ -n "$found" ]; then reason="$found exists: it must not"; break; fi
    done <<< "${H[absent]:-}"
  fi
  if [ -z "$reason" ]; then
    local chk
    while IFS= read -r chk; do
      [ -n "$chk" ] || continue
      expand "$chk"
      if ! (cd "$case_dir" && OUT=$out GAME=$game_dir DIR=$case_dir bash -c "$R") > "$case_dir/.check-output" 2>&1; then
        reason="check failed: $chk: $(head -c 300 "$case_dir/.check-output")"
        break
      fi
    done <<< "${H[check]:-}"
  fi

  if [ -z "$reason" ]; then
    echo "PASS $name (${elapsed}s)"
    passed=$((passed + 1))
  else
    echo "FAIL $name (${elapsed}s): $reason"
    head -c 2000 "$out" 2> /dev/null | head -n 6 | cut -c 1-300 | sed 's/^/    | /'
    echo
    failed=$((failed + 1))
    failures+=("$name")
  fi
  chmod -R u+rwX "$case_dir" 2> /dev/null
  rm -rf "$case_dir"
}

categories=(scripts data saves boards cli files)
[ -z "$only" ] || categories=("$only")
for category in "${categories[@]}"; do
  [ -d "$here/$category" ] || { echo "no category '$category' in $here"; exit 2; }
  for file in "$here/$category"/*; do
    [ -f "$file" ] || continue
    # shellcheck disable=SC2254
    case ${file##*/} in $pattern) ;; *) continue ;; esac
    run_case "$file"
  done
done
echo "$passed passed, $failed failed"
if [ "$failed" -gt 0 ]; then
  printf 'failed: %s\n' "${failures[@]}"
  exit 1
fi
exit 0
