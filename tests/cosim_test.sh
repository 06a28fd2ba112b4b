#!/usr/bin/env bash
# Co-simulation (sim/, docs/cosim.md): every warp arbiter of every SM in
# lockstep with its verilated RTL on real workloads, on every preset and
# policy, with the RTL driving the model, the error paths, and a broken RTL
# caught with its report and waveform window.  Builds the plugin (make
# cosim) first.  The last line is "N passed, N failed".
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

# (grep reads here-strings, not pipes: with pipefail, grep -q leaving early
# would fail the echo feeding it.)
# clean NAME ARGS...: passes, ends with 0 mismatches over >0 unit-cycles;
# its coverage line is kept for the sum at the end
clean() {
  local name=$1; shift
  local out rc
  out=$("$simt" run "$@" 2>&1); rc=$?
  echo "$out" | grep "^cosim coverage " >>"$tmp/coverage"
  if [ "$rc" -eq 0 ] && grep -q "PASS" <<<"$out" &&
     echo "$out" | tail -n 1 | grep -Eq "^cosim: [1-9][0-9]* unit-cycles compared, 0 mismatches"; then
    ok "$name: $(echo "$out" | tail -n 1)"
  else
    bad "$name (exit $rc)" "$(echo "$out" | tail -n 12)"
  fi
}

for cfg in fermi-gtx480 kepler-ss g80-dwf fermi-cta; do
  for w in vecadd backprop nn bitonic; do
    clean "cosim $w on $cfg" "$w" --config "configs/$cfg.cfg" --cosim warp_arbiter
  done
done
for pol in lrr gto owf ltlws; do
  clean "cosim policy $pol (bfs)" bfs --config configs/fermi-gtx480.cfg \
    --set gpgpu_scheduler=$pol --cosim all
done
clean "cosim ltlws with LRR inside (gaussian)" gaussian --config configs/kepler-ss.cfg \
  --set gpgpu_scheduler=ltlws --set ltlws_inner_policy=lrr --cosim warp_arbiter
# Workloads chosen for the coverage bins (docs/cosim.md): a large vecadd
# fills all 24 slots of each scheduler and reuses them after finishes;
# gaussian under LTLWS reaches W_Opt = N.
for pol in lrr gto owf ltlws; do
  clean "cosim policy $pol (vecadd n=200000: every slot, reuse)" vecadd --param n=200000 \
    --config configs/fermi-gtx480.cfg --set gpgpu_scheduler=$pol --cosim all
done
clean "cosim ltlws (gaussian: W_Opt = N)" gaussian --config configs/fermi-gtx480.cfg \
  --set gpgpu_scheduler=ltlws --cosim all
# N = 64: one scheduler holding 64 warp slots (cls_i is 128 bits wide).
clean "cosim N=64 (vecadd, one scheduler of 64 slots)" vecadd --param n=200000 \
  --config configs/fermi-gtx480.cfg --set gpgpu_shader_core_max_threads=2048 \
  --set gpgpu_num_sched_per_core=1 --set gpgpu_scheduler=ltlws --cosim all

# Every coverage bin of every unit hit by the runs above.
if [ -s "$tmp/coverage" ]; then
  zero=$(python3 - "$tmp/coverage" <<'PY'
import sys, collections
tot = collections.OrderedDict()
for line in open(sys.argv[1]):
    head, _, body = line.partition(": ")
    unit = head.split()[-1]
    for item in body.strip().split("; "):
        name, _, n = item.rpartition("=")
        tot[(unit, name)] = tot.get((unit, name), 0) + int(n)
print("; ".join("%s: %s" % k for k, v in tot.items() if v == 0))
PY
)
  if [ -z "$zero" ]; then
    ok "co-simulation coverage: every bin hit ($(grep -c . "$tmp/coverage") runs)"
  else
    bad "co-simulation coverage: bins never hit on real workloads" "$zero"
  fi
else
  bad "co-simulation coverage lines printed"
fi

# The RTL in the loop: the same unit, so the very same cycles.
for pol in gto ltlws; do
  plain=$("$simt" run backprop --config configs/fermi-gtx480.cfg --set gpgpu_scheduler=$pol 2>&1 |
          grep -m1 gpu_sim_cycle)
  out=$("$simt" run backprop --config configs/fermi-gtx480.cfg --set gpgpu_scheduler=$pol \
        --cosim warp_arbiter --cosim-rtl-drives 2>&1)
  if [ -n "$plain" ] && [ "$(echo "$out" | grep -m1 gpu_sim_cycle)" = "$plain" ] &&
     echo "$out" | tail -n 1 | grep -q "0 mismatches (the RTL drove the model)"; then
    ok "RTL in the loop ($pol): $plain, as with the C twin"
  else
    bad "RTL in the loop ($pol)" "$plain
$(echo "$out" | tail -n 5)"
  fi
done

# expect NAME STATUS PATTERN -- command...
expect() {
  local name=$1 want=$2 pat=$3; shift 4
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -eq "$want" ] && grep -Eq -- "$pat" <<<"$out"; then
    ok "$name"
  else
    bad "$name: exit $rc (want $want), pattern '$pat'" "$out"
  fi
}
expect "unknown unit" 2 "unknown unit 'frob' for --cosim" -- \
  "$simt" run vecadd --config configs/fermi-gtx480.cfg --cosim frob
expect "cosim needs timing" 2 "--cosim needs the timing model" -- \
  "$simt" run vecadd --cosim warp_arbiter
expect "cosim options without --cosim" 2 "need --cosim" -- \
  "$simt" run vecadd --config configs/fermi-gtx480.cfg --cosim-rtl-drives
