#!/usr/bin/env bash
# `make test`: builds, then runs every suite and ends with the total as
# "N passed, N failed".  Exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
total_pass=0
total_fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Runs a suite command whose output ends with "N passed, N failed".
suite() {
  local name=$1; shift
  echo "== $name"
  "$@" >"$log" 2>&1
  local rc=$?
  grep -v '^ok ' "$log" | tail -n 40
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    echo "   $name: no summary line (exit $rc): counted as 1 failure"
    total_fail=$((total_fail + 1))
    return
  fi
  local p f
  p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
}

echo "== build"
if ! make -s -j"$JOBS" all; then
  echo "0 passed, 1 failed"
  exit 1
fi

suite "unit, front-end and semantics tests" build/bin/unit_tests
suite "workloads (functional, CPU reference checks)" bash tests/run_workloads.sh build/bin/simt
suite "workloads under timing on every preset, against the cycle baseline" python3 scripts/timing_baseline.py build/bin/simt
suite "command-line behaviour and error reporting" bash tests/cli_test.sh build/bin/simt
suite "mixes (simt run A+B) and the concurrent-kernel CTA policies" bash tests/mix_test.sh build/bin/simt
suite "Scratchpad Sharing compiler passes on every seed-000 workload" bash tests/ssp_workloads.sh build/bin/simt
suite "study runner: local runs, cache, resume after a kill, reports" python3 tests/study/local_test.py build/bin/simt
suite "study runner on a single-node Slurm cluster (job array vs local, bit for bit)" bash tests/study/slurm_test.sh build/bin/simt
suite "uninitialised-register check (every workload, and a crafted read)" bash tests/uninit_test.sh build/bin/simt
echo "== readiness check build"
if make -s -j"$JOBS" check-build >"$log" 2>&1; then
  suite "timing cases and the readiness check build" bash tests/timing_cases.sh build/bin/simt build/check/bin/simt
else
  tail -n 30 "$log"
  total_fail=$((total_fail + 1))
fi
if command -v verilator >/dev/null 2>&1; then
  suite "RTL unit testbenches (verilated RTL vs C twin)" make -s tb
  suite "RTL mutation tests (each fault caught by the testbench)" python3 tests/rtl/mutants.py
  suite "co-simulation (every arbiter in lockstep on real workloads)" bash tests/cosim_test.sh build/bin/simt
  suite "co-simulation of Scratchpad Sharing's lock table and relssp release unit (seed-000 workloads, configs/000)" bash tests/cosim_ssp_test.sh build/bin/simt
  suite "the unit kit on a second, fixture unit (tests/rtl/fixture)" bash tests/rtl/kit_fixture_test.sh
else
  echo "== RTL testbenches, mutation tests, co-simulation: verilator missing (make deps): counted as 1 failure"
  total_fail=$((total_fail + 1))
fi
suite "workload metas and docs/workloads.md" python3 scripts/workload_table.py build/bin/simt --check

echo "== sanitizer build (ASan + UBSan)"
if make -s -j"$JOBS" asan-test >"$log" 2>&1; then
  suite "unit tests under ASan+UBSan" build/asan/bin/unit_tests
  suite "workloads under ASan+UBSan" bash tests/run_workloads.sh build/asan/bin/simt
  suite "workloads under ASan+UBSan, timing (fermi-gtx480)" bash tests/run_workloads.sh build/asan/bin/simt --config configs/fermi-gtx480.cfg
else
  tail -n 30 "$log"
  total_fail=$((total_fail + 1))
fi

echo "== thread sanitizer build (--threads N)"
if make -s -j"$JOBS" tsan-test >"$log" 2>&1; then
  suite "--threads 1/2/3/8 bit-identical, bad values, ThreadSanitizer" bash tests/threads_test.sh build/bin/simt build/tsan/bin/simt
else
  tail -n 30 "$log"
  total_fail=$((total_fail + 1))
fi

suite "fuzzing: PTX parser, configuration and command line (bounded smoke run)" bash scripts/fuzz.sh "${FUZZ_SMOKE_SECONDS:-20}" --summary

echo
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
