#!/usr/bin/env bash
# kit_fixture_test.sh: the unit kit's promise (docs/cosim.md), shown on a
# second unit, tests/rtl/fixture/ (kit_counter), made of its own files
# only: rtl/kit_counter.sv, cmodel/src/units/kit_counter.{h,c} (twin and
# descriptor), tb/kit_counter/{tb.cpp,kit.txt}.  Nothing in sim/, the
# Makefile, scripts/ or tb/kit/ names it; its testbench builds from the
# kit's pattern rules (KIT_DIRS adds the folder), its lockstep run passes,
# and the kit's mutation run catches its mutant.  Ends with
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
fx=tests/rtl/fixture
build=build/kit_fixture
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | tail -n 15 | sed 's/^/    /'; }

if grep -rqs kit_counter sim Makefile scripts tb/kit; then
  bad "no generic file names the fixture unit" "$(grep -rls kit_counter sim Makefile scripts tb/kit)"
else
  ok "no file in sim/, the Makefile, scripts/ or tb/kit/ names the fixture unit"
fi
files=$(cd "$fx" && find . -type f | sort | tr '\n' ' ')
n=$(echo "$files" | wc -w)
if [ "$n" -le 6 ]; then ok "the fixture unit is $n files: $files"
else bad "the fixture unit needs $n files (at most 6)" "$files"; fi

tb=$build/tb/kit_counter/k4/tb
if out=$(make -s KIT_DIRS=$fx BUILD=$build "$tb" 2>&1); then
  ok "its testbench builds from the kit's pattern rules"
  out=$("$tb" 2>&1); rc=$?
  if [ "$rc" -eq 0 ] && grep -q "^ok random" <<<"$out" &&
     grep -q "zero found\[3\]" <<<"$out" && grep -q "^2 passed, 0 failed" <<<"$out"; then
    ok "its lockstep run passes, every flop compared, its coverage bins hit"
  else
    bad "its lockstep run (exit $rc)" "$out"
  fi
else
  bad "its testbench builds" "$out"
fi

out=$(python3 tests/rtl/mutants.py --dir $fx --unit kit_counter 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -q "^ok mutant kit_counter/dec_ignores_zero" <<<"$out" &&
   grep -q "^1 passed, 0 failed" <<<"$out"; then
  ok "the kit's mutation run catches its mutant: $(echo "$out" | grep -m1 '^ok mutant')"
else
  bad "the mutant is caught (exit $rc)" "$out"
fi
# A descriptor that disagrees with the RTL is refused, naming both widths.
bad_fx=$build/bad_fixture
rm -rf "$bad_fx" && mkdir -p "$bad_fx" && cp -r "$fx"/. "$bad_fx"/
sed -i 's/UNIT_DIR_FLOP, UNIT_ROWS, UNIT_SZ(UNIT_P, 1)/UNIT_DIR_FLOP, UNIT_ROWS, UNIT_SZ(UNIT_K, 5)/' \
  "$bad_fx/cmodel/src/units/kit_counter.c"
tb=$build/bad/tb/kit_counter/k4/tb
if out=$(make -s KIT_DIRS="$bad_fx" BUILD=$build/bad "$tb" 2>&1); then
  out=$("$tb" 2>&1); rc=$?
  if [ "$rc" -eq 2 ] &&
     grep -q "credit_q is 3 bits wide in the RTL, 5 in the descriptor" <<<"$out"; then
    ok "a descriptor width the RTL does not have is refused: $(head -n 1 <<<"$out")"
  else
    bad "a wrong descriptor width is refused (exit $rc)" "$out"
  fi
else
  bad "the fixture with a wrong width builds" "$out"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
