#!/usr/bin/env bash
# Installs the Debian packages simtlab uses, only those missing.  Runs
# `apt-get update` at most once, and only when something must be installed.
# Idempotent: a second run with everything present does nothing.
set -euo pipefail

packages=(
  gcc make binutils        # C toolchain
  clang libclang-rt-14-dev # libFuzzer and sanitizer runtimes (parser fuzzing)
  cppcheck                 # make lint
  verilator yosys opensta iverilog gtkwave qflow-tech-osu018  # RTL flow
  python3                  # experiment scripts, workload table
  time                     # make bench: peak memory
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "deps: error: need root (or sudo) to install: ${missing[*]}" >&2
    exit 2
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
