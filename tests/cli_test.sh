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
  # a here-string, not echo | grep -q: under pipefail, grep -q leaving at
  # the first match can kill echo with SIGPIPE on a long output (flaky)
  if [ "$rc" -eq "$want" ] && { [ -z "$pat" ] || grep -Eq -- "$pat" <<<"$out"; }; then
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
expect set-bad-scheduler 2 "'gpgpu_scheduler' must be one of lrr, gto, oldest, two_level, owf, ltlws, tlv, ccws, (.*, )?sca(, .*)?, not 'fifo'" -- "$simt" run vecadd --set gpgpu_scheduler=fifo
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
# Scratchpad Sharing's passes (docs/compiler.md): --relssp/--layout write
# PTX with relssp that info and run accept; bad values exit 2 naming the key
expect opt-relssp 0 "" -- "$simt" opt --relssp=opt --layout=min workloads/backprop/kernel.ptx -o "$tmp/bp.ptx"
expect opt-relssp-info 0 "kernel backprop_layerforward" -- "$simt" info "$tmp/bp.ptx"
expect opt-relssp-run 0 "workload backprop: PASS" -- "$simt" run backprop --ptx "$tmp/bp.ptx"
if [ "$(grep -c 'relssp;' "$tmp/bp.ptx")" -ge 1 ]; then pass=$((pass + 1)); echo "ok opt-relssp-inserted"; else fail=$((fail + 1)); echo "FAIL opt-relssp-inserted"; fi
expect opt-relssp-postdom 0 "" -- "$simt" opt --relssp=postdom workloads/srad/kernel.ptx -o "$tmp/srad.ptx"
expect opt-relssp-postdom-run 0 "workload srad1: PASS" -- "$simt" run srad1 --ptx "$tmp/srad.ptx"
expect opt-relssp-bad 2 "'ssp_relssp' must be one of none, opt, postdom, not 'best'" -- "$simt" opt --relssp=best workloads/backprop/kernel.ptx -o "$tmp/z.ptx"
expect opt-layout-bad 2 "'ssp_layout' must be one of decl, min, not 'max'" -- "$simt" opt --layout=max workloads/backprop/kernel.ptx -o "$tmp/z.ptx"
expect run-set-relssp 0 "workload backprop: PASS" -- "$simt" run backprop --set ssp_relssp=opt --set ssp_layout=min
expect run-set-threshold-bad 2 "ssp_threshold_permille" -- "$simt" run backprop --set ssp_threshold_permille=1000
# The sharing passes only where blocks pair (docs/compiler.md, "Only where
# blocks pair"): a kernel of 3000 B scratchpad on kepler-ss (R = 16384 B,
# 3072 threads, 16 CTA slots, t = 0.1): with .reqntid 32 the scratchpad
# limits (m = floor(16384/3000) = 5 < 16 slots, 96 by threads), and
# n = 5 + floor((16384 - 15000) / 300) = 9: 4 pairs, so Shared-OWF-OPT's
# simt opt writes its relssp; with .reqntid 1024 the threads limit
# first (3 < 5): no pair, no relssp; without .reqntid the
# shape is unknown and the passes run as selected.  simt info says which.
for shape in "32" "1024" ""; do
  { printf '.version 9.0\n.target sm_75\n.address_size 64\n\n.visible .entry shp(.param .u64 out)\n'
    [ -n "$shape" ] && printf '.reqntid %s, 1, 1\n' "$shape"
    printf '{\n  .reg .b32 %%r<4>;\n  .shared .align 4 .b8 s[3000];\n  mov.u32 %%r1, %%tid.x;\n'
    printf '  shl.b32 %%r2, %%r1, 2;\n  st.shared.u32 [s+2000], %%r1;\n  ld.shared.u32 %%r3, [s+2000];\n  ret;\n}\n'; } >"$tmp/shp$shape.ptx"
  expect "opt-shape-${shape:-none}" 0 "" -- "$simt" opt --config configs/000/shared-owf-opt.cfg "$tmp/shp$shape.ptx" -o "$tmp/shp$shape.out.ptx"
  n=$(grep -c 'relssp;' "$tmp/shp$shape.out.ptx" 2>/dev/null)
  if { [ "$shape" = 1024 ] && [ "$n" = 0 ]; } || { [ "$shape" != 1024 ] && [ "$n" = 1 ]; }; then
    pass=$((pass + 1)); echo "ok opt-shape-${shape:-none}-relssp ($n)"
  else
    fail=$((fail + 1)); echo "FAIL opt-shape-${shape:-none}-relssp: $n relssp"
  fi
