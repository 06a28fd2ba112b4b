#!/usr/bin/env bash
# run.sh TB...: runs the testbench binaries `make tb-build` made (two at a
# time), then verilator -Wall lint of every unit; ends with the summed
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
tbs=("$@")
for ((i = 0; i < ${#tbs[@]}; i += 2)); do
  pids=()
  for t in "${tbs[@]:i:2}"; do
    log="$tmp/$(echo "$t" | tr / _).log"
    "$t" >"$log" 2>&1 &
    pids+=($!)
  done
  rcs=()
  for p in "${pids[@]}"; do wait "$p"; rcs+=($?); done
  k=0
  for t in "${tbs[@]:i:2}"; do
    log="$tmp/$(echo "$t" | tr / _).log"
    echo "== $t"; cat "$log"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$line" ]; then fail=$((fail + 1))
    else
      pass=$((pass + ${line%% passed*})); f_=${line##*, }; fail=$((fail + ${f_%% failed*}))
      [ "${rcs[$k]}" -ne 0 ] && [ "${f_%% failed*}" -eq 0 ] && fail=$((fail + 1))
    fi
    k=$((k + 1))
  done
done
pkgs=$(ls rtl/*_pkg.sv 2>/dev/null)
for sv in rtl/*.sv; do
  case $sv in *_pkg.sv) continue;; esac
  if verilator --lint-only -Wall $pkgs "$sv" >"$tmp/lint.log" 2>&1; then
    echo "ok verilator --lint-only -Wall $sv"; pass=$((pass + 1))
  else
    cat "$tmp/lint.log"; echo "FAIL verilator --lint-only -Wall $sv"; fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
