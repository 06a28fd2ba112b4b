#!/usr/bin/env bash
# cosim_ssp_test.sh [SIMT] [--full]: Scratchpad Sharing's two RTL units in
# lockstep (docs/cosim.md): the lock table (docs/units/share_lock_table.md)
# and the relssp release unit (docs/units/relssp_release.md), with every
# warp arbiter (--cosim all), on the seed-000 workloads (the meta sections
# whose `paper = 000 ...`) under the configurations of configs/000, at
# default size.  Each run must pass its CPU reference check and end with 0
# mismatches over some unit-cycles (Unshared-2level has no unit with RTL:
# 0); summed over the runs, every co-simulation bin of the lock table and
# the release unit's bins a real workload reaches are hit.  Then the RTL in
# the loop (--cosim-rtl-drives): every statistic as the C model alone's.
# Last, a broken release unit (a mutant): caught, and the replay's waveform
# window keeps its times rising through several clocks of one cycle.
#
# Default (make test, about 2 minutes on 2 cores): every workload under
# Shared-OWF-OPT (optimal relssp placement: most release events) and
# Shared-LRR (relssp at the exit, no compiler pass), and every other
# configuration on four workloads that between them reach every lock-table
# bin (dct3: releases by relssp with and without the lock; histogram256 and
# nw1: transfers at completion, blocks placed into freed slots; fdtd3d: two
# unshared slots beside two pairs).  --full (or COSIM_SSP_ALL=1): every
# workload under every configuration.  Builds the plugin (make cosim)
# first.  The last line is "N passed, N failed".
set -uo pipefail
simt=build/bin/simt
full=${COSIM_SSP_ALL:-0}
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
few="dct3 histogram256 nw1 fdtd3d"
jobs=()
for c in configs/000/*.cfg; do
  name=$(basename "$c" .cfg)
  case $name in shared-owf-opt|shared-lrr) ws=$workloads ;; *) ws=$few ;; esac
  [ "$full" = 1 ] && ws=$workloads
  for w in $ws; do jobs+=("$w $name"); done
done

# one run, two at a time: PASS and 0 mismatches over >0 unit-cycles; its
# coverage lines kept for the sums below
one() {
  local w=$1 name=$2 out rc n='[1-9][0-9]*'
  out=$("$simt" run "$w" --config "configs/000/$name.cfg" --cosim all --quiet 2>&1); rc=$?
  grep "^cosim coverage \(share_lock_table\|relssp_release\)" <<<"$out" >"$tmp/cov.$w.$name"
  [ "$name" = unshared-2level ] && n='0'
  if [ "$rc" -ne 0 ] || ! grep -q "PASS" <<<"$out" ||
     ! tail -n 1 <<<"$out" | grep -Eq "^cosim: $n unit-cycles compared, 0 mismatches"; then
    { echo "FAIL cosim $w $name (exit $rc)"; tail -n 12 <<<"$out" | sed 's/^/    /'; } >"$tmp/res.$w.$name"
  else
    echo "ok cosim $w $name: $(tail -n 1 <<<"$out")" >"$tmp/res.$w.$name"
  fi
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

# The bins, summed over the runs.  The lock table: every bin (the runs
# above reach them all).  The release unit: the ones a real workload
# reaches (the others are the testbench's: docs/units/relssp_release.md).
cat "$tmp"/cov.* >"$tmp/coverage" 2>/dev/null
unhit() {
  python3 - "$tmp/coverage" "$@" <<'PY'
import sys
unit, need = sys.argv[2], sys.argv[3:]
tot = {}
for line in open(sys.argv[1]):
    head, _, body = line.partition(": ")
    if head != "cosim coverage " + unit:
        continue
    for item in body.strip().split("; "):
        name, _, n = item.rpartition("=")
        tot[name] = tot.get(name, 0) + int(n)
if not tot:
    print("no coverage line")
else:
    print("; ".join(k for k in (need or tot) if tot.get(k, 0) == 0))
PY
}
zero=$(unhit share_lock_table)
if [ -z "$zero" ]; then ok "share_lock_table coverage: every bin hit"; else bad "share_lock_table bins never hit" "$zero"; fi
zero=$(unhit relssp_release "relssp by part of a warp's unreleased lanes" \
       "relssp releases its block" "an exit releases its block" "CTA slot reused (cleared with rows)")
if [ -z "$zero" ]; then ok "relssp_release coverage: the workload bins hit"; else bad "relssp_release bins never hit" "$zero"; fi

# The RTL in the loop: the units' RTL outputs (the lock grants and classes,
# all_released_o, the arbiters' grants) drive the model, and every
# statistic of the run is the C model's.
stats() { python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['stats']; print(' '.join('%s=%s' % (k, d[k]) for k in sorted(d) if not k.startswith('cosim')))" "$1"; }
for wc in "histogram256 shared-owf" "dct3 shared-owf-opt" "dct1 shared-owf-opt" "nw1 shared-lrr" "srad2 shared-lrr"; do
  set -- $wc
  "$simt" run "$1" --config "configs/000/$2.cfg" --quiet --json "$tmp/plain.json" >/dev/null 2>&1
  out=$("$simt" run "$1" --config "configs/000/$2.cfg" --quiet --cosim all --cosim-rtl-drives \
        --json "$tmp/rtl.json" 2>&1)
  if [ -s "$tmp/plain.json" ] && [ -s "$tmp/rtl.json" ] &&
     [ "$(stats "$tmp/plain.json")" = "$(stats "$tmp/rtl.json")" ] &&
     tail -n 1 <<<"$out" | grep -q "0 mismatches (the RTL drove the model)"; then
    ok "RTL in the loop ($1 $2): $(stats "$tmp/plain.json" | grep -oE 'gpu_sim_cycle=[0-9]+'), every statistic as with the C twins"
  else
    bad "RTL in the loop ($1 $2)" "$(tail -n 5 <<<"$out")"
  fi
  rm -f "$tmp/plain.json" "$tmp/rtl.json"
done

# A broken release unit (its output reduces the state before the event):
# the run stops at the first mismatch, and the replay's waveform window
# gives each clock its own 10 ns although the unit is clocked once per
# event, several times in one cycle (docs/cosim.md, "Which cycles").  The
# mismatch is the second clock of cycle 0, so it must sit at t=10, and no
# time may repeat or run backwards in any of the three files.
mut="$build/mutants/relssp_reduce_before_event"
mkdir -p "$mut"
python3 tests/rtl/mutants.py --write relssp_release reduce_before_event "$tmp/mut.sv"
cmp -s "$tmp/mut.sv" "$mut/relssp_release.sv" 2>/dev/null || cp "$tmp/mut.sv" "$mut/relssp_release.sv"
if ! make -s BUILD="$mut" KIT_RTL_relssp_release="$(pwd)/$mut/relssp_release.sv" \
     VERILATOR_EXTRA=-Wno-fatal "$mut/lib/libsimt_cosim.so" >"$tmp/mbuild.log" 2>&1; then
  bad "relssp_release mutant plugin build" "$(tail -n 20 "$tmp/mbuild.log")"
else
  win="$tmp/window"
  out=$(SIMT_COSIM_PLUGIN="$mut/lib/libsimt_cosim.so" "$simt" run dct1 --param size=small \
        --config configs/000/shared-owf-opt.cfg --cosim relssp_release --cosim-dir "$win" 2>&1); rc=$?
  if [ "$rc" -eq 4 ] &&
     grep -q "^cosim: MISMATCH at cycle 0: unit relssp_release, instance 0, field all_released_o" <<<"$out"; then
    ok "broken relssp_release caught: $(grep -m1 MISMATCH <<<"$out")"
  else
    bad "broken relssp_release caught (exit $rc)" "$out"
  fi
  # the time stamps of a VCD on stdin: strictly increasing, and t among them
  rising() { awk -v t="$1" '/^#[0-9]+$/ { v = substr($0, 2) + 0; if (n && v <= last) bad = 1;
             last = v; n++; if (v == t) seen = 1 } END { exit !(n && !bad && seen) }'; }
  if [ -s "$win/side_by_side.vcd" ] && rising 10 <"$win/side_by_side.vcd" &&
     rising 10 <"$win/c_twin.vcd" && fst2vcd "$win/rtl.fst" 2>/dev/null | rising 10 &&
     grep -q 'model_cycle' "$win/side_by_side.vcd" &&
     grep -qE '^\*-?[0-9.]+ 10 ' "$win/side_by_side.gtkw"; then
    ok "relssp_release waveform window: times rise through two clocks of one cycle, view on t=10"
  else
    bad "relssp_release waveform window times" \
        "$(grep -h '^#' "$win/side_by_side.vcd" 2>&1 | tr '\n' ' '; head -n 3 "$win/side_by_side.gtkw" 2>&1)"
  fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
