#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (run as root):
#   bash tools/bootstrap.sh demo   install, build, play a 4-player Savane game between bots
#   bash tools/bootstrap.sh test   install, build, run every test (what CI runs), the hostile
#                                  catalogue of tests/hostile included
#   bash tools/bootstrap.sh hardening
#                                  install (clang too), then:
#                                  - the whole project again in build-asan with AddressSanitizer and
#                                    UndefinedBehaviorSanitizer (-DPLATEAU_SANITIZE=ON) and every
#                                    test there (leaks reported, the first error fails the run);
#                                  - the libFuzzer harnesses of tests/fuzz, built with clang in
#                                    build-fuzz, each run FUZZ_RUNS times (default 3000, at most
#                                    FUZZ_SECONDS seconds each, default 180) on its seed corpus,
#                                    with libFuzzer's seed FUZZ_SEED (default 1; 0: a new one).
#                                  Any test failure, sanitizer report or fuzzer finding fails it.
#                                  (About 45 minutes on 2 cores; not yet part of .ci/run.)
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
          libcpp-httplib-dev libjs-chart.js chromium)
# The fuzzers' compiler and libFuzzer, for `hardening` and `fuzz` only.
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
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
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

# Sanitizer builds use -O1 and line tables only: they compile faster than -O2 -g, and stack
# traces still name files and lines.
build_asan() {
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLATEAU_SANITIZE=ON \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" >/dev/null
  # What ctest runs: the CLI and the two test binaries (not the benchmark).
  cmake --build build-asan -j "$(nproc)" --target plateau host_tests scripting_tests
}

test_asan() {
  (cd build-asan &&
   ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1 \
   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
   ctest --output-on-failure -j "$(nproc)")
}

build_fuzz() {
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLATEAU_FUZZ=ON \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" >/dev/null
  cmake --build build-fuzz -j "$(nproc)"
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
  demo)
    install_packages; build
    ./build/plateau play ecosysteme-savane --players 4 --seed 1 --bots greedy,random,greedy,random
    ;;
  test)
    install_packages; install_studio_test_tools; build
    (cd build && ctest --output-on-failure -j "$(nproc)")
    ;;
  hardening)
    PACKAGES+=("${FUZZ_PACKAGES[@]}")
    install_packages; build
    echo "== the tests again under AddressSanitizer and UndefinedBehaviorSanitizer (build-asan)"
    build_asan; test_asan
    echo "== the fuzz harnesses on their seed corpus (build-fuzz)"
    build_fuzz
    # A fixed seed: the same inputs on every run of the same code, so a red CI is a change's doing.
    FUZZ_SEED=${FUZZ_SEED:-1} run_fuzzers "${FUZZ_RUNS:-3000}" "${FUZZ_SECONDS:-180}"
    ;;
  bench)
    install_packages; build
    ./build/plateau-bench
    ;;
  fuzz)
    seconds=${2:-600}
    PACKAGES+=("${FUZZ_PACKAGES[@]}")
    install_packages; build_fuzz
    run_fuzzers -1 "$seconds" "${@:3}"
    ;;
  *)
    echo "usage: bash tools/bootstrap.sh demo|test|hardening|bench|fuzz [seconds] [harness...]" >&2
    exit 2
    ;;
esac
