#!/usr/bin/env bash
# timing_cases.sh SIMT [CHECK_SIMT]: timing-model runs that once went wrong,
# and the readiness check build on a spread of workloads and schedulers.
#
# With SIMT (the normal build), each case must PASS its CPU reference:
#   hmmer at paper size on kepler-ss   a false deadlock: an L2 slice's reply
#                                      ring overflowed while the reply
#                                      network was backed up, so an L1 fill
#                                      never came back (mem/partition.h)
#   srad1 on fermi-gtx480 under ltlws  the W_Opt oldest warps waited at a
#                                      barrier the capped-out warps never
#                                      reached (core/sched_arbiter.c)
#   srad1 under two_level              the same, for an active set full of
#                                      warps at a barrier (sched_two_level.c)
#   kmeans, lbm, srad1 on fermi-cta    the reference-004 warp schedulers:
#   under tlv and ccws                 fetch groups, and CCWS's load throttle
#                                      (a held-back warp must not stall the
#                                      issue stage for good: sched_ops timed)
#   fermi-cta under dyncta, cke, mcke  the CTA policies of reference 004
#                                      (docs/cta-scheduling.md), on single
#                                      workloads and on mixes (simt run A+B)
#   hotspot, dyncta, two_level         a deadlock: paused warps filled the
#                                      active set while the running ones
#                                      waited outside (core/sm_ready.c,
#                                      slot_waiting)
#   the CTA policies of reference 004 on fermi-cta (lcs, bcs, lcs_bcs; the
#   sca warp scheduler): srad1, backprop, kmeans, hotspot each PASS; the
#   mshrthrash micro-kernel (Fig. 7(c) style: 1 SM, 4 CTAs, 3 L1 MSHRs)
#   where LCS must cap at <= 2 CTAs, run faster than rr and issue exactly
#   rr's warp-instructions; and a run twice with identical statistics.
#   With CHECK_SIMT also dct1 and dct3 at paper size under Scratchpad
#   Sharing's configurations (configs/000), where CTAs pair and the
#   smem_lock gate opens and closes.
# With CHECK_SIMT (`make check-build`: -DSIMT_CHECK_READINESS), every
# cycle asserts that each slot's cached readiness equals the one computed
# from scratch (core/sm_ready.h); a mismatch aborts the run.
set -uo pipefail
simt=${1:?usage: timing_cases.sh SIMT [CHECK_SIMT]}
check=${2:-}
pass=0
fail=0

case_run() { # name, simt, args...
  local name=$1 bin=$2
  shift 2
  # a here-string, not echo | grep -q: under pipefail grep -q leaving at
  # the first match can kill echo with SIGPIPE on a long output
  if out=$("$bin" run "$@" 2>&1) && grep -q ': PASS' <<<"$out"; then
    pass=$((pass + 1))
    echo "ok $name"
  else
    fail=$((fail + 1))
    echo "FAIL $name"
    echo "$out" | grep -v '^  ' | head -n 15
  fi
}

case_run "hmmer paper size on kepler-ss (lost L2 replies)" "$simt" \
  hmmer --config configs/kepler-ss.cfg --param size=paper
case_run "srad1 on fermi-gtx480 under ltlws (barrier deadlock)" "$simt" \
  srad1 --config configs/fermi-gtx480.cfg --set gpgpu_scheduler=ltlws
case_run "srad1 on fermi-gtx480 under two_level (barrier deadlock)" "$simt" \
  srad1 --config configs/fermi-gtx480.cfg --set gpgpu_scheduler=two_level
for sch in tlv ccws; do
  for w in kmeans lbm srad1; do
    case_run "$w on fermi-cta under $sch" "$simt" "$w" --config configs/fermi-cta.cfg \
      --set gpgpu_scheduler="$sch"
  done
done

# dyncta with thresholds that move the limit often (down on memory waits,
# up on idle cycles), so CTAs pause and go on many times
churn=(--set gpgpu_cta_policy=dyncta --set dyncta_period=64 --set dyncta_t_mem_l=0
       --set dyncta_t_mem_h=8)
for w in srad1 hotspot kmeans; do
  case_run "$w on fermi-cta under dyncta" "$simt" "$w" --config configs/fermi-cta.cfg \
    --set gpgpu_cta_policy=dyncta
  case_run "$w on fermi-cta under dyncta, a churning limit" "$simt" "$w" \
    --config configs/fermi-cta.cfg "${churn[@]}"
done
case_run "hotspot under dyncta (churning), two_level (paused warps filled the active set)" \
  "$simt" hotspot --config configs/fermi-cta.cfg "${churn[@]}" --set gpgpu_scheduler=two_level
for pol in cke mcke; do
  case_run "backprop+hotspot on fermi-cta under $pol" "$simt" backprop+hotspot \
    --config configs/fermi-cta.cfg --set gpgpu_cta_policy=$pol \
    --set cke_quota=backprop_layerforward:1,hotspot_calc_temp:2
done

for w in srad1 backprop kmeans hotspot; do
  for pol in "lcs gto" "bcs gto" "bcs sca" "lcs_bcs sca"; do
    set -- $pol
    case_run "$w on fermi-cta under $1 + $2" "$simt" "$w" \
      --config configs/fermi-cta.cfg --set gpgpu_cta_policy="$1" --set gpgpu_scheduler="$2"
  done
done

