#!/usr/bin/env bash
# Installs the Debian packages simtlab uses, only those missing.  Runs
# `apt-get update` at most once, and only when something must be installed.
# Then the Python packages the study runner's charts need (pinned in
# scripts/studylib/requirements.txt) into a virtual environment, build/venv,
# which scripts/study.py runs in.
# Idempotent: a second run with everything present does nothing.
set -euo pipefail

packages=(
  gcc make binutils        # C toolchain
  clang libclang-rt-14-dev # libFuzzer and sanitizer runtimes (parser fuzzing)
  cppcheck                 # make lint
  verilator yosys opensta iverilog gtkwave qflow-tech-osu018  # RTL flow
  python3 python3-venv     # experiment scripts, workload table, study runner
  time                     # make bench: peak memory
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
debian_install() {
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
}
[ ${#missing[@]} -eq 0 ] || debian_install

# The study runner's pinned Python packages (matplotlib for its charts).
cd "$(dirname "$0")/.."
req=scripts/studylib/requirements.txt
venv=build/venv
if ! cmp -s "$req" "$venv/requirements.installed" 2>/dev/null ||
   ! "$venv/bin/python3" -c 'import matplotlib' 2>/dev/null; then
  echo "deps: installing $(grep -v '^#' "$req" | tr '\n' ' ')into $venv"
  rm -rf "$venv"
  if python3 -m venv "$venv" &&
     "$venv/bin/python3" -m pip install -q --disable-pip-version-check -r "$req"; then
    cp "$req" "$venv/requirements.installed"
  else  # the simulator needs none of it: go on, and try again next time
    rm -rf "$venv"
    echo "deps: warning: could not install $req: study charts (PNG) will be missing" >&2
  fi
fi
