#!/usr/bin/env bash
# Scratchpad Sharing's lock table in lockstep (docs/units/share_lock_table.md,
# docs/cosim.md): seed-000 workloads under every configs/000/*.cfg with
# --cosim all (every warp arbiter and every SM's lock table against their
# RTL; Unshared-2level has neither unit: 0 unit-cycles) end with 0 mismatches and pass their CPU reference check; every
# co-simulation coverage bin of share_lock_table is hit; the RTL driving
# the model gives the plain run's cycle count.  The default set is the
# cheap workloads that between them reach every bin (a few seconds per
# configuration); COSIM_SSP_ALL=1 runs every seed-000 workload (the meta
# sections whose `paper = 000`).  Builds the plugin (make cosim) first.
# The last line is "N passed, N failed".
set -uo pipefail
simt=${1:-build/bin/simt}
build=$(dirname "$(dirname "$simt")")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | head -n 12 | sed 's/^/    /'; }

if ! make -s BUILD="$build" cosim >"$tmp/build.log" 2>&1; then
  bad "make cosim" "$(tail -n 20 "$tmp/build.log")"
  echo "$pass passed, $fail failed"
  exit 1
fi

if [ "${COSIM_SSP_ALL:-0}" = 1 ]; then
  workloads=$(awk '/^\[/ { sec = substr($1, 2, length($1) - 2) }
                   /^paper *= *000/ { print sec }' workloads/*/meta)
else
  # dct3: releases by relssp, with and without the lock (OPT, PostDom);
  # histogram256 and nw1: transfers at completion and blocks placed into
  # freed slots (no relssp under Shared-LRR/GTO/OWF); fdtd3d: 2 unshared
  # slots beside 2 pairs.
  workloads="dct3 histogram256 nw1 fdtd3d"
fi

units=0
for w in $workloads; do
  for cfg in configs/000/*.cfg; do
    name="$w $(basename "$cfg" .cfg)"
    out=$("$simt" run "$w" --config "$cfg" --quiet --cosim all 2>&1); rc=$?
    grep "^cosim coverage share_lock_table" <<<"$out" >>"$tmp/coverage"
    if [ "$rc" -eq 0 ] && grep -q "PASS" <<<"$out" &&
       tail -n 1 <<<"$out" | grep -Eq "^cosim: [0-9]+ unit-cycles compared, 0 mismatches"; then
      ok "$name: $(tail -n 1 <<<"$out")"
      grep -q "^cosim coverage share_lock_table: launch=[1-9]" <<<"$out" && units=$((units + 1))
    else
      bad "$name (exit $rc)" "$(tail -n 12 <<<"$out")"
    fi
  done
done
# The lock table was really in the loop (sharing launched on some runs).
if [ "$units" -gt 0 ]; then ok "share_lock_table launched in $units runs"; else bad "share_lock_table never launched"; fi

# Every coverage bin of the lock table hit by the runs above.
zero=$(python3 - "$tmp/coverage" <<'PY'
import sys
tot = {}
for line in open(sys.argv[1]):
    for item in line.partition(": ")[2].strip().split("; "):
        name, _, n = item.rpartition("=")
        tot[name] = tot.get(name, 0) + int(n)
print("; ".join(k for k, v in tot.items() if v == 0) if tot else "no coverage line")
PY
)
if [ -z "$zero" ]; then ok "share_lock_table coverage: every bin hit"; else bad "share_lock_table bins never hit" "$zero"; fi

# The RTL in the loop: the lock table's (and the arbiters') RTL outputs
# drive the model; the cycles are the plain run's.
for pair in "histogram256 shared-owf" "dct3 shared-owf-opt" "nw1 shared-lrr"; do
  set -- $pair
  plain=$("$simt" run "$1" --config "configs/000/$2.cfg" --quiet --json "$tmp/p.json" >/dev/null 2>&1; \
          python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"]["gpu_sim_cycle"])' "$tmp/p.json")
  drv=$("$simt" run "$1" --config "configs/000/$2.cfg" --quiet --cosim all --cosim-rtl-drives \
          --json "$tmp/d.json" >/dev/null 2>&1; \
        python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"]["gpu_sim_cycle"])' "$tmp/d.json")
  if [ -n "$plain" ] && [ "$plain" = "$drv" ]; then
    ok "RTL in the loop, $1 $2: $drv cycles, as the plain run"
  else
    bad "RTL in the loop, $1 $2: $drv cycles, plain run $plain"
  fi
  rm -f "$tmp/p.json" "$tmp/d.json"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
