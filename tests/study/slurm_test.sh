#!/usr/bin/env bash
# slurm_test.sh SIMT: the study runner on a real Slurm cluster.  Installs
# Slurm and munge from Debian if missing, starts a single-node cluster in a
# temporary folder (tests/study/slurm_cluster.sh), submits a small study as
# a job array (`simt study submit`), waits for it and collects it
# (`simt study collect --wait`), runs the same study locally into another
# cache, and checks that every collected record equals the local one bit for
# bit.  The daemons are stopped on every way out.  Each case prints ok/FAIL;
# the last line is "N passed, N failed".
set -uo pipefail  # (a pipe into grep -q can fail on SIGPIPE here: grep <<<"$out" instead)
cd "$(dirname "$0")/../.."
simt=$(realpath "${1:-build/bin/simt}")
here=$(pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ $# -lt 2 ] || echo "$2" | tail -n 20 | sed 's/^/    /'; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }

source tests/study/slurm_cluster.sh
if ! out=$(slurm_install 2>&1); then
  bad "slurm-install" "$out"
  finish
fi
ok "slurm-install"

tmp=$(mktemp -d)
trap 'slurm_stop; rm -rf "$tmp"' EXIT
# Not in $(...): slurm_start exports SLURM_CONF and records the daemons' pids.
if ! slurm_start "$tmp/cluster" >"$tmp/start.log" 2>&1; then
  bad "slurm-start" "$(cat "$tmp/start.log")
$(slurm_logs)"
  finish
fi
ok "slurm-start"

# 2 workloads x 2 configurations x 3 sizes = 12 points, 5 per array task.
cat >"$tmp/study.toml" <<'TOML'
[study]
name = "slurmtest"
[[workload]]
name = "vecadd"
[[workload]]
name = "histogram"
[configs.lrr]
preset = "fermi-gtx480"
set = { gpgpu_scheduler = "lrr" }
[configs.gto]
preset = "fermi-gtx480"
[[axis]]
param = "n"
values = [2000, 3000, 4000]
[slurm]
points_per_task = 5
TOML
study() { "$simt" study "$@" --cache "$tmp/cache-$cache" --results "$tmp/results-$cache"; }

cache=slurm
out=$(cd "$tmp" && study submit "$tmp/study.toml" 2>&1)
if [ $? -eq 0 ] && grep -q "12 points to run as 3 array tasks; submitted job" <<<"$out"; then
  ok "submit"
else
  bad "submit" "$out
$(slurm_logs)"
fi
grep -q -- "--array=0-2" "$tmp/results-slurm/slurm/job-1.sh" && ok "job-script-array" ||
  bad "job-script-array" "$(cat "$tmp/results-slurm/slurm/job-1.sh")"

out=$(study collect "$tmp/study.toml" --wait 240 2>&1)
if [ $? -eq 0 ] && grep -q "12 collected, 0 were cached, 0 failed, 0 missing" <<<"$out"; then
  ok "collect"
else
  bad "collect" "$out
$(cat "$tmp"/results-slurm/slurm/logs/* 2>/dev/null | tail -n 10)
$(slurm_logs)"
fi

out=$(study submit "$tmp/study.toml" 2>&1)
grep -q "all 12 points are cached: nothing to submit" <<<"$out" && ok "resubmit-nothing" ||
  bad "resubmit-nothing" "$out"

# A grown study: only the new points are submitted; a failing point (n=0 is
# out of range) is reported by collect, with its command line.
sed 's/values = \[2000, 3000, 4000\]/values = [2000, 3000, 4000, 5000, 0]/' "$tmp/study.toml" >"$tmp/grown.toml"
out=$(study submit "$tmp/grown.toml" 2>&1)
grep -q "8 points to run as 2 array tasks; submitted job .*job-2.sh" <<<"$out" &&
  ok "submit-only-new-points" || bad "submit-only-new-points" "$out"
out=$(study collect "$tmp/grown.toml" --wait 240 2>&1)
if [ $? -eq 1 ] && grep -q "4 collected, 12 were cached, 4 failed, 0 missing" <<<"$out" &&
   grep -q "FAIL histogram/gto/n=0: exit 2 (bad input)" <<<"$out" &&
   grep -q "command: .*simt run histogram .*--param n=0" <<<"$out"; then
  ok "collect-reports-failures"
else
  bad "collect-reports-failures" "$out"
fi

cache=local
out=$(study run "$tmp/grown.toml" -j 2 2>&1)
[ $? -eq 1 ] && grep -q "4 of 20 points failed" <<<"$out" && ok "local-run" ||
  bad "local-run" "$out"

# Every record: the same key in both caches, the statistics bit for bit equal.
out=$(python3 - "$tmp/cache-slurm" "$tmp/cache-local" <<'PY'
import glob, json, os, sys
a = {os.path.basename(p): json.load(open(p)) for p in glob.glob(sys.argv[1] + "/*/*.json")}
b = {os.path.basename(p): json.load(open(p)) for p in glob.glob(sys.argv[2] + "/*/*.json")}
if len(a) != 16 or sorted(a) != sorted(b):
    sys.exit("keys differ: %d slurm, %d local" % (len(a), len(b)))
diff = [k for k in a if a[k]["output"] != b[k]["output"]]
if diff:
    sys.exit("statistics differ for %s" % diff)
hosts = {r["host"] for r in a.values()}
print("16 records equal; slurm ran them on %s" % ", ".join(sorted(hosts)))
PY
)
[ $? -eq 0 ] && ok "slurm-equals-local ($out)" || bad "slurm-equals-local" "$out"
cmp -s "$tmp/results-slurm/points.csv" "$tmp/results-local/points.csv" && ok "same-points-csv" ||
  bad "same-points-csv" "$(diff "$tmp/results-slurm/points.csv" "$tmp/results-local/points.csv")"
finish