done
expect info-shape-pairs 0 "sharing passes: run \(4 pairs per SM" -- "$simt" info "$tmp/shp32.ptx" --config configs/000/shared-owf-opt.cfg
expect info-shape-no-pair 0 "sharing passes: not run" -- "$simt" info "$tmp/shp1024.ptx" --config configs/000/shared-owf-opt.cfg
expect info-shape-unknown 0 "sharing passes: run \(pass --block" -- "$simt" info "$tmp/shp.ptx" --config configs/000/shared-owf-opt.cfg
{ printf '.version 9.0\n.target sm_75\n.address_size 64\n\n.visible .entry many()\n{\n  .reg .b32 %%r<2>;\n'
  for i in $(seq 0 64); do printf '  .shared .align 4 .b8 v%d[4];\n' "$i"; done
  printf '  mov.u32 %%r1, 1;\n  st.shared.u32 [v64], %%r1;\n  ret;\n}\n'; } >"$tmp/many.ptx"
expect opt-relssp-too-many-vars 2 "kernel 'many' has more than 64 .shared variables" -- "$simt" opt --relssp=opt "$tmp/many.ptx" -o "$tmp/many2.ptx"
expect opt-too-many-vars-plain 0 "" -- "$simt" opt "$tmp/many.ptx" -o "$tmp/many2.ptx"
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


# run limits (docs/limits.md): exit status 5, the limit, kernel and warps
# named, partial statistics in text and JSON; an infinite loop stops
loop=tests/limits/loop.ptx
expect limit-insn-functional 5 "stopped: gpgpu_max_insn = 100000 thread instructions reached in kernel 'vecadd'.*" -- "$simt" run vecadd --ptx "$loop" --set gpgpu_max_insn=100000
expect limit-insn-warps 5 "warp 0: ready, PC [0-9]+ \(line (18|19|20|21|22|23)\)" -- "$simt" run vecadd --ptx "$loop" --set gpgpu_max_insn=100000
expect limit-insn-partial-text 5 "statistics \(partial: stopped by gpgpu_max_insn\)" -- "$simt" run vecadd --ptx "$loop" --set gpgpu_max_insn=100000
expect limit-cycle-timing 5 "gpgpu_max_cycle = 3000 core cycles reached at core cycle 3000 in kernel 'vecadd'" -- "$simt" run vecadd --ptx "$loop" --config configs/fermi-gtx480.cfg --set gpgpu_max_cycle=3000
expect limit-cycle-warps-summarised 5 "resident warps: 160, by PTX line: [0-9]+ \([0-9]+\)" -- "$simt" run vecadd --ptx "$loop" --config configs/fermi-gtx480.cfg --set gpgpu_max_cycle=3000
expect limit-cycle-first-warp 5 "^    SM 0, CTA \(0,0,0\), warp 0: .*PC [0-9]+ \(line (18|19|20|21|22|23)\)" -- "$simt" run vecadd --ptx "$loop" --config configs/fermi-gtx480.cfg --set gpgpu_max_cycle=3000
expect limit-cycle-stats 5 "gpu_sim_cycle += 3000$" -- "$simt" run vecadd --ptx "$loop" --config configs/fermi-gtx480.cfg --set gpgpu_max_cycle=3000
expect limit-timeout-functional 5 "--timeout 0.5 s of wall-clock time reached" -- "$simt" run vecadd --ptx "$loop" --timeout 0.5
expect limit-timeout-timing 5 "--timeout 0.5 s of wall-clock time reached at core cycle" -- "$simt" run vecadd --ptx "$loop" --timeout 0.5 --config configs/fermi-gtx480.cfg
expect limit-timeout-bad 2 "--timeout '0x5' is not a number of seconds" -- "$simt" run vecadd --timeout 0x5
expect limit-timeout-zero 2 "--timeout '0' is not a number of seconds" -- "$simt" run vecadd --timeout 0
expect limit-not-reached 0 "workload vecadd: PASS" -- "$simt" run vecadd --set gpgpu_max_insn=100000000 --timeout 600
"$simt" run vecadd --ptx "$loop" --set gpgpu_max_insn=5000 --json "$tmp/partial.json" >/dev/null 2>&1
expect limit-json-partial 0 "" -- python3 -c "import json,sys; d=json.load(open('$tmp/partial.json')); sys.exit(0 if d['partial'] is True and d['stopped_by']=='gpgpu_max_insn' and d['stats']['thread_insns']==5024 else 1)"
expect limit-json-complete 0 "" -- python3 -c "import json,sys; d=json.load(open('$tmp/a.json')); sys.exit(0 if d['partial'] is False and d['stopped_by'] is None else 1)"
expect run-help-limits 0 "5 a run limit stopped the run" -- "$simt" run --help

