#!/usr/bin/env bash
# Runs the warp arbiter testbench binaries (built by `make tb-build`): the
# default parameters (N 24, CNT_W 32, WOPT_W 6: directed cases plus random)
# and a small configuration (N 5, CNT_W 3, WOPT_W 3: counter saturation,
# out-of-range indices, W_Opt clamps at a small N), in parallel, then
# verilator lint.  Ends with the summed "N passed, N failed".
set -uo pipefail
dir=${1:-build/tb/warp_arbiter}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$dir/wa24/tb_wa24" >"$tmp/wa24.log" 2>&1 &
p1=$!
"$dir/wa5/tb_wa5" >"$tmp/wa5.log" 2>&1 &
p2=$!
wait $p1; rc1=$?
wait $p2; rc2=$?
pass=0; fail=0
for f in wa24 wa5; do
  echo "== $f"
  cat "$tmp/$f.log"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/$f.log" | tail -n 1)
  if [ -z "$line" ]; then fail=$((fail + 1)); continue; fi
  pass=$((pass + ${line%% passed*}))
  f_=${line##*, }; fail=$((fail + ${f_%% failed*}))
done
[ "$rc1" -ne 0 ] || [ "$rc2" -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
if verilator --lint-only -Wall rtl/warp_arbiter.sv >"$tmp/lint.log" 2>&1; then
  echo "ok verilator --lint-only -Wall"; pass=$((pass + 1))
else
  cat "$tmp/lint.log"; echo "FAIL verilator --lint-only -Wall"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
