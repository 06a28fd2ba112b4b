// relssp release unit: Scratchpad Sharing's per-thread active and release
// bits (reference 000 §2.5-§2.7, Fig. 11) and the per-block reduction
// "every live thread executed relssp".  Specification:
// docs/units/relssp_release.md (decisions Dn are defined there).  The C twin
// is cmodel/src/units/relssp_release.c; both follow the page, neither is
// derived from the other.
//
// One event per clock on op_i (simt_pkg::relssp_op_e).  all_released_o is
// the reduction over the state after this clock's event (D2): a Mealy
// output, so that the SM releases the lock in the event's cycle.
//
// Template (DESIGN §8, docs/cosim.md): outputs and next state in always_comb
// (`_d`, with a per-row write enable `_we`: an event writes one row, a
// clear the rows of one CTA slot), always_ff holds only the reset and
// `_q <= _d` under its enable; flops are marked public_flat_rd.
module relssp_release #(
  parameter int unsigned W = 96,  // warp slots, 1..128
  parameter int unsigned T = 16   // CTA slots, 1..64
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [2:0]      op_i,            // simt_pkg::relssp_op_e
  input  logic [IdxW-1:0] slot_i,          // warp slot (alloc, relssp, exit)
  input  logic [CtaW-1:0] cta_i,           // CTA slot (alloc, clear)
  input  logic [31:0]     lanes_i,         // lane mask (alloc, relssp, exit)
  output logic [T-1:0]    all_released_o   // bit t: CTA slot t has no live, unreleased lane
);

  localparam int unsigned IdxW = (W > 1) ? $clog2(W) : 1;
  localparam int unsigned CtaW = (T > 1) ? $clog2(T) : 1;

  // ------------------------------------------------------------------
  // State: per warp slot, one row each (unpacked arrays: one word per row
  // in simulation, the same flops in synthesis).
  // ------------------------------------------------------------------
  logic [31:0]     live_q [W] /*verilator public_flat_rd*/;  // A_i per lane
  logic [31:0]     live_d [W];
  logic [31:0]     rel_q  [W] /*verilator public_flat_rd*/;  // R_i per lane
  logic [31:0]     rel_d  [W];
  logic [CtaW-1:0] cta_q  [W] /*verilator public_flat_rd*/;  // the row's CTA slot
  logic [CtaW-1:0] cta_d  [W];
  logic [W-1:0]    row_we;

  // ------------------------------------------------------------------
  // Next state: the event's row, or a CTA slot's rows (D3: an out-of-range
  // slot or CTA slot changes nothing)
  // ------------------------------------------------------------------
  logic is_alloc, is_relssp, is_exit, is_clear, cta_ok, slot_ok;
  always_comb begin : decode
    is_alloc  = (op_i == simt_pkg::RelOpAlloc);
    is_relssp = (op_i == simt_pkg::RelOpRelssp);
    is_exit   = (op_i == simt_pkg::RelOpExit);
    is_clear  = (op_i == simt_pkg::RelOpClear);
    cta_ok    = ({1'b0, cta_i} < (CtaW + 1)'(T));
    slot_ok   = ({1'b0, slot_i} < (IdxW + 1)'(W));
  end

  always_comb begin : next_state
    for (int i = 0; i < W; i++) begin
      live_d[i] = live_q[i];
      rel_d[i]  = rel_q[i];
      cta_d[i]  = cta_q[i];
      row_we[i] = 1'b0;
    end
    if (is_clear && cta_ok) begin
      for (int i = 0; i < W; i++) begin
        if (cta_q[i] == cta_i) begin
          row_we[i] = 1'b1;
          live_d[i] = '0;
          rel_d[i]  = '0;
        end
      end
    end else if (slot_ok && ((is_alloc && cta_ok) || is_relssp || is_exit)) begin
      for (int i = 0; i < W; i++) begin
        if (slot_i == IdxW'(i)) begin
          row_we[i] = 1'b1;
          if (is_alloc) begin
            live_d[i] = lanes_i;
            rel_d[i]  = '0;
            cta_d[i]  = cta_i;
          end else if (is_relssp) begin
            rel_d[i]  = rel_q[i] | (lanes_i & live_q[i]);  // idempotent (D4)
          end else begin
            live_d[i] = live_q[i] & ~lanes_i;
            rel_d[i]  = rel_q[i] & ~lanes_i;
          end
        end
      end
    end
  end

  // ------------------------------------------------------------------
  // Output: the paper's reduction per block over the next state, NOR over
  // its rows of (live & ~rel) (D2; a CTA slot without rows: 1, D5)
  // ------------------------------------------------------------------
  logic [W-1:0] pending;
  always_comb begin : reduce
    for (int i = 0; i < W; i++) begin
      pending[i] = |(live_d[i] & ~rel_d[i]);
    end
    for (int t = 0; t < T; t++) begin
      all_released_o[t] = 1'b1;
      for (int i = 0; i < W; i++) begin
        if (pending[i] && cta_d[i] == CtaW'(t)) all_released_o[t] = 1'b0;
      end
    end
  end

  // ------------------------------------------------------------------
  // Flops: reset, and q <= d under the row enables (one block per row)
  // ------------------------------------------------------------------
  for (genvar i = 0; i < W; i++) begin : g_rows
    always_ff @(posedge clk_i or negedge rst_ni) begin : row
      if (!rst_ni) begin
        live_q[i] <= '0;
        rel_q[i]  <= '0;
        cta_q[i]  <= '0;
      end else if (row_we[i]) begin
        live_q[i] <= live_d[i];
        rel_q[i]  <= rel_d[i];
        cta_q[i]  <= cta_d[i];
      end
    end
  end

`ifdef SIMT_ASSERT
  // ------------------------------------------------------------------
  // Invariants (SVA), checked in the testbench (verilator --assert
  // +define+SIMT_ASSERT); left out of synthesis and of the co-simulation.
  // ------------------------------------------------------------------
  // A released lane is a live lane (relssp marks live lanes; an exit
  // clears both), and every row names an existing CTA slot.
  logic rows_ok;
  always_comb begin : rows_check
    rows_ok = 1'b1;
    for (int i = 0; i < W; i++) begin
      if ((rel_q[i] & ~live_q[i]) != '0) rows_ok = 1'b0;
      if ({1'b0, cta_q[i]} >= (CtaW + 1)'(T)) rows_ok = 1'b0;
    end
  end
  RelWithinLive: assert property (@(posedge clk_i) disable iff (!rst_ni) rows_ok)
    else $error("a released lane that is not live, or a row of no CTA slot");
  // An event writes at most one row (a clear: any number).
  OneRowPerEvent: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !is_clear |-> $onehot0(row_we));
`endif

endmodule
