#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (run as root):
#   bash tools/bootstrap.sh install  install the Debian packages only
#   bash tools/bootstrap.sh demo   install, build, play a 4-player Savane game between bots
#   bash tools/bootstrap.sh test   install (clang too), then what CI runs:
#                                  - build in build/ and run every test there, the hostile
#                                    catalogue of tests/hostile included;
#                                  - the sanitized build (build-fuzz: clang, AddressSanitizer,
#                                    UndefinedBehaviorSanitizer, libFuzzer's coverage) and every
#                                    test again there, the per-game conformance and after-reload
#                                    entries on fewer games (PLATEAU_SANITIZED_GAMES, default 3);
#                                  - each libFuzzer harness of tests/fuzz for FUZZ_RUNS inputs
#                                    (default 1000) on its seed corpus, libFuzzer seed 1.
#                                  Any test failure, sanitizer report or fuzzer finding fails it.
#   bash tools/bootstrap.sh hardening
#                                  the same sanitized build and tests with the per-game entries
#                                  at their full size (30 and 5 games), then each harness for
#                                  FUZZ_RUNS inputs (default 3000, at most FUZZ_SECONDS seconds
#                                  each, default 180), libFuzzer seed FUZZ_SEED (default 1; 0: a
#                                  new one). About 40 minutes on 2 cores.
#   bash tools/bootstrap.sh bench  install, build, run build/plateau-bench
#   bash tools/bootstrap.sh fuzz [seconds] [harness...]
#                                  install, build the fuzzers, run each harness (or the ones
#                                  named, e.g. fuzz_hooks) for `seconds` (default 600) with no
#                                  run limit. New inputs go to build-fuzz/corpus/<harness> (kept
#                                  between runs; the seed corpus in tests/fuzz/corpus is only
#                                  read), crashing inputs to build-fuzz/findings/, logs to
#                                  build-fuzz/logs/. tests/fuzz/README.md says what to do with a
#                                  finding.
# Packages come from Debian only; the list lives here and nowhere else.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake pkg-config liblua5.4-dev libboost-graph-dev libspdlog-dev
          nlohmann-json3-dev libvalijson-dev libgtest-dev libcli11-dev
          libcpp-httplib-dev libjs-chart.js chromium fonts-noto-color-emoji
          libnlopt-cxx-dev lua-check parallel rsync
          libcairo2-dev libpango1.0-dev fonts-dejavu-core poppler-utils
          slurmctld slurmd slurm-client munge openssh-server)
# fonts-noto-color-emoji: the icons games' looks give (data/look.json) in the studio's headless
# browser tests and their screenshots; libnlopt-cxx-dev: plateau tune's optimiser; lua-check: plateau lint; parallel and rsync:
# docs/scale.md's GNU parallel recipes (rsync for --return and --basefile), run by tests;
# slurmctld, slurmd, slurm-client, munge: the one-node Slurm cluster that runs its Slurm recipes;
# openssh-server: the sshd that its --sshlogin recipe logs in to. Those tests start the daemons
# themselves, each with its own configuration, key, ports and sockets in a temporary folder, and
# never use the system's services, which install_packages keeps from starting.
# libcairo2-dev, libpango1.0-dev, fonts-dejavu-core: plateau print and export tts draw the cards
# (designer/print, the only code that includes them); poppler-utils: the print tests open the PDF
# (pdfinfo, pdftotext, pdftoppm).
# The sanitized build's compiler and libFuzzer (test, hardening and fuzz).
FUZZ_PACKAGES=(clang libclang-rt-14-dev)

install_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    # Debian starts a package's service on install (munge, sshd on port 22...). Nothing here
    # needs them, so a policy-rc.d (invoke-rc.d(8); deb-systemd-invoke reads it too) answers
    # "not now" for the time of the install, unless the machine already has one.
    local policy=/usr/sbin/policy-rc.d ours=""
    if [ ! -e "$policy" ]; then
      printf '#!/bin/sh\n# tools/bootstrap.sh: no service starts while it installs packages\nexit 101\n' |
        $sudo tee "$policy" >/dev/null
      $sudo chmod 755 "$policy"
      ours=1
    fi
    local rc=0
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" || rc=$?
    [ -z "$ours" ] || $sudo rm -f "$policy"
    return "$rc"
  fi
}

# plateau studio's browser tests: Node.js (Debian's, unless one is already installed, such as
# NodeSource's, which bundles npm and conflicts with Debian's npm package) and playwright-core
# at the version pinned in tests/studio/package-lock.json. playwright-core drives Debian's
# chromium and downloads no browser.
install_studio_test_tools() {
  if ! command -v npm >/dev/null; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm
  fi
  (cd tests/studio && npm ci --no-audit --no-fund --loglevel=error)
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build -j "$(nproc)"
}

