// simt_pkg: the types the RTL units share (DESIGN §8).  Read before any
// unit by every tool (the Makefile, scripts/synth.sh, tests/rtl/mutants.py).
package simt_pkg;

  // Warp-scheduler policy (warp_arbiter policy_i).
  typedef enum logic [1:0] {
    PolLrr   = 2'd0,
    PolGto   = 2'd1,
    PolOwf   = 2'd2,
    PolLtlws = 2'd3
  } sched_policy_e;

  // Owner Warp First class of a warp slot (warp_arbiter cls_i), 2 bits per
  // slot; the order of the values is the priority.
  typedef enum logic [1:0] {
    ClsOwner    = 2'd0,
    ClsUnshared = 2'd1,
    ClsNonOwner = 2'd2,
    ClsReserved = 2'd3
  } owf_class_e;

  // relssp release unit event (relssp_release op_i), one per clock.
  typedef enum logic [2:0] {
    RelOpNone   = 3'd0,  // nothing
    RelOpAlloc  = 3'd1,  // a warp enters slot_i: CTA slot cta_i, live lanes lanes_i
    RelOpRelssp = 3'd2,  // lanes_i of slot_i executed relssp
    RelOpExit   = 3'd3,  // lanes_i of slot_i exited
    RelOpClear  = 3'd4   // CTA slot cta_i gets a new block: its rows empty
  } relssp_op_e;

endpackage
