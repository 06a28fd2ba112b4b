#!/usr/bin/env bash
# fuzz.sh SECONDS [--summary]: fuzzes the PTX parser, the configuration
# reader and the simt command line with libFuzzer.
#
# Builds two targets with clang (libFuzzer + ASan + UBSan): build/fuzz/fuzz_ptx
# (tests/fuzz/fuzz_ptx.c over the parser) and build/fuzz/fuzz_cli
# (tests/fuzz/fuzz_cli.c over configuration text and command lines, with the
# whole model, the CLI and the workload drivers).  Each runs for SECONDS
# (default 300) from its growing scratch corpus (build/fuzz/corpus,
# build/fuzz/corpus_cli, seeded from tests/fuzz/corpus and
# tests/fuzz/corpus_cli) with inputs of at most 8 KiB (PTX) or 1 KiB
# (configuration, command line) and a 10 s per-input timeout.  Reproducers
# (crash-*, leak-*, timeout-*, oom-*) go to build/fuzz/artifacts/.
#
# Exit status: 0 nothing found; 1 a fuzzer found a crash (the reproducer
# path is printed: rerun it with `build/fuzz/fuzz_ptx PATH` or
# `build/fuzz/fuzz_cli PATH`); 2 the fuzzers cannot be built (clang or its
# libFuzzer runtime is missing: the Debian package to install is named).
# --summary ends the output with "N passed, N failed" (one per target) for
# scripts/run_tests.sh.
#
# Environment: FUZZ_FLAGS adds libFuzzer flags (e.g. "-detect_leaks=0" to
# look past a known leak, "-jobs=4 -workers=4"); CLANG picks the compiler.
set -uo pipefail
cd "$(dirname "$0")/.."

secs=${1:-300}
summary=0
[ "${2:-}" = "--summary" ] && summary=1
case "$secs" in
  ''|*[!0-9]*) echo "usage: scripts/fuzz.sh SECONDS [--summary]" >&2; exit 2 ;;
esac

CLANG=${CLANG:-clang}
out=build/fuzz
mkdir -p "$out/corpus" "$out/artifacts"

finish() { # status
  if [ "$summary" = 1 ]; then
    if [ "$1" = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
  fi
  exit "$1"
}

runtime_package() {
  local major
  major=$("$CLANG" -dumpversion 2>/dev/null | cut -d. -f1)
  [ -n "$major" ] || major=14
  echo "libclang-rt-${major}-dev"
}

if ! command -v "$CLANG" >/dev/null 2>&1; then
  echo "fuzz: error: $CLANG not found: install clang and $(CLANG=/nonexistent runtime_package) (apt-get install clang libclang-rt-14-dev on Debian 12)" >&2
  finish 2
fi

# Is libFuzzer's runtime there?  (It ships separately from clang on Debian.)
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$probe/t.c"
if ! "$CLANG" -fsanitize=fuzzer "$probe/t.c" -o "$probe/t" >"$probe/log" 2>&1; then
  pkg=$(runtime_package)
  echo "fuzz: error: '$CLANG -fsanitize=fuzzer' does not link: libFuzzer's runtime (libclang_rt.fuzzer) is missing." >&2
  echo "fuzz: install the Debian package $pkg:  sudo apt-get install $pkg" >&2
  tail -n 3 "$probe/log" >&2
  finish 2
fi

SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L"
echo "== building $out/fuzz_ptx"
# shellcheck disable=SC2086
if ! "$CLANG" $SAN -Icmodel/include -Icmodel/src \
    tests/fuzz/fuzz_ptx.c cmodel/src/base/*.c cmodel/src/ptx/*.c -lm \
    -o "$out/fuzz_ptx"; then
  echo "fuzz: error: the PTX fuzz target does not build" >&2
  finish 2
fi
echo "== building $out/fuzz_cli"
drivers=$(ls tests/kernels/*/driver.c workloads/*/driver.c | sort)
# shellcheck disable=SC2086
bash scripts/gen_workloads.sh $drivers >"$out/workloads.c"
objdir="$out/obj_cli"
# a header changed since the last build: every object may be stale
if [ ! -f "$objdir/.stamp" ] || [ -n "$(find cmodel tests/kernels workloads -newer "$objdir/.stamp" \( -name '*.h' -o -name '*.def' \) | head -n 1)" ]; then
  rm -rf "$objdir"
fi
mkdir -p "$objdir" "$out/scratch"
touch "$objdir/.stamp.new"
cli_ok=1
n=0
for src in $(ls cmodel/src/*/*.c | grep -v "^cmodel/src/cli/") $(ls cmodel/src/cli/*.c | grep -v '/main\.c$') $drivers "$out/workloads.c" tests/fuzz/fuzz_cli.c; do
  o="$objdir/$(echo "$src" | tr '/' '_').o"
  [ -f "$o" ] && [ "$o" -nt "$src" ] && continue
  extra=""
  case "$src" in cmodel/src/exec/*) extra="-frounding-math" ;; esac
  # shellcheck disable=SC2086
  "$CLANG" $SAN $extra -Icmodel/include -Icmodel/src -Itests -c "$src" -o "$o" &
  n=$((n + 1))
  if [ $((n % 2)) -eq 0 ]; then wait || cli_ok=0; fi
done
wait || cli_ok=0
# shellcheck disable=SC2086
if [ "$cli_ok" = 0 ] || ! "$CLANG" $SAN "$objdir"/*.o -lm -ldl -o "$out/fuzz_cli"; then
  echo "fuzz: error: the configuration and command-line fuzz target does not build" >&2
  finish 2
fi
mv "$objdir/.stamp.new" "$objdir/.stamp"

cp -n tests/fuzz/corpus/* "$out/corpus/" 2>/dev/null || true
mkdir -p "$out/corpus_cli"
cp -n tests/fuzz/corpus_cli/* "$out/corpus_cli/" 2>/dev/null || true

# A dictionary of PTX tokens helps the mutator build valid-looking text.
dict="$out/ptx.dict"
{
  for w in .version .target .address_size .entry .func .visible .extern \
           .weak .param .reg .local .shared .const .global .align .ptr \
           .maxntid .reqntid .maxnreg .minnctapersm .pragma .loc .file \
           .section .pred .b8 .b16 .b32 .b64 .u8 .u16 .u32 .u64 .s8 .s16 \
           .s32 .s64 .f16 .f32 .f64 .v2 .v4 .lo .hi .wide .cc .rn .rz .rm \
           .rp .rni .rzi .rmi .rpi .ftz .sat .approx .full .to .uni .sync \
           .aligned .volatile .nc .ca .cg .cs .eq .ne .lt .le .gt .ge .lo \
           .ls .hi .hs .equ .neu .ltu .leu .gtu .geu .num .nan .and .or \
           .xor .add .min .max .inc .dec .cas .exch .popc .all .any \
           .ballot .up .down .bfly .idx .red .arrive .l .r .wrap .clamp \
           .finite .notanumber .shiftamt .f4e .x .y .z ::cta ::no_allocate \
           .L1 .L2 ::128B .relaxed .gpu .sys \
           mov ld ldu st cvta cvt add sub mul mad mul24 mad24 addc subc madc \
           div rem abs neg min max fma rcp sqrt rsqrt ex2 lg2 sin cos tanh \
           and or xor not cnot shl shr shf bfe bfi brev popc clz bfind prmt \
           lop3 sad copysign testp setp selp set slct bra call ret exit bar \
           barrier membar fence atom red vote activemask shfl isspacep trap \
           nanosleep relssp pref \
           %r1 %rd1 %f1 %fd1 %p1 %tid %ntid %ctaid %laneid %clock64 \
           sm_75 9.0 0f3F800000 0d3FF0000000000000 0x7fffffffffffffff \
           4294967296 -1 '$L__BB0_1' '$L__BB0_1:' '[%rd1+4]' '{%r1, %r2}' \
           '%r<4>' 'func_retval0' 'param0' '(param0)' '@%p1' '@!%p1' \
           '%p1|%p2' '_' ';' ',' '{' '}' '[' ']' '(' ')' '/*' '*/' '//'; do
    printf '"%s"\n' "$(printf '%s' "$w" | sed 's/\\/\\\\/g; s/"/\\"/g')"
  done
} >"$dict"

