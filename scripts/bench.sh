#!/usr/bin/env bash
# `make bench`: functional-mode simulation speed on a compute-bound kernel,
# in thread-instructions per second, against the same computation in native
# C on this machine.  Target: >= 100 million thread-instructions per second.
set -euo pipefail
cd "$(dirname "$0")/.."
simt=build/bin/simt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Compute-bound: nestedloops (integer triangular matrix multiply).
m=${BENCH_M:-256}
start=$(date +%s.%N)
"$simt" run nestedloops --functional --param m="$m" --json "$tmp/s.json" >/dev/null
end=$(date +%s.%N)
ti=$(python3 -c "import json;print(json.load(open('$tmp/s.json'))['stats']['thread_insns'])")
python3 - "$start" "$end" "$ti" "$m" <<'PY'
import sys
start, end, ti, m = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
t = end - start
print(f"functional: nestedloops m={m}: {ti:,} thread-instructions in {t:.3f} s "
      f"(whole run incl. parse, setup and CPU reference check)")
print(f"functional speed: {ti / t / 1e6:.1f} M thread-instructions/s (target >= 100)")
PY
# Native C reference of the same computation (the driver's CPU reference).
cat > "$tmp/native.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
    int m = atoi(argv[1]);
    int *a = malloc(sizeof(int) * m * m), *b = malloc(sizeof(int) * m * m), *c = malloc(sizeof(int) * m * m);
    for (int i = 0; i < m * m; i++) { a[i] = i % 7 - 3; b[i] = i % 5 - 2; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int row = 0; row < m; row++)
        for (int col = 0; col < m; col++) {
            int acc = 0;
            for (int k = 0; k <= row; k++) {
                int x = a[row * m + k];
                for (int j = 0; j < (k & 3) + 1; j++) acc += x * b[k * m + col] + j;
            }
            c[row * m + col] = acc;
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long chk = 0;
    for (int i = 0; i < m * m; i++) chk += c[i];
    printf("%.6f %lld\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, chk);
    return 0;
}
C
cc -O2 -o "$tmp/native" "$tmp/native.c"
read -r nt _ < <("$tmp/native" "$m")
python3 - "$start" "$end" "$nt" <<'PY'
import sys
t = float(sys.argv[2]) - float(sys.argv[1]); nt = float(sys.argv[3])
print(f"native C (-O2) of the same computation: {nt:.4f} s; simulator/native time ratio: {t / nt:.0f}x")
PY