# The sanitized build: clang with ASan, UBSan and libFuzzer's coverage on everything, so one
# build gives the fuzz harnesses (build-fuzz/fuzz/) and the CLI and test binaries the suite runs
# under the sanitizers. -O1 and line tables only: it compiles faster than -O2 -g, and stack
# traces still name files and lines. build_sanitized GAMES RELOAD_GAMES [target...]: the sizes
# of the per-game conformance and after-reload entries, and the targets (default: all).
build_sanitized() {
  local games=$1 reload_games=$2
  shift 2
  local targets=()
  for t in "$@"; do targets+=(--target "$t"); done
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLATEAU_FUZZ=ON \
        -DPLATEAU_CONFORMANCE_GAMES="$games" -DPLATEAU_AFTER_RELOAD_GAMES="$reload_games" \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" >/dev/null
  cmake --build build-fuzz -j "$(nproc)" "${targets[@]}"
}

# Every ctest entry of the sanitized build; leaks reported (but fontconfig's caches:
# tests/sanitizers/lsan.supp), the first sanitizer error fails.
test_sanitized() {
  local suppressions=$PWD/tests/sanitizers/lsan.supp
  (cd build-fuzz &&
   ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1 \
   LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0" \
   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
   ctest --output-on-failure -j "$(nproc)")
}

# run_fuzzers RUNS SECONDS [harness...]: each harness for RUNS inputs (-1: no limit) or SECONDS,
# whichever comes first, on its seed corpus; fails when any harness reports a finding.
run_fuzzers() {
  local runs=$1 seconds=$2
  shift 2
  local names=("$@")
  if ((${#names[@]} == 0)); then
    for bin in build-fuzz/fuzz/fuzz_*; do names+=("$(basename "$bin")"); done
  fi
  mkdir -p build-fuzz/corpus build-fuzz/findings build-fuzz/logs
  local failed=()
  for name in "${names[@]}"; do
    local bin=build-fuzz/fuzz/$name seeds=tests/fuzz/corpus/$name log=build-fuzz/logs/$name.log
    [ -x "$bin" ] || { echo "no harness $bin" >&2; return 2; }
    mkdir -p "build-fuzz/corpus/$name"
    local start=$SECONDS
    if ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
       "$bin" -seed="${FUZZ_SEED:-0}" -runs="$runs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
              -artifact_prefix="build-fuzz/findings/$name-" "build-fuzz/corpus/$name" "$seeds" >"$log" 2>&1; then
      echo "$name: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') runs, $((SECONDS - start)) s, no finding"
    else
      echo "$name: FINDING after $((SECONDS - start)) s (log: $log)"
      grep -E "ERROR: |runtime error|plateau fuzz finding|Test unit written|SUMMARY" "$log" | head -20 || true
      tail -40 "$log"
      failed+=("$name")
    fi
  done
  if ((${#failed[@]})); then
    echo "fuzzing found problems in: ${failed[*]} (inputs in build-fuzz/findings/)" >&2
    return 1
  fi
}

case "${1:-}" in
  install)
    install_packages
    ;;
  demo)
    install_packages; build
    ./build/plateau play ecosysteme-savane --players 4 --seed 1 --bots greedy,random,greedy,random
    ;;
  test)
    PACKAGES+=("${FUZZ_PACKAGES[@]}")
    install_packages; install_studio_test_tools; build
    (cd build && ctest --output-on-failure -j "$(nproc)")
    echo "== every test again under AddressSanitizer and UndefinedBehaviorSanitizer (build-fuzz)"
    games=${PLATEAU_SANITIZED_GAMES:-3}
    build_sanitized "$games" 1; test_sanitized
    echo "== the fuzz harnesses on their seed corpus"
    # A fixed seed: the same inputs on every run of the same code, so a red CI is a change's doing.
    FUZZ_SEED=${FUZZ_SEED:-1} run_fuzzers "${FUZZ_RUNS:-1000}" "${FUZZ_SECONDS:-120}"
    ;;
  hardening)
    PACKAGES+=("${FUZZ_PACKAGES[@]}")
    install_packages
    echo "== every test under AddressSanitizer and UndefinedBehaviorSanitizer (build-fuzz)"
    build_sanitized 30 5; test_sanitized
    echo "== the fuzz harnesses on their seed corpus"
    FUZZ_SEED=${FUZZ_SEED:-1} run_fuzzers "${FUZZ_RUNS:-3000}" "${FUZZ_SECONDS:-180}"
    ;;
  bench)
    install_packages; build
    ./build/plateau-bench
    ;;
  fuzz)
    seconds=${2:-600}
    PACKAGES+=("${FUZZ_PACKAGES[@]}")
    install_packages
    build_sanitized 3 1 $(cd tests/fuzz && ls fuzz_*.cc | sed 's/\.cc$//')
    run_fuzzers -1 "$seconds" "${@:3}"
    ;;
  *)
    echo "usage: bash tools/bootstrap.sh install|demo|test|hardening|bench|fuzz [seconds] [harness...]" >&2
    exit 2
    ;;
esac
