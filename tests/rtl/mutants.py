#!/usr/bin/env python3
"""mutants.py: mutation tests of the RTL units, keyed by unit.  Each mutant
is one small fault applied to a copy of a unit's RTL; the unit's kit
testbench (the verilated mutant against the C twin, tb/kit/) must catch it.
A mutant that survives means the testbench cannot see that fault: the run
fails.  The mutants live beside the unit, in tb/<unit>/kit.txt:

  mutant NAME TAG WHAT
  - text of the RTL it changes (exactly once in rtl/<unit>.sv)
  + its replacement

  tests/rtl/mutants.py [--cycles N] [--unit UNIT] [--only NAME] [--dir D]
  tests/rtl/mutants.py --write UNIT NAME FILE   write mutant NAME's RTL to FILE

--dir D: the units of folder D too (laid out like the tree; KIT_DIRS in the
Makefile).  Each mutant builds its testbench under build/mutants/<unit>/
<name> (KIT_RTL_<unit> points the Makefile at the mutant).  Ends with
"N passed, N failed"; one line per mutant says which check caught it.
tests/cosim_test.sh shows the co-simulation catching a mutant too.
"""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read_kit(path):
    """The mutants of a kit.txt: (name, tag, what, old, new)."""
    out, cur = [], None
    for line in open(path).read().split("\n"):
        if line.startswith("mutant "):
            parts = line.split(" ", 3)
            cur = [parts[1], parts[2], parts[3] if len(parts) > 3 else "", None, None]
            out.append(cur)
        elif cur and line.startswith("- "):
            cur[3] = line[2:]
        elif cur and line.startswith("+ "):
            cur[4] = line[2:]
    return [tuple(m) for m in out if m[3] is not None and m[4] is not None]


def units(dirs):
    """unit -> home folder, for every rtl/<unit>.sv with a tb/<unit>/kit.txt."""
    found = {}
    for d in ["."] + dirs:
        for sv in sorted(glob.glob(os.path.join(d, "rtl", "*.sv"))):
            u = os.path.basename(sv)[:-3]
            if not u.endswith("_pkg") and os.path.exists(os.path.join(d, "tb", u, "kit.txt")):
                found[u] = d
    return found


def main():
    args = sys.argv[1:]
    os.chdir(ROOT)
    cycles, only, unit, dirs = "20000", None, None, []
    if len(args) == 4 and args[0] == "--write":
        homes = units(dirs)
        u = args[1]
        if u in homes:
            src = open(os.path.join(homes[u], "rtl", u + ".sv")).read()
            for name, _, _, old, new in read_kit(os.path.join(homes[u], "tb", u, "kit.txt")):
                if name == args[2] and src.count(old) == 1:
                    with open(args[3], "w") as f:
                        f.write(src.replace(old, new))
                    return 0
        sys.stderr.write("mutants.py: error: no mutant '%s' of unit '%s' applies\n" % (args[2], u))
        return 2
    while args:
        a = args.pop(0)
        if a == "--cycles" and args:
            cycles = args.pop(0)
        elif a == "--only" and args:
            only = args.pop(0)
        elif a == "--unit" and args:
            unit = args.pop(0)
        elif a == "--dir" and args:
            dirs.append(args.pop(0))
        else:
            sys.stderr.write("usage: mutants.py [--cycles N] [--unit UNIT] [--only NAME] "
                             "[--dir D] | --write UNIT NAME FILE\n")
            return 2
    passed = failed = 0
    for u, home in units(dirs).items():
        if unit and u != unit:
            continue
        rtl = os.path.join(home, "rtl", u + ".sv")
        src = open(rtl).read()
        for name, tag, what, old, new in read_kit(os.path.join(home, "tb", u, "kit.txt")):
            if only and name != only:
                continue
            n = src.count(old)
            if n != 1:
                print("FAIL mutant %s/%s: its target occurs %d times in %s (must be once)"
                      % (u, name, n, rtl))
                failed += 1
                continue
            build = "build/mutants/%s/%s" % (u, name)
            os.makedirs(build, exist_ok=True)
            path = os.path.abspath(os.path.join(build, u + ".sv"))
            text = src.replace(old, new)
            if not os.path.exists(path) or open(path).read() != text:
                with open(path, "w") as f:
                    f.write(text)
            binary = "%s/tb/%s/%s/tb" % (build, u, tag)
            # a mutant need not be lint-clean (-Wno-fatal)
            b = subprocess.run(["make", "-s", "BUILD=" + build, "KIT_RTL_%s=%s" % (u, path),
                                "KIT_DIRS=" + " ".join(dirs), "VERILATOR_EXTRA=-Wno-fatal",
                                binary],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if b.returncode != 0:
                print("FAIL mutant %s/%s: the mutant did not build\n%s"
                      % (u, name, b.stdout[-2000:]))
                failed += 1
                continue
            env = dict(os.environ, KIT_CYCLES=cycles)
            r = subprocess.run([binary], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env=env)
            caught = [l[5:] for l in r.stdout.splitlines()
                      if l.startswith("FAIL ") and not l.startswith("FAIL coverage")]
            if not caught and r.returncode != 0 and "Assertion failed" in r.stdout:
                caught = ["an assertion (SVA)"]
            if caught:
                print("ok mutant %s/%s (%s): caught by %s" % (u, name, what, ", ".join(caught[:3])))
                passed += 1
            else:
                print("FAIL mutant %s/%s (%s): survived the %s testbench" % (u, name, what, tag))
                failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
