#!/usr/bin/env bash
# Runs every workload the simt binary knows, functionally, and counts the
# ones whose output matches their CPU reference.
set -uo pipefail
simt=${1:-build/bin/simt}
pass=0
fail=0
for w in $("$simt" list | awk '{print $1}'); do
  if out=$("$simt" run "$w" --functional 2>&1); then
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
