#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (run as root):
#   bash tools/bootstrap.sh demo   install, build, play a 4-player Savane game between bots
#   bash tools/bootstrap.sh test   install, build, run every test (what CI runs)
#   bash tools/bootstrap.sh bench  install, build, run build/plateau-bench
# Packages come from Debian only; the list lives here and nowhere else.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake pkg-config liblua5.4-dev libboost-graph-dev libspdlog-dev
          nlohmann-json3-dev libvalijson-dev libgtest-dev libcli11-dev)

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

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build -j "$(nproc)"
}

case "${1:-}" in
  demo)
    install_packages; build
    ./build/plateau play ecosysteme-savane --players 4 --seed 1 --bots greedy,random,greedy,random
    ;;
  test)
    install_packages; build
    cd build && ctest --output-on-failure -j "$(nproc)"
    ;;
  bench)
    install_packages; build
    ./build/plateau-bench
    ;;
  *)
    echo "usage: bash tools/bootstrap.sh demo|test|bench" >&2
    exit 2
    ;;
esac
