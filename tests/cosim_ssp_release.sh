#!/usr/bin/env bash
# cosim_ssp_release.sh [SIMT] [--full]: Scratchpad Sharing's relssp release
# unit (docs/units/relssp_release.md) in lockstep with its verilated RTL,
# with every other unit (--cosim all), on the seed-000 workloads (the meta
# sections whose `paper = 000 ...`, as tests/ssp_workloads.sh) under the
# configurations of configs/000, at default size.  Each run must pass its
# CPU reference check and end with 0 mismatches; under a Shared-*
# configuration the release unit must have been clocked.  Then the RTL in
# the loop (--cosim-rtl-drives): the same statistics as the C model alone.
#
# Default (make test, about 2 minutes on 2 cores): every workload under
# Shared-OWF-OPT (optimal relssp placement: most release events) and
# Shared-LRR (relssp at the exit, no compiler pass), and each other
# configuration on four workloads.  --full: every workload under every
# configuration (216 runs).  The last line is "N passed, N failed".
set -uo pipefail
simt=build/bin/simt
full=0
for a in "$@"; do
  case $a in --full) full=1 ;; *) simt=$a ;; esac
done
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

workloads=$(awk '/^\[/ { sec = substr($1, 2, length($1) - 2) }
                 /^paper *= *000/ { print sec }' workloads/*/meta)
few="backprop dct1 nw1 srad1"
jobs=()
for c in configs/000/*.cfg; do
  name=$(basename "$c" .cfg)
  case $name in shared-owf-opt|shared-lrr) ws=$workloads ;; *) ws=$few ;; esac
  [ "$full" -eq 1 ] && ws=$workloads
  for w in $ws; do jobs+=("$w $name"); done
done

# one run: PASS, 0 mismatches over >0 unit-cycles, and when the kernel
# pairs CTAs (ssp_pairs > 0: a sharing kernel) a relssp_release coverage
# line (the unit was clocked); two at a time
one() {
  local w=$1 name=$2 out rc pairs
  out=$("$simt" run "$w" --config "configs/000/$name.cfg" --cosim all --quiet \
        --json "$tmp/j.$w.$name" 2>&1); rc=$?
  pairs=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['stats']['ssp_pairs'])" \
          "$tmp/j.$w.$name" 2>/dev/null || echo 0)
  {
    echo "$out" | grep "^cosim coverage relssp_release" >"$tmp/cov.$w.$name"
    # (Unshared-2level: the two-level scheduler has no RTL and nothing is
    # shared, so no unit is clocked: 0 unit-cycles)
    local n='[1-9][0-9]*'
    [ "$name" = unshared-2level ] && n='0'
    if [ "$rc" -ne 0 ] || ! grep -q "PASS" <<<"$out" ||
       ! echo "$out" | tail -n 1 | grep -Eq "^cosim: $n unit-cycles compared, 0 mismatches"; then
      echo "FAIL cosim $w $name (exit $rc)"; echo "$out" | tail -n 12 | sed 's/^/    /'
    elif [ "$pairs" -gt 0 ] && [ ! -s "$tmp/cov.$w.$name" ]; then
      echo "FAIL cosim $w $name: $pairs pairs, but the release unit was never clocked"
    else
      echo "ok cosim $w $name: $(echo "$out" | tail -n 1)"
    fi
  } >"$tmp/res.$w.$name"
}
export -f one
export simt tmp
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c 'one "$0" "$1"'
for j in "${jobs[@]}"; do
  set -- $j
  r=$(cat "$tmp/res.$1.$2" 2>/dev/null || echo "FAIL cosim $1 $2: no result")
  echo "$r"
  case $r in ok*) pass=$((pass + 1)) ;; *) fail=$((fail + 1)) ;; esac
done

# The release unit's co-simulation bins, summed over the runs: the ones a
# real workload reaches must be hit (the others are the testbench's:
# docs/units/relssp_release.md, Verification).
cat "$tmp"/cov.* >"$tmp/coverage" 2>/dev/null
zero=$(python3 - "$tmp/coverage" <<'PY'
import sys
tot = {}
for line in open(sys.argv[1]):
    head, _, body = line.partition(": ")
    for item in body.strip().split("; "):
        name, _, n = item.rpartition("=")
        tot[name] = tot.get(name, 0) + int(n)
need = ["relssp by part of a warp's unreleased lanes", "relssp releases its block",
        "an exit releases its block", "CTA slot reused (cleared with rows)"]
print("; ".join(n for n in need if tot.get(n, 0) == 0) if tot else "no coverage line")
open(sys.argv[1] + ".sum", "w").write("; ".join("%s=%d" % kv for kv in tot.items()))
PY
)
if [ -z "$zero" ]; then
  ok "relssp_release coverage over $(grep -c . "$tmp/coverage") runs: $(cat "$tmp/coverage.sum")"
else
  bad "relssp_release coverage: bins never hit" "$zero"
fi

# The RTL in the loop: the RTL's all_released_o decides the releases, and
# every statistic of the run is the C model's.
stats() { python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['stats']; print(' '.join('%s=%s' % (k, d[k]) for k in sorted(d) if not k.startswith('cosim')))" "$1"; }
for wc in "dct1 shared-owf-opt" "nw1 shared-owf" "srad2 shared-lrr"; do
  set -- $wc
  "$simt" run "$1" --config "configs/000/$2.cfg" --quiet --json "$tmp/plain.json" >/dev/null 2>&1
  out=$("$simt" run "$1" --config "configs/000/$2.cfg" --quiet --cosim all --cosim-rtl-drives \
        --json "$tmp/rtl.json" 2>&1)
  if [ -s "$tmp/plain.json" ] && [ -s "$tmp/rtl.json" ] &&
     [ "$(stats "$tmp/plain.json")" = "$(stats "$tmp/rtl.json")" ] &&
     echo "$out" | tail -n 1 | grep -q "0 mismatches (the RTL drove the model)"; then
    ok "RTL in the loop ($1 $2): $(stats "$tmp/plain.json" | grep -oE 'gpu_sim_cycle=[0-9]+'), every statistic as with the C twin"
  else
    bad "RTL in the loop ($1 $2)" "$(echo "$out" | tail -n 5)"
  fi
  rm -f "$tmp/plain.json" "$tmp/rtl.json"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
