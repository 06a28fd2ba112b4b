#!/usr/bin/env bash
# synth.sh [UNIT...]: the area and timing estimate of each RTL unit
# (docs/area-timing.md).  Yosys synthesises rtl/<unit>.sv at its default
# parameters to the OSU 0.18 um standard cells (Debian's qflow-tech-osu018),
# OpenSTA times the netlist.  Per unit, build/synth/<unit>/ gets the
# netlist, the logs and summary.txt; build/synth/summary.md holds the table.
# Default: every unit in rtl/.
set -euo pipefail
cd "$(dirname "$0")/.."
LIB=${OSU018_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
[ -r "$LIB" ] || { echo "synth: error: no standard-cell library at $LIB (make deps installs qflow-tech-osu018)" >&2; exit 2; }
for t in yosys sta; do
  command -v $t >/dev/null || { echo "synth: error: $t is missing (make deps)" >&2; exit 2; }
done
PERIOD=${SYNTH_PERIOD_NS:-20}
units=("$@")
[ ${#units[@]} -gt 0 ] || units=($(ls rtl/*.sv | grep -v '_pkg\.sv$' | xargs -n1 basename | sed 's/\.sv$//'))
pkgs=$(ls rtl/*_pkg.sv 2>/dev/null | tr '\n' ' ') # shared types, read before every unit
out=build/synth
mkdir -p "$out"
rows=()
for u in "${units[@]}"; do
  [ -r "rtl/$u.sv" ] || { echo "synth: error: no rtl/$u.sv" >&2; exit 2; }
  d="$out/$u"
  mkdir -p "$d"
  echo "synth: $u: yosys (OSU 0.18 um) ..."
  yosys -q -l "$d/yosys.log" -p "
    read_liberty -lib $LIB
    read_verilog -sv $pkgs rtl/$u.sv
    hierarchy -check -top $u
    synth -top $u -flatten
    dfflibmap -liberty $LIB
    abc -liberty $LIB
    opt_clean
    check -assert
    tee -o $d/stat.txt stat -liberty $LIB
    write_verilog -noattr -noexpr $d/netlist.v"
  echo "synth: $u: OpenSTA ..."
  clk=$(grep -m1 -oE "input +(logic|wire)? *clk[a-z_]*" "rtl/$u.sv" | awk '{print $NF}')
  cat >"$d/sta.tcl" <<TCL
read_liberty $LIB
read_verilog $d/netlist.v
link_design $u
create_clock -name clk -period $PERIOD [get_ports $clk]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports $clk]]
set_output_delay 0 -clock clk [all_outputs]
report_checks -path_delay max -digits 3
puts "== to outputs"
report_checks -path_delay max -to [all_outputs] -digits 3
exit
TCL
  sta -no_init -exit "$d/sta.tcl" >"$d/sta.log" 2>&1 || sta "$d/sta.tcl" <<<"exit" >"$d/sta.log" 2>&1 || true
  cells=$(grep -m1 -E "Number of cells:" "$d/stat.txt" | awk '{print $NF}')
  area=$(grep -m1 -E "Chip area for module" "$d/stat.txt" | awk '{printf "%.0f", $NF}')
  ffs=$(grep -E "^\s+(DFFPOSX1|DFFNEGX1|DFFSR|LATCH)\s" "$d/stat.txt" | awk '{s += $2} END {print s + 0}')
  # the clock group's worst path: its slack, and the cells it crosses
  clkpath=$(awk '/^Path Group: clk$/ {f = 1} f {print} f && /slack \(/ {exit}' "$d/sta.log")
  outarr=$(sed -n '/^== to outputs/,$p' "$d/sta.log" | grep -m1 "data arrival time" | awk '{print $1}')
  slack=$(echo "$clkpath" | grep -m1 "slack (" | awk '{print $1}')
  depth=$(echo "$clkpath" | grep -cE "/[A-Z]+ \((AND|AOI|BUF|INV|MUX|NAND|NOR|OAI|OR|XNOR|XOR|FAX|HAX|CLKBUF|TBUF)")
  if [ -z "$slack" ] || [ -z "$cells" ]; then
    echo "synth: error: $u: no result (see $d/yosys.log, $d/sta.log)" >&2; exit 1
  fi
  crit=$(awk -v p="$PERIOD" -v s="$slack" 'BEGIN {printf "%.2f", p - s}')
  fmax=$(awk -v c="$crit" 'BEGIN {printf "%.0f", 1000 / c}')
  {
    echo "unit            $u (default parameters)"
    echo "library         OSU 0.18 um ($LIB)"
    echo "cells           $cells"
    echo "flip-flops      $ffs (= storage bits: the unit keeps its state in flops)"
    echo "area            $area um^2"
    echo "logic depth     $depth cells on the critical path"
    echo "critical path   $crit ns (OpenSTA, clock $PERIOD ns, worst slack $slack ns)"
    echo "fmax            $fmax MHz"
    echo "to the outputs  ${outarr:-?} ns (the longest path ending at an output port)"
  } | tee "$d/summary.txt"
  rows+=("| $u | $cells | $ffs | $area | $depth | $crit | $fmax | ${outarr:-?} |")
done
{
  echo "| unit | cells | flip-flops (storage bits) | area (um^2, OSU 0.18 um) | logic depth (cells) | critical path (ns) | fmax (MHz) | to outputs (ns) |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} >"$out/summary.md"
echo "synth: table in $out/summary.md"