expect "plugin missing" 2 "could not be loaded \(build it with .make cosim.\)" -- \
  env SIMT_COSIM_PLUGIN="$tmp/none.so" "$simt" run vecadd --config configs/fermi-gtx480.cfg --cosim all
expect "no model for these parameters" 2 "no verilated warp_arbiter with N=12 CntW=32 WoptW=6 .*kit.txt" -- \
  "$simt" run vecadd --config configs/fermi-gtx480.cfg --set gpgpu_num_sched_per_core=4 --cosim all
expect "bad seed" 2 "--cosim-seed 'x' is not a number" -- \
  "$simt" run vecadd --config configs/fermi-gtx480.cfg --cosim all --cosim-seed x

# A broken RTL: GTO picks the youngest warp.  The run stops at the first
# mismatch with the report, and the replay writes the waveform window.
mut="$build/mutants/cosim_gto_youngest"
mkdir -p "$mut"
python3 tests/rtl/mutants.py --write warp_arbiter gto_youngest "$tmp/mut.sv"
cmp -s "$tmp/mut.sv" "$mut/warp_arbiter.sv" 2>/dev/null || cp "$tmp/mut.sv" "$mut/warp_arbiter.sv"
if ! make -s BUILD="$mut" KIT_RTL_warp_arbiter="$(pwd)/$mut/warp_arbiter.sv" VERILATOR_EXTRA=-Wno-fatal \
     "$mut/lib/libsimt_cosim.so" >"$tmp/mbuild.log" 2>&1; then
  bad "mutant plugin build" "$(tail -n 20 "$tmp/mbuild.log")"
else
  win="$tmp/window"
  out=$(SIMT_COSIM_PLUGIN="$mut/lib/libsimt_cosim.so" "$simt" run backprop \
        --config configs/fermi-gtx480.cfg --cosim warp_arbiter --cosim-dir "$win" 2>&1); rc=$?
  if [ "$rc" -eq 4 ] &&
     grep -Eq "^cosim: MISMATCH at cycle [0-9]+: unit warp_arbiter, instance [0-9]+, field grant_idx_o: expected \(C twin\) [0-9]+, actual \(RTL\) [0-9]+" <<<"$out" &&
     grep -q "the last cycles of instance" <<<"$out" &&
     grep -q "co-simulation: SM [0-9]*: a unit's RTL disagreed" <<<"$out"; then
    ok "broken RTL caught: $(echo "$out" | grep -m1 MISMATCH)"
  else
    bad "broken RTL caught (exit $rc)" "$out"
  fi
  cyc=$(echo "$out" | grep -m1 -oE "MISMATCH at cycle [0-9]+" | grep -oE "[0-9]+$")
  files_ok=1
  for f in rtl.fst c_twin.vcd side_by_side.vcd side_by_side.gtkw; do
    [ -s "$win/$f" ] || { files_ok=0; bad "waveform file $f written" "$(ls -la "$win" 2>&1)"; }
  done
  if [ "$files_ok" -eq 1 ]; then
    ok "waveform window files written"
    # the RTL's FST reads back (every RTL signal over the window, up to the mismatch)
    if fst2vcd "$win/rtl.fst" >"$tmp/rtl.vcd" 2>/dev/null && grep -q "grant_idx_o" "$tmp/rtl.vcd" &&
       grep -q "age_q" "$tmp/rtl.vcd" && grep -q "^#$((cyc * 10))\$" "$tmp/rtl.vcd"; then
      ok "rtl.fst holds the RTL's signals up to the mismatch (t=$((cyc * 10)))"
    else
      bad "rtl.fst readable with the RTL's signals up to t=$((cyc * 10))" "$(head -c 600 "$tmp/rtl.vcd")"
    fi
    # both sides side by side (c. and rtl.), every compared flop on both
    # sides, the view opening on the mismatch
    if grep -q '\$scope module rtl' "$win/side_by_side.vcd" &&
       grep -q '\$scope module c ' "$win/side_by_side.vcd" &&
       grep -q "^#$((cyc * 10))\$" "$win/side_by_side.vcd" &&
       grep -q '\$scope module c ' "$win/c_twin.vcd" &&
       grep -q 'cnt_q(23)' "$win/c_twin.vcd" && grep -q 'age_q(0)' "$win/c_twin.vcd" &&
       grep -q 'wopt_q' "$win/c_twin.vcd" &&
       grep -q 'side_by_side.vcd' "$win/side_by_side.gtkw" &&
       grep -q "^\[timestart\] $(( (cyc - 6) * 10 ))\$" "$win/side_by_side.gtkw" &&
       grep -qE "^\*-?[0-9.]+ $((cyc * 10)) " "$win/side_by_side.gtkw" &&
       grep -q '^+{C grant_idx_o} c.grant_idx_o' <<<"$(grep -A1 -E '^@2[39]$' "$win/side_by_side.gtkw")" &&
       grep -q '^+{RTL grant_idx_o} rtl.grant_idx_o' "$win/side_by_side.gtkw"; then
      ok "side_by_side.vcd and .gtkw: c. and rtl. up to the mismatch, every flop, view on the mismatch"
    else
      bad "side_by_side.vcd/.gtkw content" "$(head -n 30 "$win/side_by_side.gtkw")"
    fi
  fi
  # same with the RTL driving: still caught
  expect "broken RTL caught with the RTL in the loop" 4 "MISMATCH at cycle" -- \
    env SIMT_COSIM_PLUGIN="$mut/lib/libsimt_cosim.so" "$simt" run backprop \
    --config configs/fermi-gtx480.cfg --cosim warp_arbiter --cosim-rtl-drives --cosim-dir "$tmp/w2"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