# a configuration that used to end in a false deadlock is refused up front
expect big-icache-line 2 "^--set gpgpu_l1i_line=1024: error: gpgpu_icnt_buffer_flits \(32\) cannot hold" -- "$simt" run vecadd --config configs/fermi-gtx480.cfg --set gpgpu_l1i_line=1024
expect big-icache-line-fits 0 "workload vecadd: PASS" -- "$simt" run vecadd --config configs/fermi-gtx480.cfg --set gpgpu_l1i_line=1024 --set gpgpu_icnt_buffer_flits=33
expect sched-slots-refused 2 "^--set gpgpu_num_sched_per_core=1: error: 128 warps per SM over gpgpu_num_sched_per_core = 1 schedulers give 128 warp slots each" -- "$simt" run vecadd --config configs/fermi-gtx480.cfg --set gpgpu_shader_core_max_threads=4096 --set gpgpu_num_sched_per_core=1
expect deadlock-window-refused 2 "^--set gpgpu_deadlock_detect_cycles=1000: error: gpgpu_deadlock_detect_cycles \(1000\) is not longer than one memory access's fixed latencies \(10056 cycles" -- "$simt" run vecadd --config configs/fermi-gtx480.cfg --set gpgpu_l2_latency=10000 --set gpgpu_deadlock_detect_cycles=1000
expect deadlock-window-long-latency 0 "workload vecadd: PASS" -- "$simt" run vecadd --config configs/fermi-gtx480.cfg --set gpgpu_l2_latency=10000 --set gpgpu_deadlock_detect_cycles=10057
expect clock-ratio-100 0 "workload vecadd: PASS" -- "$simt" run vecadd --config configs/fermi-gtx480.cfg --set gpgpu_core_clock_mhz=70000 --set gpgpu_deadlock_detect_cycles=1000
expect clock-ratio-inverse 0 "workload vecadd: PASS" -- "$simt" run vecadd --config configs/fermi-gtx480.cfg --set gpgpu_core_clock_mhz=7 --set gpgpu_deadlock_detect_cycles=1000

