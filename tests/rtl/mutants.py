#!/usr/bin/env python3
"""mutants.py: mutation tests of the RTL.  Each mutant is one small fault
applied to a copy of an RTL unit; the unit's lockstep testbench (the
verilated mutant against the C twin, tb/) must catch it.  A mutant that
survives means the testbench cannot see that fault: the run fails.

  tests/rtl/mutants.py [--cycles N] [--only NAME]
  tests/rtl/mutants.py --write NAME FILE    write mutant NAME's RTL to FILE

Each mutant builds its own testbench under build/mutants/<name> (WA_RTL
points the Makefile at the mutant).  Ends with "N passed, N failed"; one
line per mutant says which check caught it.  tests/cosim_test.sh shows the
co-simulation catching a mutant on a real workload too.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RTL = "rtl/warp_arbiter.sv"

# (name, what the fault is, text in the RTL (exactly once), replacement,
#  testbench parameter set: wa24 = N 24 with the directed cases, wa5 = N 5,
#  CNT_W 3, WOPT_W 3 where counters saturate)
MUTANTS = [
    ("lrr_start_off_by_one", "LRR scans from the last issuer, not the one after it",
     "lrr_start = last_valid_q ? ({1'b0, last_q} + 1'b1) : '0;",
     "lrr_start = last_valid_q ? ({1'b0, last_q}) : '0;", "wa24"),
    ("gto_not_greedy", "GTO never stays on the last issuer",
     "greedy_gto = last_valid_q && gto_set[last_q];",
     "greedy_gto = 1'b0;", "wa24"),
    ("gto_youngest", "GTO's age comparison flipped: the youngest instead of the oldest",
     "gto_oh[i] = gto_set[i] && ((gto_set & ~self_oh & ~age_q[i]) == '0);",
     "gto_oh[i] = gto_set[i] && ((gto_set & ~self_oh & age_q[i]) == '0);", "wa24"),
    ("owf_class_order_swapped", "OWF ranks classes backwards (non-owner first)",
     "cls_lt[c*N+i] = (cls_i[2*i +: 2] <  c[1:0]);",
     "cls_lt[c*N+i] = (cls_i[2*i +: 2] >  c[1:0]);", "wa24"),
    ("ltlws_cap_off_by_one", "LTLWS lets W_Opt + 1 warps issue",
     "eligible[i] = valid_i[i] && (n_older < wopt_q);",
     "eligible[i] = valid_i[i] && (n_older <= wopt_q);", "wa24"),
    ("counter_wraps", "issue counters wrap instead of saturating",
     "if (inc[i] && !(&cnt_q[i])) begin",
     "if (inc[i]) begin", "wa5"),
    ("wopt_starts_at_zero", "W_Opt one too small (the count starts at 0)",
     "wopt_new = {{(WOPT_W-1){1'b0}}, 1'b1};",
     "wopt_new = '0;", "wa24"),
    ("wopt_strict_compare", "floor(S/c) >= k tested as k*c < S",
     "if (k_times <= sum) wopt_new = wopt_new + 1'b1;",
     "if (k_times < sum) wopt_new = wopt_new + 1'b1;", "wa24"),
    ("alloc_keeps_counter", "a new warp inherits the departing warp's issue count",
     "cnt_q[i] <= alloc_i[i] ? '0 : cnt_inc[i];",
     "cnt_q[i] <= cnt_inc[i];", "wa24"),
    ("coalloc_order_lost", "warps allocated together lose their relative order",
     "age_q[i] <= alloc_i & above(i);",
     "age_q[i] <= '0;", "wa24"),
    ("grant_bit0_stuck_at_1", "bit 0 of every lowest-index pick stuck at 1",
     "if (v[i]) r = i[IDX_W-1:0];",
     "if (v[i]) r = i[IDX_W-1:0] | IDX_W'(1);", "wa24"),
    ("last_never_updates", "the last-issued register never loads",
     "last_q       <= (|inc) ? issued_idx_i : last_q;",
     "last_q       <= last_q;", "wa24"),
    ("wopt_recomputed", "W_Opt recomputed at every finish, not once per kernel",
     "wopt_q       <= (!wopt_valid_q && (|finished_i)) ? wopt_new : wopt_q;",
     "wopt_q       <= (|finished_i) ? wopt_new : wopt_q;", "wa24"),
    ("ready_ignored", "a valid warp that is not ready can be granted",
     "cand = valid_i & ready_i;",
     "cand = valid_i;", "wa24"),
]


def main():
    args = sys.argv[1:]
    os.chdir(ROOT)
    if len(args) == 3 and args[0] == "--write":
        src = open(RTL).read()
        for name, _, old, new, _ in MUTANTS:
            if name == args[1] and src.count(old) == 1:
                with open(args[2], "w") as f:
                    f.write(src.replace(old, new))
                return 0
        sys.stderr.write("mutants.py: error: no mutant '%s' applies\n" % args[1])
        return 2
    cycles, only = "20000", None
    while args:
        a = args.pop(0)
        if a == "--cycles" and args:
            cycles = args.pop(0)
        elif a == "--only" and args:
            only = args.pop(0)
        else:
            sys.stderr.write("usage: mutants.py [--cycles N] [--only NAME] | --write NAME FILE\n")
            return 2
    src = open(RTL).read()
    passed = failed = 0
    for name, what, old, new, cfg in MUTANTS:
        if only and name != only:
            continue
        n = src.count(old)
        if n != 1:
            print("FAIL mutant %s: its target occurs %d times in %s (must be once)" % (name, n, RTL))
            failed += 1
            continue
        build = "build/mutants/%s" % name
        os.makedirs(build, exist_ok=True)
        path = os.path.abspath(os.path.join(build, "warp_arbiter.sv"))
        text = src.replace(old, new)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
        binary = "%s/tb/warp_arbiter/%s/tb_%s" % (build, cfg, cfg)
        # a mutant need not be lint-clean (-Wno-fatal)
        b = subprocess.run(["make", "-s", "BUILD=" + build, "WA_RTL=" + path,
                            "VERILATOR_EXTRA=-Wno-fatal", binary],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if b.returncode != 0:
            print("FAIL mutant %s: the mutant did not build\n%s" % (name, b.stdout[-2000:]))
            failed += 1
            continue
        env = dict(os.environ, WA_CYCLES=cycles)
        r = subprocess.run([binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=env)
        caught = [l[5:] for l in r.stdout.splitlines()
                  if l.startswith("FAIL ") and not l.startswith("FAIL coverage")]
        if caught:
            print("ok mutant %s (%s): caught by %s" % (name, what, ", ".join(caught[:3])))
            passed += 1
        else:
            print("FAIL mutant %s (%s): survived the %s testbench" % (name, what, cfg))
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
