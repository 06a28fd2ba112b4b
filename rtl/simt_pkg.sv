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

endpackage
