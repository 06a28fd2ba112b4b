#!/usr/bin/env bash
# threads_test.sh SIMT: `simt run --threads N` (gpu/smpar.h) gives results
# bit-identical to one thread.  The expected value is the one-thread run
# itself (the model's reference order, docs/timing-model.md "Several host
# threads"): for each case the whole --json (statistics, per-kernel and
# per-SM records, configuration, result check) of --threads 2, 3 and 8
# must equal --threads 1 byte for byte, as must the printed summary and,
# where traced, the CTA trace.  (8 threads on this machine's 2 cores: the
# workers are descheduled and fall asleep, so the caller takes their SMs
# and they steal back, gpu/smpar.c.)  The cases:
#   - global atomics across CTAs (histogram: every CTA adds to the same
#     bins in the same cycles);
#   - many launches (nw1: one launch per tile anti-diagonal);
#   - Scratchpad Sharing (configs/000/shared-owf.cfg, backprop);
#   - a mix A+B under mCKE (two kernels on one SM);
#   - textures, and dynamic warp formation's mixed warps (g80-dwf);
#   - DYNCTA, whose completion events change other SMs' limits (the SMs
#     then step on one thread; still identical);
#   - a run limit (gpgpu_max_cycle: exit 5, partial statistics);
#   - a run longer than the measured choice's epochs (kmeans: 276k cycles,
#     so its probes run and whole epochs go the chosen way, in parallel or
#     alone; with 8 threads on 2 cores, mostly alone);
#   - the CTA trace (--trace-ctas).
# And bad --threads values (0, negative, not a number, too large) and
# --threads 2 with --cosim are exit status 2 with a message.  With TSAN
# (simt built by `make tsan-test`), a few of the cases run under
# ThreadSanitizer with --threads 2 and must report no race (a gate left
# out in gpu/smpar.c shows as a race on device memory in bfs).
set -uo pipefail
simt=${1:?usage: threads_test.sh SIMT [TSAN_SIMT]}
tsan=${2:-}
cd "$(dirname "$0")/.."
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; shift; printf '%s\n' "$@" | head -n 15; }

# same NAME EXPECTED_STATUS ARGS...: --threads 1, 2, 3 and 8 agree
same() {
  local name=$1 want=$2; shift 2
  local t rc ref=""
  for t in 1 2 3 8; do
    "$simt" run "$@" --threads $t --quiet --json "$tmp/$t.json" \
      >"$tmp/$t.out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ]; then
      bad "$name: --threads $t exit $rc, expected $want" "$(tail -n 5 "$tmp/$t.out")"
      return
    fi
    if [ $t -gt 1 ]; then
      if ! cmp -s "$tmp/1.json" "$tmp/$t.json"; then
        bad "$name: --threads $t --json differs from --threads 1" \
          "$(diff "$tmp/1.json" "$tmp/$t.json" | head -n 10)"
        return
      fi
      if ! cmp -s "$tmp/1.out" "$tmp/$t.out"; then
        bad "$name: --threads $t output differs from --threads 1" \
          "$(diff "$tmp/1.out" "$tmp/$t.out" | head -n 10)"
        return
      fi
    fi
  done
  ok "$name: --threads 1, 2, 3 and 8 identical"
}

same "histogram (global atomics across CTAs), fermi-gtx480" 0 \
  histogram --config configs/fermi-gtx480.cfg
same "nw1 (many launches), kepler-ss" 0 nw1 --config configs/kepler-ss.cfg
same "backprop under Scratchpad Sharing (configs/000/shared-owf.cfg)" 0 \
  backprop --config configs/000/shared-owf.cfg
same "mix backprop+hotspot under mcke, fermi-cta" 0 backprop+hotspot \
  --config configs/fermi-cta.cfg --set gpgpu_cta_policy=mcke \
  --set cke_quota=backprop_layerforward:1,hotspot_calc_temp:2
same "textures, g80-dwf (dynamic warp formation)" 0 textures --config configs/g80-dwf.cfg
same "reduction, DYNCTA (configs/004/dyncta.cfg)" 0 reduction --config configs/004/dyncta.cfg
same "bfs stopped by gpgpu_max_cycle (partial statistics)" 5 bfs \
  --config configs/fermi-gtx480.cfg --set gpgpu_max_cycle=3000