# json_case name, python condition over r (rr's JSON) and l (the other's),
# then the two runs' arguments separated by --
json_case() {
  local name=$1 cond=$2 tmp
  shift 2
  tmp=$(mktemp -d)
  local a=() b=() side=a
  for x in "$@"; do
    if [ "$x" = "--" ]; then side=b; continue; fi
    if [ $side = a ]; then a+=("$x"); else b+=("$x"); fi
  done
  local ra rb
  ra=$("$simt" run "${a[@]}" --json "$tmp/r.json" 2>&1)
  rb=$("$simt" run "${b[@]}" --json "$tmp/l.json" 2>&1)
  if grep -q ': PASS' <<<"$ra" && grep -q ': PASS' <<<"$rb" &&
     python3 - "$tmp/r.json" "$tmp/l.json" "$cond" <<'PY'
import json, sys
r, l = (json.load(open(f)) for f in sys.argv[1:3])
rk, lk = r["kernels"][0], l["kernels"][0]
ok = eval("(" + sys.argv[3] + ")")
print("   rr %d cycles, other %d cycles, T_max %d, T_new %d, window %d" % (
    r["stats"]["gpu_sim_cycle"], l["stats"]["gpu_sim_cycle"], lk["lcs_t_max"],
    lk["lcs_t_new"], lk["lcs_window_cycles"]))
sys.exit(0 if ok else 1)
PY
  then
    pass=$((pass + 1))
    echo "ok $name"
  else
    fail=$((fail + 1))
    echo "FAIL $name"
  fi
  rm -rf "$tmp"
}

micro=(mshrthrash --config configs/fermi-cta.cfg --set gpgpu_n_clusters=1
       --set gpgpu_shader_cta=4 --set gpgpu_l1d_mshrs=3)
json_case "LCS on the Fig. 7(c) micro-kernel: T_new <= 2, faster than rr, same instructions" \
  'lk["lcs_t_max"] == 4 and 1 <= lk["lcs_t_new"] <= 2 and
   l["stats"]["gpu_sim_cycle"] < r["stats"]["gpu_sim_cycle"] and
   lk["warp_insns"] == rk["warp_insns"]' \
  "${micro[@]}" -- "${micro[@]}" --set gpgpu_cta_policy=lcs
json_case "LCS on the micro-kernel gates more register file than rr (reference 004 §8)" \
  '1 - l["stats"]["rf_alloc_reg_cycles"] / (32768 * l["stats"]["gpu_sim_cycle"]) >
   1 - r["stats"]["rf_alloc_reg_cycles"] / (32768 * r["stats"]["gpu_sim_cycle"])' \
  "${micro[@]}" -- "${micro[@]}" --set gpgpu_cta_policy=lcs
json_case "lcs_bcs + sca twice on hotspot: identical statistics" \
  'r["stats"] == l["stats"] and r["kernels"] == l["kernels"]' \
  hotspot --config configs/fermi-cta.cfg --set gpgpu_cta_policy=lcs_bcs --set gpgpu_scheduler=sca -- \
  hotspot --config configs/fermi-cta.cfg --set gpgpu_cta_policy=lcs_bcs --set gpgpu_scheduler=sca

if [ -n "$check" ]; then
  for w in srad1 hotspot kmeans backprop; do
    for sch in gto lrr two_level ltlws; do
      case_run "readiness check: $w on fermi-cta under dyncta (churning), $sch" "$check" \
        "$w" --config configs/fermi-cta.cfg "${churn[@]}" --set gpgpu_scheduler=$sch
    done
  done
  for pol in cke mcke; do
    case_run "readiness check: backprop+hotspot under $pol" "$check" backprop+hotspot \
      --config configs/fermi-cta.cfg --set gpgpu_cta_policy=$pol \
      --set cke_quota=backprop_layerforward:1,hotspot_calc_temp:2
  done
  for w in hmmer bfs bitonic srad1 reduction backprop histogram256 lud; do
    for p in fermi-gtx480 kepler-ss; do
      case_run "readiness check: $w on $p" "$check" "$w" --config "configs/$p.cfg"
    done
  done
  for sch in tlv ccws; do
    for w in kmeans hotspot srad1 bfs; do
      case_run "readiness check: $w on fermi-cta under $sch" "$check" "$w" \
        --config configs/fermi-cta.cfg --set gpgpu_scheduler="$sch"
    done
  done
  for pol in "lcs gto" "bcs sca" "lcs_bcs sca"; do
    set -- $pol
    for w in hotspot srad1 nw1; do
      case_run "readiness check: $w on fermi-cta under $1 + $2" "$check" "$w" \
        --config configs/fermi-cta.cfg --set gpgpu_cta_policy="$1" --set gpgpu_scheduler="$2"
    done
  done
  for sch in lrr oldest two_level owf ltlws tlv ccws; do
    case_run "readiness check: nw1 under $sch" "$check" nw1 \
      --config configs/fermi-gtx480.cfg --set gpgpu_scheduler="$sch"
  done  # Scratchpad Sharing (docs/scratchpad-sharing.md): the smem_lock gate,
  # opened by touches of the pair's slots whenever the lock changes hands
  for c in shared-lrr shared-gto shared-owf-opt; do
    for w in dct1 dct3; do
      case_run "readiness check: $w paper size under configs/000/$c.cfg" "$check" "$w" \
        --config "configs/000/$c.cfg" --param size=paper
    done
  done
  case_run "readiness check: dct3 paper size, sharing, bcs + sca" "$check" dct3 \
    --config configs/000/shared-lrr.cfg --param size=paper \
    --set gpgpu_cta_policy=bcs --set gpgpu_scheduler=sca
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
