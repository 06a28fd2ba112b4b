#!/usr/bin/env bash
# mix_test.sh SIMT: `simt run A+B` (two workloads at once, gpu/mix.h) and
# the concurrent-kernel CTA policies on it (docs/cta-scheduling.md).
#   - a mix passes both workloads' CPU reference checks, on the timing
#     model under rr, cke and mcke, and functionally;
#   - the same mix twice gives byte-identical --json (statistics and all);
#   - cke never has two kernels on one SM (sm_mixed_cycles = 0), mcke with
#     quotas that leave room does (> 0);
#   - bad mixes and bad cke_quota values are exit status 2 with a message;
#   - cke_quota survives --config-out / --config, set and unset.
set -uo pipefail
simt=${1:?usage: mix_test.sh SIMT}
cd "$(dirname "$0")/.."
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; shift; printf '%s\n' "$@" | head -n 15; }

cta=configs/fermi-cta.cfg
quota="cke_quota=backprop_layerforward:1,hotspot_calc_temp:2"
stat() { # json, name
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"][sys.argv[2]])' "$1" "$2"
}

for pol in rr cke mcke; do
  out=$("$simt" run backprop+hotspot --config $cta --set gpgpu_cta_policy=$pol \
        --set "$quota" --json "$tmp/$pol.json" 2>&1)
  if [ $? -eq 0 ] && echo "$out" | grep -q 'backprop PASS' &&
     echo "$out" | grep -q 'hotspot PASS' && echo "$out" | grep -q ': PASS'; then
    ok "backprop+hotspot under $pol: both checks pass"
  else
    bad "backprop+hotspot under $pol" "$out"
  fi
done
mixed_cke=$(stat "$tmp/cke.json" sm_mixed_cycles)
mixed_mcke=$(stat "$tmp/mcke.json" sm_mixed_cycles)
if [ "$mixed_cke" = 0 ]; then ok "cke: never two kernels on one SM"
else bad "cke: sm_mixed_cycles = $mixed_cke"; fi
if [ "$mixed_mcke" -gt 0 ]; then ok "mcke: kernels share SMs ($mixed_mcke SM-cycles)"
else bad "mcke: sm_mixed_cycles = $mixed_mcke"; fi

"$simt" run backprop+hotspot --config $cta --set gpgpu_cta_policy=mcke \
  --set "$quota" --json "$tmp/mcke2.json" >/dev/null 2>&1
if cmp -s "$tmp/mcke.json" "$tmp/mcke2.json"; then ok "a mix twice: identical --json"
else bad "a mix twice: --json differs" "$(diff "$tmp/mcke.json" "$tmp/mcke2.json" | head)"; fi

for pol in cke mcke; do
  out=$("$simt" run kmeans+srad1 --config $cta --set gpgpu_cta_policy=$pol \
        --set cke_quota=kmeans_point:1,srad_cuda_1:1,srad_cuda_2:1 2>&1)
  if [ $? -eq 0 ] && echo "$out" | grep -q 'kmeans+srad1: PASS'; then
    ok "kmeans+srad1 under $pol"
  else
    bad "kmeans+srad1 under $pol" "$out"
  fi
done
out=$("$simt" run hotspot+backprop --functional 2>&1)
if [ $? -eq 0 ] && echo "$out" | grep -q 'hotspot+backprop: PASS'; then
  ok "a mix in functional mode"
else
  bad "a mix in functional mode" "$out"
fi

expect2() { # name, pattern, args...
  local name=$1 pat=$2
  shift 2
  out=$("$simt" "$@" 2>&1)
  local rc=$?
  if [ $rc -eq 2 ] && echo "$out" | grep -q -- "$pat"; then ok "$name"
  else bad "$name (exit $rc)" "$out"; fi
}
expect2 "unknown workload in a mix" "names an unknown workload" run kmeans+nope
expect2 "three workloads" "two workloads at most" run kmeans+srad1+hotspot
expect2 "empty member" "names an unknown workload" run kmeans+
expect2 "--ptx with a mix" "not a mix" run kmeans+srad1 --ptx x.ptx
expect2 "cke_quota without a count" "'cke_quota': expected ':'" \
  run vecadd --set cke_quota=vecadd
expect2 "cke_quota of 0" "at least 1" run vecadd --set cke_quota=vecadd:0
expect2 "cke_quota named twice" "named twice" run vecadd --set cke_quota=a:1,b:2,a:3
expect2 "dyncta thresholds crossed" "dyncta_t_mem_l" \
  run vecadd --set dyncta_t_mem_l=500 --set dyncta_t_mem_h=100

for q in "" "kmeans_point:1, srad_cuda_1:5"; do
  "$simt" run vecadd --set "cke_quota=$q" --config-out "$tmp/c.cfg" >/dev/null 2>&1
  out=$("$simt" run vecadd --config "$tmp/c.cfg" --show-config 2>&1)
  if [ $? -eq 0 ] && echo "$out" | grep -qx "cke_quota = $q"; then
    ok "cke_quota '$q' round trip through --config-out"
  else
    bad "cke_quota '$q' round trip" "$(echo "$out" | grep -i 'cke_quota\|error')"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