same "kmeans, epochs of the parallel-or-alone choice, kepler-ss" 0 kmeans \
  --config configs/kepler-ss.cfg

# The idle-cycle skip (docs/timing-model.md "Skipping idle cycles") decides
# in the serial part of the loop: --threads 2 skipping must equal --threads
# 1 stepping (skip_idle_cycles=0), everything but that key.  bfs on
# kepler-ss skips about a fifth of its cycles.
"$simt" run bfs --config configs/kepler-ss.cfg --set skip_idle_cycles=0 --threads 1 \
  --quiet --json "$tmp/k0.json" >/dev/null 2>&1
"$simt" run bfs --config configs/kepler-ss.cfg --threads 2 --quiet \
  --json "$tmp/k1.json" >/dev/null 2>&1
if python3 - "$tmp/k0.json" "$tmp/k1.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d["config"].pop("skip_idle_cycles")
sys.exit(0 if a == b and a["stats"]["gpu_sim_cycle"] > 0 else 1)
PY
then
  ok "bfs, kepler-ss: --threads 2 with the idle-cycle skip equals --threads 1 stepping"
else
  bad "bfs, kepler-ss: --threads 2 skipping differs from --threads 1 stepping" \
    "$(diff "$tmp/k0.json" "$tmp/k1.json" | head -n 10)"
fi

# Scratchpad Sharing really shared (else the case above tests nothing new)
"$simt" run backprop --config configs/000/shared-owf.cfg --quiet --json "$tmp/s.json" >/dev/null 2>&1
pairs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"]["ssp_pairs"])' "$tmp/s.json" 2>/dev/null)
if [ "${pairs:-0}" -gt 0 ] 2>/dev/null; then
  ok "the sharing case pairs CTAs (ssp_pairs = $pairs)"
else
  bad "the sharing case pairs no CTAs (ssp_pairs = ${pairs:-?})"
fi

# the CTA trace
for t in 1 2; do
  "$simt" run histogram --config configs/fermi-cta.cfg --threads $t --quiet \
    --trace-ctas "$tmp/trace$t.tsv" >/dev/null 2>&1
done
if [ -s "$tmp/trace1.tsv" ] && cmp -s "$tmp/trace1.tsv" "$tmp/trace2.tsv"; then
  ok "--trace-ctas: --threads 2 writes the same trace"
else
  bad "--trace-ctas differs (or is empty) with --threads 2"
fi

# bad values
expect2() { # name, message part, args...
  local name=$1 msg=$2; shift 2
  local out rc
  out=$("$simt" run "$@" 2>&1)
  rc=$?
  if [ $rc -eq 2 ] && echo "$out" | grep -q -- "$msg"; then
    ok "$name: exit 2, '$msg'"
  else
    bad "$name: exit $rc (expected 2 and '$msg')" "$out"
  fi
}
for v in 0 -1 abc 65 1000000000000000000000 "" 2x " 2" +2 0x2; do
  expect2 "--threads '$v'" "is not a number of host threads" vecadd --threads "$v"
done
expect2 "--threads without a value" "needs a number of host threads" vecadd --threads
expect2 "--threads 2 with --cosim" "one host thread" vecadd \
  --config configs/fermi-gtx480.cfg --threads 2 --cosim all

if [ -n "$tsan" ]; then
  while IFS='|' read -r name args; do
    # shellcheck disable=SC2086
    TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$tsan" run $args --threads 2 \
      --quiet >"$tmp/tsan.out" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
      ok "ThreadSanitizer, --threads 2: $name"
    else
      bad "ThreadSanitizer, --threads 2: $name (exit $rc)" \
        "$(grep -A 12 WARNING "$tmp/tsan.out" | head -n 15)"
    fi
  done <<'CASES'
histogram, global atomics|histogram --config configs/fermi-gtx480.cfg
bfs, many launches|bfs --config configs/fermi-gtx480.cfg
backprop, Scratchpad Sharing|backprop --config configs/000/shared-owf.cfg
mix backprop+hotspot, mcke|backprop+hotspot --config configs/fermi-cta.cfg --set gpgpu_cta_policy=mcke
textures, g80-dwf|textures --config configs/g80-dwf.cfg
CASES
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