# inputs that cannot hurt the host
expect config-directory 2 "error: the configuration file must be a regular file, and this is a directory" -- "$simt" run vecadd --config "$tmp"
expect config-dev-zero 2 "/dev/zero: error: the configuration file must be a regular file, and this is a character device" -- "$simt" run vecadd --config /dev/zero
printf 'gpgpu_n_clusters = 2\0\n' > "$tmp/nul.cfg"
expect config-nul-byte 2 "nul.cfg:1:21: error: control byte 0x00" -- "$simt" run vecadd --config "$tmp/nul.cfg"
printf 'gpgpu_n_clusters\033[2J = 2\n' > "$tmp/esc.cfg"
expect config-escape-byte 2 "esc.cfg:1:17: error: control byte 0x1b" -- "$simt" run vecadd --config "$tmp/esc.cfg"
if "$simt" run vecadd --config "$tmp/esc.cfg" 2>&1 | LC_ALL=C grep -q "$(printf '\033')"; then fail=$((fail + 1)); echo "FAIL no-raw-control-bytes"; else pass=$((pass + 1)); echo "ok no-raw-control-bytes"; fi
if "$simt" run "$(printf 'x\033[2J')" 2>&1 | LC_ALL=C grep -q "$(printf '\033')"; then fail=$((fail + 1)); echo "FAIL no-raw-control-bytes-argv"; else pass=$((pass + 1)); echo "ok no-raw-control-bytes-argv"; fi
printf 'gpgpu_n_clusters = 010\n' > "$tmp/octal.cfg"
expect config-decimal-010 0 "gpgpu_n_clusters = 10$" -- "$simt" run vecadd --config "$tmp/octal.cfg" --show-config
expect config-hex-refused 2 "'gpgpu_n_clusters' must be an integer, not '0x10'" -- "$simt" run vecadd --set gpgpu_n_clusters=0x10
printf 'functional = 0\n\ngpgpu_simd_width = 12\n' > "$tmp/width.cfg"
expect config-validation-located 2 "width.cfg:3:1: error: gpgpu_simd_width \(12\) must divide" -- "$simt" run vecadd --config "$tmp/width.cfg"
expect config-validation-set 2 "^--set max_threads_per_cta=2048: error: max_threads_per_cta" -- "$simt" run vecadd --set max_threads_per_cta=2048
expect param-unknown 2 "--param sise: error: workload 'vecadd' has no such knob \(it reads: n, seed\)" -- "$simt" run vecadd --param sise=small
expect param-octal 0 "n=10," -- "$simt" run vecadd --param n=010
expect info-help 0 "usage: simt info" -- "$simt" info --help
expect run-help 0 "usage: simt run" -- "$simt" run --help
expect stdout-full 2 "writing the standard output failed" -- sh -c "'$simt' run vecadd > /dev/full"
expect stdout-full-list 2 "writing the standard output failed" -- sh -c "'$simt' list > /dev/full"
expect ptx-dev-zero 2 "/dev/zero: error: the PTX file must be a regular file" -- "$simt" info /dev/zero
expect ptx-run-directory 2 "error: the PTX file must be a regular file, and this is a directory" -- "$simt" run vecadd --ptx "$tmp"
printf '.version 9.0\n.target sm_75\n.address_size 64\n.const .b8 big[70000];\n.visible .entry k()\n{\n\tret;\n}\n' > "$tmp/const.ptx"
expect ptx-const-too-big 2 "const.ptx:4:[0-9]+: error: .const 'big' ends at byte 70000 of the constant bank, beyond gpgpu_const_mem_size = 65536" -- "$simt" info "$tmp/const.ptx"
mkdir -p "$tmp/jdir"
expect json-directory 2 "--json replaces only a regular file, and this is a directory" -- "$simt" run vecadd --json "$tmp/jdir"
ln -s "$tmp/a.json" "$tmp/jlink"
expect json-symlink 2 "this is a symbolic link" -- "$simt" run vecadd --json "$tmp/jlink"
expect json-device 2 "/dev/null: error: --json replaces only a regular file" -- "$simt" run vecadd --json /dev/null
long=$(printf 'n%.0s' $(seq 250)).json
expect json-long-name 0 "" -- "$simt" run vecadd --json "$tmp/jdir/$long"
# a path of about 4000 bytes (PATH_MAX is 4096), through nested folders
deep="$tmp/jdir"; while [ ${#deep} -lt 3700 ]; do deep="$deep/$(printf 'd%.0s' $(seq 200))"; done
mkdir -p "$deep"
expect json-long-path 0 "" -- "$simt" run vecadd --json "$deep/$(printf 'f%.0s' $(seq 200)).json"
if ls -A "$tmp/jdir" "$deep" | grep -q '^\.simt-json'; then fail=$((fail + 1)); echo "FAIL json-no-temp-left"; else pass=$((pass + 1)); echo "ok json-no-temp-left"; fi
# a signal during the run (and so before or while the JSON is written)
# leaves neither the JSON nor a temporary file.  python starts the run with
# SIGINT at its default (a shell's background job would ignore it).
for sig in INT TERM; do
  if python3 - "$simt" "$loop" "$tmp/jdir" "$sig" <<'PY'
import os, signal, subprocess, sys, time
simt, loop, d, sig = sys.argv[1:]
p = subprocess.Popen([simt, "run", "vecadd", "--ptx", loop, "--timeout", "60",
                      "--json", os.path.join(d, "sig.json")],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
time.sleep(0.3)
p.send_signal(getattr(signal, "SIG" + sig))
rc = p.wait()
left = [f for f in os.listdir(d) if f == "sig.json" or f.startswith(".simt-json")]
sys.exit(0 if rc == -getattr(signal, "SIG" + sig) and not left else 1)
PY
  then pass=$((pass + 1)); echo "ok json-signal-$sig"
  else fail=$((fail + 1)); echo "FAIL json-signal-$sig"; fi
done

# --trace-ctas (cmodel/src/cli/cta_trace.h): a 20-CTA vecadd on fermi-cta
# (28 SMs, at most 6 CTAs of 256 threads each): a 0 row for every SM at
# cycle 0, counts within the limit, CTAs placed = the grid, every SM empty
# at the end; the core-cycle breakdown in --json sums to SMs x cycles
expect trace-ctas-run 0 "workload vecadd: PASS" -- "$simt" run vecadd --config configs/fermi-cta.cfg --trace-ctas "$tmp/ctas.tsv" --json "$tmp/ctas.json"
expect trace-ctas-content 0 "" -- python3 - "$tmp/ctas.tsv" "$tmp/ctas.json" <<'PY'
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
assert rows[0] == ["cycle", "sm", "ctas"], rows[0]
rows = [tuple(map(int, r)) for r in rows[1:]]
assert rows[:28] == [(0, i, 0) for i in range(28)], rows[:28]
now, placed = [0] * 28, 0
for c, sm, k in rows[28:]:
    assert k <= 6 and k != now[sm], (c, sm, k)
    placed += max(k - now[sm], 0)
    now[sm] = k
assert placed == 20 and now == [0] * 28, (placed, now)
d = json.load(open(sys.argv[2]))
s, keys = d["stats"], ["active", "core_stall", "mem_stall", "idle"]
assert sum(s["core_cycles_" + k] for k in keys) == 28 * s["gpu_sim_cycle"]
for sm in d["sms"]:
    assert sum(sm["core_cycles_" + k] for k in keys) == s["gpu_sim_cycle"]
PY
# the reference-004 warp schedulers are deterministic too (CCWS's scores,
# victim tags and decay; TLV's groups): two runs, identical JSON
for sch in tlv ccws; do
  "$simt" run hotspot --config configs/fermi-cta.cfg --set gpgpu_scheduler=$sch --json "$tmp/$sch.1.json" >/dev/null 2>&1
  "$simt" run hotspot --config configs/fermi-cta.cfg --set gpgpu_scheduler=$sch --json "$tmp/$sch.2.json" >/dev/null 2>&1
  expect "$sch-deterministic" 0 "" -- cmp "$tmp/$sch.1.json" "$tmp/$sch.2.json"
done
expect tlv-group-range 2 "'tlv_group_size' = 0 is out of range \\[1, 64\\]" -- "$simt" run vecadd --set tlv_group_size=0
expect ccws-vta-range 2 "'ccws_vta_entries' = 256 is out of range \\[1, 255\\]" -- "$simt" run vecadd --set ccws_vta_entries=256
expect trace-ctas-no-file 2 "--trace-ctas needs a file" -- "$simt" run vecadd --trace-ctas
expect trace-ctas-bad-dir 2 "x.tsv: error: --trace-ctas cannot write it" -- "$simt" run vecadd --trace-ctas "$tmp/no/such/x.tsv"

# Every paper configuration file runs as it is (configs/<seed>/*.cfg include
# their preset), and says which policies it selects.
for c in configs/*/*.cfg; do
  expect "paper-config-$c" 0 "workload vecadd: PASS" -- "$simt" run vecadd --config "$c" --quiet
done
expect paper-config-lcs-bcs-policies 0 "^gpgpu_cta_policy = lcs_bcs *$" -- \
  "$simt" config --config configs/004/lcs-bcs.cfg
expect paper-config-lcs-bcs-preset 0 "^gpgpu_n_clusters = 28 *$" -- \
  "$simt" config --config configs/004/lcs-bcs.cfg
# An error inside an included file names that file, and the include.
printf 'include = %s/configs/fermi-cta.cfg\ngpgpu_scheduler = gtx\n' "$PWD" > "$tmp/inc.cfg"
printf 'include = nothere.cfg\n' > "$tmp/inc2.cfg"
expect include-error-located 2 "inc.cfg:2:19: error: 'gpgpu_scheduler' must be one of" -- \
  "$simt" run vecadd --config "$tmp/inc.cfg"
expect include-missing 2 "inc2.cfg:1:11: note: included from here" -- \
  "$simt" run vecadd --config "$tmp/inc2.cfg"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
