#!/usr/bin/env bash
# run_workloads.sh [SIMT [ARGS...]]: runs every workload the simt binary
# knows (with ARGS, default --functional) and counts the ones whose output
# matches their CPU reference.
set -uo pipefail
simt=${1:-build/bin/simt}
shift || true
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--functional)
pass=0
fail=0
for w in $("$simt" list | awk '{print $1}'); do
  if out=$("$simt" run "$w" "${args[@]}" 2>&1); then
    pass=$((pass + 1))
    echo "ok $w: $(echo "$out" | head -n 1)"
  else
    fail=$((fail + 1))
    echo "FAIL $w"
    echo "$out" | head -n 20
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
