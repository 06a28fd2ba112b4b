#!/usr/bin/env bash
# uninit_test.sh [SIMT]: the uninitialised-register check (--check uninit,
# docs/limits.md).  Every workload runs with it (functional) and must pass:
# no read of a register that no path has written; a crafted kernel that
# reads a register only the even threads wrote must be reported, at its
# PTX line, for thread 1, under both models.  Ends with "N passed, N failed".
set -uo pipefail
simt=${1:-build/bin/simt}
pass=0
fail=0
out=$(bash tests/run_workloads.sh "$simt" --functional --check uninit)
p=$(echo "$out" | tail -n 1 | sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/\1/')
f=$(echo "$out" | tail -n 1 | sed -E 's/^([0-9]+) passed, ([0-9]+) failed$/\2/')
echo "$out" | grep -v '^ok ' | grep -v 'passed, .* failed' || true
echo "workloads with --check uninit: $p passed, $f failed"
pass=$((pass + p)); fail=$((fail + f))
crafted=tests/limits/uninit.ptx
for model in "--functional" "--config configs/fermi-gtx480.cfg"; do
  # shellcheck disable=SC2086
  msg=$("$simt" run vecadd --ptx "$crafted" --check uninit $model 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 3 ] && echo "$msg" | grep -q "uninit.ptx:28: fault: uninitialised register: thread ([0-9]*[13579],0,0) .* reads %r3" \
     && echo "$msg" | grep -q "lanes 0xaaaaaaaa"; then
    pass=$((pass + 1)); echo "ok crafted read reported ($model)"
  else
    fail=$((fail + 1)); echo "FAIL crafted read not reported ($model): exit $rc"; echo "$msg" | head -n 5
  fi
done
# off by default: the same kernel runs (and fails its result check only)
"$simt" run vecadd --ptx "$crafted" >/dev/null 2>&1; rc=$?
if [ "$rc" -eq 1 ]; then pass=$((pass + 1)); echo "ok off by default"; else fail=$((fail + 1)); echo "FAIL off by default: exit $rc"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
