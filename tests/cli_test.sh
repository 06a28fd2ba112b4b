#!/usr/bin/env bash
# Command-line behaviour: exit statuses, error messages with positions,
# JSON output, determinism.  Each case prints ok/FAIL; the last line is
# "N passed, N failed".
set -uo pipefail
simt=${1:-build/bin/simt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# expect NAME STATUS PATTERN -- command...   (PATTERN: grep -E on stdout+stderr)
expect() {
  local name=$1 want=$2 pat=$3; shift 4
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -eq "$want" ] && { [ -z "$pat" ] || echo "$out" | grep -Eq -- "$pat"; }; then
    pass=$((pass + 1)); echo "ok $name"
  else
    fail=$((fail + 1)); echo "FAIL $name: exit $rc (want $want), pattern '$pat'"
    echo "$out" | head -n 8 | sed 's/^/    /'
  fi
}

expect no-args 2 "usage: simt" -- "$simt"
expect unknown-command 2 "unknown command 'frobnicate'" -- "$simt" frobnicate
expect help 0 "simt run <workload>" -- "$simt" help
expect list 0 "^vecadd " -- "$simt" list
expect unknown-workload 2 "unknown workload 'nosuch'; known:.*vecadd" -- "$simt" run nosuch
expect missing-workload 2 "missing workload name" -- "$simt" run
expect unknown-option 2 "unknown option '--frob'" -- "$simt" run vecadd --frob
expect run-vecadd 0 "workload vecadd: PASS" -- "$simt" run vecadd --functional
expect set-unknown-key 2 "^--set:1:1: error: unknown configuration key 'gpgpu_shmem_sise' \(did you mean 'gpgpu_shmem_size'\?\)" -- "$simt" run vecadd --set gpgpu_shmem_sise=1
expect set-bad-int 2 "^--set:1:18: error: 'gpgpu_shmem_size' must be an integer, not 'lots'" -- "$simt" run vecadd --set gpgpu_shmem_size=lots
expect set-range 2 "out of range" -- "$simt" run vecadd --set gpgpu_n_clusters=0
expect set-no-equals 2 "^--set:1:[0-9]+: error: expected '='" -- "$simt" run vecadd --set functional
expect set-impossible 2 "max_threads_per_cta \(2048\) exceeds gpgpu_shader_core_max_threads \(1536\)" -- "$simt" run vecadd --set max_threads_per_cta=2048
expect config-resolved 0 "^gpgpu_scheduler = lrr  # --set" -- "$simt" config --config configs/fermi-gtx480.cfg --set gpgpu_scheduler=lrr
expect config-preset-value 0 "^gpgpu_shader_cta = 8\$" -- "$simt" config --config configs/fermi-gtx480.cfg
expect config-bad-key 2 "^--set:1:1: error: unknown configuration key 'nosuch'" -- "$simt" config --set nosuch=1
expect config-impossible 2 "max_threads_per_cta \(2048\) exceeds" -- "$simt" config --set max_threads_per_cta=2048
expect study-bad-file 2 "nosuch.toml:1:1: error: cannot read the study file" -- "$simt" study run nosuch.toml
for cfg in configs/*.cfg; do
  expect "preset-$(basename "$cfg" .cfg)" 0 "workload vecadd: PASS" -- "$simt" run vecadd --config "$cfg" --functional
done
expect info-occupancy 0 "occupancy: +2 CTAs/SM of 512 threads, limited by registers" -- "$simt" info tests/kernels/vecadd/kernel.ptx --config configs/fermi-gtx480.cfg --block 512 --set gpgpu_shader_registers=16384
expect info-bad-block 2 "--block 'x' is not a positive count" -- "$simt" info tests/kernels/vecadd/kernel.ptx --block x
expect config-missing 2 "nofile.cfg: error: cannot open" -- "$simt" run vecadd --config "$tmp/nofile.cfg"
printf '# a preset\ngpgpu_shmem_size = 16384\n\n  gpgpu_n_clusters = many\n' > "$tmp/bad.cfg"
expect config-bad-line 2 "bad.cfg:4:22: error: 'gpgpu_n_clusters' must be an integer" -- "$simt" run vecadd --config "$tmp/bad.cfg"
printf 'gpgpu_shmem_size = 16384 # 16 KB\n' > "$tmp/good.cfg"
expect config-good 0 "gpgpu_shmem_size = 16384$" -- "$simt" run vecadd --config "$tmp/good.cfg" --show-config
expect set-overrides-config 0 "gpgpu_shmem_size = 8192  # --set" -- "$simt" run vecadd --config "$tmp/good.cfg" --set gpgpu_shmem_size=8192 --show-config
expect param-bad 2 "--param n=abc: error: not an integer" -- "$simt" run vecadd --param n=abc
expect param-range 2 "out of range" -- "$simt" run vecadd --param n=-5
expect param-not-kv 2 "is not key=value" -- "$simt" run vecadd --param n
expect shmem-too-small 2 "bytes of shared memory per CTA .* exceed gpgpu_shmem_size = 512" -- "$simt" run reduction --set gpgpu_shmem_size=512
expect info-vecadd 0 "registers: +[0-9]+ per thread .*ptxas -v: 12" -- "$simt" info tests/kernels/vecadd/kernel.ptx
expect info-missing 2 "nothere.ptx: error: cannot open" -- "$simt" info "$tmp/nothere.ptx"
printf '.version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %%r1;\n}\n' > "$tmp/bad.ptx"
expect info-bad-ptx 2 "bad.ptx:6:2: error: unknown instruction 'frobnicate'" -- "$simt" info "$tmp/bad.ptx"

# JSON: written atomically, valid, and identical across runs (determinism)
expect json-write 0 "" -- "$simt" run histogram --json "$tmp/a.json"
expect json-write-again 0 "" -- "$simt" run histogram --json "$tmp/b.json"
expect json-valid 0 "" -- python3 -c "import json,sys; d=json.load(open('$tmp/a.json')); sys.exit(0 if d['passed'] and d['stats']['thread_insns']>0 else 1)"
expect json-deterministic 0 "" -- cmp "$tmp/a.json" "$tmp/b.json"
expect json-bad-dir 2 "error: cannot write" -- "$simt" run vecadd --json "$tmp/no/such/dir/x.json"
if ls "$tmp"/no 2>/dev/null | grep -q .; then fail=$((fail + 1)); echo "FAIL json-no-partial-file"; else pass=$((pass + 1)); echo "ok json-no-partial-file"; fi

# the timing model: same inputs and configuration, identical JSON
"$simt" run reduction --config configs/fermi-gtx480.cfg --json "$tmp/t1.json" >/dev/null 2>&1
"$simt" run reduction --config configs/fermi-gtx480.cfg --json "$tmp/t2.json" >/dev/null 2>&1
if [ -s "$tmp/t1.json" ] && cmp -s "$tmp/t1.json" "$tmp/t2.json" && grep -q '"gpu_sim_cycle": [1-9]' "$tmp/t1.json"; then
  pass=$((pass + 1)); echo "ok timing-deterministic-json"
else
  fail=$((fail + 1)); echo "FAIL timing-deterministic-json"
fi
expect set-bad-scheduler 2 "'gpgpu_scheduler' must be one of lrr, gto, oldest, two_level, owf, ltlws, not 'fifo'" -- "$simt" run vecadd --set gpgpu_scheduler=fifo
expect timing-stats 0 "gpu_sim_cycle += [1-9]" -- "$simt" run vecadd --config configs/kepler-ss.cfg --set gpgpu_scheduler=two_level --stats all

# what a run prints: a summary by default (docs/stats.md, "What simt run
# prints"), every statistic with --stats all, the configuration on request
out=$("$simt" run vecadd --config configs/fermi-gtx480.cfg 2>&1)
for pat in "^workload vecadd: PASS" "^gpu_sim_cycle +[1-9][0-9]* \(" "^instructions +3487 warp, 111320 thread; IPC [0-9.]+ thread" \
           "^occupancy +achieved [0-9.]+% of 48 warp slots" "vecadd: 6 CTAs/SM of 256 threads, limited by threads" \
           "^issue +issued [0-9.]+%, no warp" "^caches +L1D [0-9.]+% hits of [0-9]+, L2 " "^DRAM +[0-9.]+ GB/s of 177.4 peak" \
           "^mechanisms +scheduler gto x2 per SM"; do
  if grep -Eq -- "$pat" <<<"$out"; then pass=$((pass + 1)); echo "ok summary '$pat'"
  else fail=$((fail + 1)); echo "FAIL summary: no '$pat' in"; echo "$out" | sed 's/^/    /'; fi
done
if [ "$(grep -c . <<<"$out")" -le 15 ] && ! grep -q "^---- " <<<"$out"; then pass=$((pass + 1)); echo "ok summary-short"
else fail=$((fail + 1)); echo "FAIL summary-short: $(grep -c . <<<"$out") lines"; fi
expect functional-summary 0 "^instructions +3487 warp, 111320 thread \(31.92 active lanes" -- "$simt" run vecadd --functional
if "$simt" run vecadd --functional 2>&1 | grep -Eq "cycle|IPC|occupancy|DRAM"; then fail=$((fail + 1)); echo "FAIL functional-prints-no-timing"
else pass=$((pass + 1)); echo "ok functional-prints-no-timing"; fi
expect stats-all 0 "^---- SMs ----" -- "$simt" run vecadd --config configs/fermi-gtx480.cfg --stats all
expect stats-bad 2 "--stats needs 'all'" -- "$simt" run vecadd --stats everything
expect config-out 0 "" -- "$simt" run vecadd --config configs/kepler-ss.cfg --set gpgpu_scheduler=owf --config-out "$tmp/resolved.cfg"
expect config-out-loads 0 "scheduler owf x4 per SM" -- "$simt" run vecadd --config "$tmp/resolved.cfg"

# GPGPU-Sim's own configuration files, as they are (../shared, never copied)
gs=../shared/gpgpusim-configs/SM2_GTX480/gpgpusim.config
expect gpgpusim-run 0 "gpgpusim.config:157:21: note: -gpuwattch_xml_file ignored: no power model" -- "$simt" run vecadd --config "$gs"
expect gpgpusim-timing 0 "^gpu_sim_cycle +[1-9]" -- "$simt" run vecadd --config "$gs"
printf -- '-gpgpu_n_mem 6\n-gpgpu_cache:dl2 S:64:128\n' > "$tmp/bad.config"
expect gpgpusim-bad 2 "bad.config:2:18: error: -gpgpu_cache:dl2 'S:64:128' is not valid" -- "$simt" run vecadd --config "$tmp/bad.config"

# the progress line: on a terminal's stderr (script gives the run a pty),
# never in a pipe, and not with --quiet; kmeans runs for about 2.5 seconds
if command -v script >/dev/null; then
  tty_out=$(script -qec "$simt run kmeans --config configs/fermi-gtx480.cfg" /dev/null 2>&1)
  pipe_err=$("$simt" run kmeans --config configs/fermi-gtx480.cfg 2>&1 >/dev/null)
  quiet_out=$(script -qec "$simt run kmeans --config configs/fermi-gtx480.cfg --quiet" /dev/null 2>&1)
  if grep -Eq "[0-9.]+[kM]? cycles, [0-9.]+[kM]? warp-insns, kernels [0-9]+/[0-9]+, [0-9.]+[kM]? cycles/s" <<<"$tty_out" &&
     [ -z "$pipe_err" ] && ! grep -q "warp-insns" <<<"$quiet_out" && grep -q "PASS" <<<"$quiet_out"; then
    pass=$((pass + 1)); echo "ok progress-line-tty-only"
  else
    fail=$((fail + 1)); echo "FAIL progress-line-tty-only"; echo "$tty_out" | head -n 3 | cat -v
  fi
fi

# the compile pipeline: simt opt writes PTX that info and run accept; a
# register cap spills and the workload still matches its CPU reference
expect opt-list 0 "split_edges" -- "$simt" opt --list
expect opt-write 0 "" -- "$simt" opt --passes unique_exit,split_edges,regalloc workloads/nqueens/kernel.ptx -o "$tmp/nq.ptx"
expect opt-info 0 "kernel solve_nqueen" -- "$simt" info "$tmp/nq.ptx"
expect opt-run 0 "workload nqueens: PASS" -- "$simt" run nqueens --ptx "$tmp/nq.ptx"
expect opt-run-timing 0 "workload nqueens: PASS" -- "$simt" run nqueens --ptx "$tmp/nq.ptx" --config configs/fermi-gtx480.cfg
expect opt-bad-pass 2 "unknown compiler pass 'inline'" -- "$simt" opt --passes inline workloads/nqueens/kernel.ptx -o "$tmp/x.ptx"
if [ -e "$tmp/x.ptx" ]; then fail=$((fail + 1)); echo "FAIL opt-no-partial-file"; else pass=$((pass + 1)); echo "ok opt-no-partial-file"; fi
expect opt-bad-ptx 2 "bad.ptx:6:2: error: unknown instruction" -- "$simt" opt "$tmp/bad.ptx" -o "$tmp/y.ptx"
expect cap-info 0 "values spilled" -- "$simt" info workloads/matmul/kernel.ptx --set maxrregcount=16
expect cap-run 0 "workload matmul: PASS" -- "$simt" run matmul --set maxrregcount=16
expect cap-run-timing 0 "workload hotspot: PASS" -- "$simt" run hotspot --set maxrregcount=12 --config configs/kepler-ss.cfg
expect cap-too-low 2 "cannot fit in 4 registers per thread" -- "$simt" run vecadd --set maxrregcount=4
expect regs-source-ptxas 0 "vecadd .* 12 " -- "$simt" run vecadd --set gpgpu_regs_source=ptxas --stats all
cp tests/kernels/vecadd/kernel.ptx "$tmp/vecadd.ptx"  # no meta beside it
expect regs-source-ptxas-missing 2 "kernel 'vecadd': gpgpu_regs_source = ptxas, but no ptxas" -- "$simt" info "$tmp/vecadd.ptx" --set gpgpu_regs_source=ptxas
# device printf on stdout before the statistics; a failed device assert:
# the CUDA file, line and thread, exit status 3 (tests/ptx/nvcc13/)
expect printf-stdout 0 "^vecadd thread 0 of 5000" -- "$simt" run vecadd --ptx tests/ptx/nvcc13/vecadd_printf.ptx --functional
expect printf-stdout-timing 0 "vecadd thread 1 of 5000" -- "$simt" run vecadd --ptx tests/ptx/nvcc13/vecadd_printf.ptx
expect assert-exit-3 3 "device assertion failed: vecadd_printf.cu:20: .*thread \\[100,0,0\\]: Assertion .i < FAIL_AT. failed" -- "$simt" run vecadd --ptx tests/ptx/nvcc13/vecadd_assert.ptx --functional

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