# -detect_leaks=0 must also stop ASan's leak check at exit, or that check
# fails the run (with an empty "crash-da39a3ee..." reproducer).
case " ${FUZZ_FLAGS:-} " in
  *" -detect_leaks=0 "*) export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
esac

start=$(mktemp)
trap 'rm -rf "$probe" "$start"' EXIT
status=0
passed=0
failed=0
# run_target NAME CORPUS MAXLEN [DICT]
run_target() {
  local name=$1 corpus=$2 maxlen=$3 dictarg=${4:-}
  local log="$out/$name.log"
  echo "== fuzzing $name for ${secs}s (corpus $corpus, log $log)"
  # shellcheck disable=SC2086
  "$out/$name" "$corpus" -max_total_time="$secs" -max_len="$maxlen" \
      -timeout=10 $dictarg -artifact_prefix="$out/artifacts/" \
      -print_final_stats=1 ${FUZZ_FLAGS:-} >"$log" 2>&1
  local rc=$?
  # the last status line: "#N DONE cov: C ft: F corp: ..."
  grep -E '^#[0-9]+' "$log" | tail -n 1
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log" | sort -u
  local found
  found=$(find "$out/artifacts" -type f -newer "$start" 2>/dev/null | sort)
  if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
    echo "fuzz: $name found a problem (exit $rc):"
    grep -E 'ERROR: |runtime error|IR invariant broken|fuzz_cli: |SUMMARY: |out-of-memory|ALARM: working on the last Unit' "$log" \
      | grep -v '^#' | head -n 8
    grep -E '^    #[0-9]+ ' "$log" | head -n 12
    local w
    w=$(grep -o 'Test unit written to .*' "$log" | sed 's/Test unit written to //' | tail -n 1)
    [ -n "$w" ] || w=$(echo "$found" | tail -n 1)
    echo "fuzz: reproducer: ${w:-(none written; see $log)}"
    echo "fuzz: rerun with: $out/$name ${w:-FILE}"
    failed=$((failed + 1))
    status=1
    touch "$start"
  else
    echo "fuzz: $name: no crash in ${secs}s"
    passed=$((passed + 1))
  fi
}
run_target fuzz_ptx "$out/corpus" 8192 "-dict=$dict"
run_target fuzz_cli "$out/corpus_cli" 1024
rm -rf "$out/scratch"
if [ "$summary" = 1 ]; then echo "$passed passed, $failed failed"; fi
exit "$status"
