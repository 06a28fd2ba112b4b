// Warp arbiter: one warp scheduler's issue arbiter over N slots, with the
// LRR, GTO, OWF and LTLWS policies.  Specification: docs/units/warp_arbiter.md
// (every rule and decision referred to below as Dn is defined there).  The C
// twin is cmodel/src/units/warp_arbiter.c; both follow the page, neither is
// derived from the other.
//
// Template (DESIGN §8, docs/cosim.md): outputs and next state in always_comb
// (`_d`, and a write enable `_we` where only some rows change), always_ff
// holds only the reset and `_q <= _d` under its enable; flops are marked
// public_flat_rd, so the co-simulation and the testbench read them by name.
// Logic whose result cannot be used is not evaluated (the LTLWS cap before
// W_Opt is valid, OWF classes under another policy, W_Opt outside a finish,
// counters and age rows outside an issue or an alloc): the same muxes and
// enables in hardware, a faster simulation.
module warp_arbiter #(
  parameter int unsigned N     = 24,  // warp slots, 1..64
  parameter int unsigned CntW  = 32,  // per-slot issue counter width
  parameter int unsigned WoptW = 6    // W_Opt register width, N < 2**WoptW
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [N-1:0]         valid_i,        // slot holds an unfinished warp
  input  logic [N-1:0]         ready_i,        // slot can issue this cycle
  input  logic [2*N-1:0]       cls_i,          // owf_class_e per slot, [2i+1:2i]
  input  logic [N-1:0]         alloc_i,        // a new warp enters the slot
  input  logic [N-1:0]         finished_i,     // the slot's warp finished
  input  logic                 issued_valid_i, // something issued this cycle
  input  logic [IdxW-1:0]      issued_idx_i,   // the slot that issued
  input  logic [1:0]           policy_i,       // simt_pkg::sched_policy_e
  input  logic                 ltlws_inner_i,  // 0 GTO, 1 LRR
  output logic                 grant_valid_o,
  output logic [IdxW-1:0]      grant_idx_o     // 0 when grant_valid_o is 0
);

  // Width of a slot index, and of the sum of all counters:
  // N * (2**CntW - 1) < 2**(CntW + IdxW + 1).
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1;
  localparam int unsigned SumW = CntW + IdxW + 1;

  // ------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------
  logic             last_valid_q /*verilator public_flat_rd*/, last_valid_d;
  logic [IdxW-1:0]  last_q       /*verilator public_flat_rd*/, last_d;
  // Per-slot rows are unpacked arrays: one word each in simulation, the
  // same flops in synthesis.  age_q[i][j]: slot i is older than slot j.
  logic [N-1:0]     age_q [N]    /*verilator public_flat_rd*/;
  logic [N-1:0]     age_d [N];
  logic [CntW-1:0]  cnt_q [N]    /*verilator public_flat_rd*/;  // issues of slot i
  logic [CntW-1:0]  cnt_d [N];
  logic             wopt_valid_q /*verilator public_flat_rd*/, wopt_valid_d;
  logic [WoptW-1:0] wopt_q       /*verilator public_flat_rd*/, wopt_d;

  // ------------------------------------------------------------------
  // Helpers (pure functions of their arguments)
  // ------------------------------------------------------------------

  // Index of the lowest set bit (0 when none).
  function automatic logic [IdxW-1:0] lowest_idx(input logic [N-1:0] v);
    logic [IdxW-1:0] r;
    r = '0;
    for (int i = N - 1; i >= 0; i--) begin
      if (v[i]) r = IdxW'(i);
    end
    lowest_idx = r;  // Yosys 0.23 reads no `return`
  endfunction

  // Every slot but i (a constant once the loops over i are unrolled).
  function automatic logic [N-1:0] others(input int i);
    logic [N-1:0] r;
    for (int j = 0; j < N; j++) begin
      r[j] = (j != i);
    end
    others = r;
  endfunction

  // The slots with an index above i.
  function automatic logic [N-1:0] above(input int i);
    logic [N-1:0] r;
    for (int j = 0; j < N; j++) begin
      r[j] = (j > i);
    end
    above = r;
  endfunction

  // ------------------------------------------------------------------
  // Grant (combinational)
  // ------------------------------------------------------------------
  logic [N-1:0]     cand;         // valid & ready
  logic [N-1:0]     eligible;     // LTLWS: the wopt_q oldest valid slots
  logic [N-1:0]     cand_lt;      // LTLWS candidates after the cap
  logic [N-1:0]     lrr_set;      // the set the LRR rule runs over
  logic [N-1:0]     gto_set;      // the set the GTO rule runs over
  logic [N-1:0]     at_or_after;  // slots at index >= LRR start
  logic [N-1:0]     lrr_hi;
  logic             lrr_any;
  logic [IdxW-1:0]  lrr_idx;
  logic             greedy_gto, greedy_owf;
  logic [N-1:0]     gto_oh, owf_oh;
  logic [IdxW:0]    lrr_start;    // one bit wider: last_q + 1 may equal N
  logic [WoptW-1:0] n_older;      // valid slots older than it
  logic [N-1:0]     cls_eq [4];   // [c]: slots of class c
  logic [N-1:0]     cls_lt [4];   // [c]: slots of a class below c
  logic [1:0]       cls_self;     // class of the slot under consideration

  always_comb begin : grant
    cand = valid_i & ready_i;

    // LTLWS cap: slot i is eligible when fewer than wopt_q valid slots are
    // older than it.  The order is total, so the valid slots older than i
    // are the valid slots other than i that i is not older than.
    // Evaluated only under LTLWS (W_Opt is loaded under every policy).
    n_older  = '0;
    cls_self = '0;
    eligible = '0;
    if (policy_i == simt_pkg::PolLtlws && wopt_valid_q) begin
      for (int i = 0; i < N; i++) begin
        n_older     = WoptW'($countones(valid_i & others(i) & ~age_q[i]));
        eligible[i] = valid_i[i] && (n_older < wopt_q);
      end
    end
    cand_lt = wopt_valid_q ? (cand & eligible) : cand;

    lrr_set = (policy_i == simt_pkg::PolLrr) ? cand : cand_lt;
    gto_set = (policy_i == simt_pkg::PolGto) ? cand : cand_lt;

    // LRR: the lowest candidate at or after last+1, else the lowest one.
    // Evaluated only under LRR and LTLWS-LRR (likewise GTO below).
    lrr_start   = '0;
    at_or_after = '0;
    lrr_hi      = '0;
    lrr_any     = 1'b0;
    lrr_idx     = '0;
    if (policy_i == simt_pkg::PolLrr || (policy_i == simt_pkg::PolLtlws && ltlws_inner_i)) begin
      lrr_start = last_valid_q ? ({1'b0, last_q} + 1'b1) : '0;
      // Slots lrr_start.. (none when lrr_start == N: the shift leaves N bits).
      at_or_after = ~((N'(1) << lrr_start) - N'(1));
      lrr_hi  = lrr_set & at_or_after;
      lrr_any = |lrr_set;
      lrr_idx = (|lrr_hi) ? lowest_idx(lrr_hi) : lowest_idx(lrr_set);
    end

    // GTO: greedy on the last issuer, else the oldest: the member whose
    // age row covers every other member (not evaluated on a greedy hit or
    // with no candidate).
    greedy_gto = 1'b0;
    gto_oh     = '0;
    if (policy_i == simt_pkg::PolGto || (policy_i == simt_pkg::PolLtlws && !ltlws_inner_i)) begin
      greedy_gto = last_valid_q && gto_set[last_q];
      if (!greedy_gto && (|gto_set)) begin
        for (int i = 0; i < N; i++) begin
          gto_oh[i] = gto_set[i] && ((gto_set & others(i) & ~age_q[i]) == '0);
        end
      end
    end

    // OWF: greedy, else the candidate that beats every other candidate on
    // (class, age) (not evaluated on a greedy hit or with no candidate).
    greedy_owf = 1'b0;
    owf_oh     = '0;
    for (int c = 0; c < 4; c++) begin
      cls_eq[c] = '0;
      cls_lt[c] = '0;
    end
    if (policy_i == simt_pkg::PolOwf) begin
      greedy_owf = last_valid_q && cand[last_q];
    end
    if (policy_i == simt_pkg::PolOwf && !greedy_owf && (|cand)) begin
      for (int c = 0; c < 4; c++) begin
        for (int i = 0; i < N; i++) begin
          cls_eq[c][i] = (cls_i[2*i +: 2] == 2'(c));
          cls_lt[c][i] = (cls_i[2*i +: 2] <  2'(c));
        end
      end
      for (int i = 0; i < N; i++) begin
        cls_self  = cls_i[2*i +: 2];
        owf_oh[i] = cand[i] &&
                    ((cand & cls_lt[cls_self]) == '0) &&
                    ((cand & cls_eq[cls_self] & others(i) & ~age_q[i]) == '0);
      end
    end

    grant_valid_o = 1'b0;
    grant_idx_o   = '0;
    unique case (policy_i)
      simt_pkg::PolLrr: begin
        grant_valid_o = lrr_any;
        grant_idx_o   = lrr_idx;
      end
      simt_pkg::PolGto: begin
        grant_valid_o = |gto_set;
        grant_idx_o   = greedy_gto ? last_q : lowest_idx(gto_oh);
      end
      simt_pkg::PolOwf: begin
        grant_valid_o = |cand;
        grant_idx_o   = greedy_owf ? last_q : lowest_idx(owf_oh);
      end
      default: begin  // simt_pkg::PolLtlws
        if (ltlws_inner_i) begin
          grant_valid_o = lrr_any;
          grant_idx_o   = lrr_idx;
        end else begin
          grant_valid_o = |gto_set;
          grant_idx_o   = greedy_gto ? last_q : lowest_idx(gto_oh);
        end
      end
    endcase
    if (!grant_valid_o) grant_idx_o = '0;
  end

  // ------------------------------------------------------------------
  // Next state (combinational, `_d`, with a write enable `_we` for the
  // rows: only the rows that change load)
  // ------------------------------------------------------------------
  logic [N-1:0]     inc;          // slot issued this cycle (one-hot or 0)
  logic [CntW-1:0]  cnt_sel;      // the issuing slot's counter
  logic [CntW-1:0]  cnt_new;      // cnt_sel after the issue
  logic [N-1:0]     cnt_we;       // counter rows that load
  logic             age_we;       // the age matrix loads
  logic [CntW-1:0]  cnt_after;    // a slot's counter after the issue
  logic [SumW-1:0]  sum;          // sum of the counters after the issue
  logic [CntW-1:0]  fin_cnt;      // that of the lowest finished slot
  logic [SumW-1:0]  k_times;      // k * fin_cnt, k = 2..N
  logic [WoptW-1:0] wopt_new;

  always_comb begin : next_state
    // D7: an out-of-range index matches no slot (the shift keeps N bits).
    inc = issued_valid_i ? (N'(1) << issued_idx_i) : '0;

    // Last issued.
    last_valid_d = last_valid_q | (|inc);
    last_d       = (|inc) ? issued_idx_i : last_q;

    // Counters: the issuing slot's saturating increment (D9); an alloc
    // clears its slot, and wins over an issue to it.
    cnt_sel = '0;
    if (|inc) begin
      for (int i = 0; i < N; i++) begin
        if (inc[i]) cnt_sel = cnt_q[i];
      end
    end
    cnt_new = (&cnt_sel) ? cnt_sel : cnt_sel + 1'b1;
    cnt_we  = inc | alloc_i;
    for (int i = 0; i < N; i++) begin
      cnt_d[i] = alloc_i[i] ? '0 : cnt_new;
    end

    // W_Opt (Eq. 14, D10-D12): floor(sum / c) >= k  <=>  k * c <= sum, so
    // W_Opt = 1 + #{k in 2..N : k * c <= sum}; c == 0 gives N.  Loaded
    // once per reset, at the first finish, from the counters after this
    // cycle's issue.
    cnt_after    = '0;
    sum          = '0;
    fin_cnt      = '0;
    k_times      = '0;
    wopt_new     = '0;
    wopt_valid_d = wopt_valid_q | (|finished_i);
    wopt_d       = wopt_q;
    if (!wopt_valid_q && (|finished_i)) begin
      for (int i = 0; i < N; i++) begin
        cnt_after = inc[i] ? cnt_new : cnt_q[i];
        sum       = sum + SumW'(cnt_after);
      end
      for (int i = N - 1; i >= 0; i--) begin
        if (finished_i[i]) fin_cnt = inc[i] ? cnt_new : cnt_q[i];
      end
      wopt_new = WoptW'(1);
      k_times  = SumW'(fin_cnt);
      for (int k = 2; k <= N; k++) begin
        k_times = k_times + SumW'(fin_cnt);
        if (k_times <= sum) wopt_new = wopt_new + 1'b1;
      end
      wopt_d = wopt_new;
    end

    // Age matrix: an allocated slot becomes younger than every other;
    // among slots allocated together a lower index is older (D13).  Row
    // i: if i is allocated it is older only than the slots allocated with
    // it at a higher index; otherwise it also becomes older than every
    // new slot.
    age_we = |alloc_i;
    for (int i = 0; i < N; i++) begin
      age_d[i] = age_q[i];
    end
    if (age_we) begin
      for (int i = 0; i < N; i++) begin
        age_d[i] = alloc_i[i] ? (alloc_i & above(i)) : (age_q[i] | alloc_i);
      end
    end
  end

  // ------------------------------------------------------------------
  // Flops: reset, and q <= d under the row enables
  // ------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      last_valid_q <= 1'b0;
      last_q       <= '0;
      wopt_valid_q <= 1'b0;
      wopt_q       <= '0;
    end else begin
      last_valid_q <= last_valid_d;
      last_q       <= last_d;
      wopt_valid_q <= wopt_valid_d;
      wopt_q       <= wopt_d;
    end
  end

  // One block per row (no loop over a nonblocking array assignment).
  for (genvar i = 0; i < N; i++) begin : g_rows
    always_ff @(posedge clk_i or negedge rst_ni) begin : age_row
      if (!rst_ni) begin
        age_q[i] <= above(i);  // reset order: a lower index is older (D2)
      end else if (age_we) begin
        age_q[i] <= age_d[i];
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin : cnt_row
      if (!rst_ni) begin
        cnt_q[i] <= '0;
      end else if (cnt_we[i]) begin
        cnt_q[i] <= cnt_d[i];
      end
    end
  end

`ifdef SIMT_ASSERT
  // ------------------------------------------------------------------
  // Invariants (SVA), checked in the testbench (verilator --assert
  // +define+SIMT_ASSERT); left out of synthesis and of the co-simulation.
  // ------------------------------------------------------------------
  // The age matrix is a strict total order over the N slots.
  logic age_order_ok;
  always_comb begin : age_order
    age_order_ok = 1'b1;
    for (int i = 0; i < N; i++) begin
      for (int j = 0; j < N; j++) begin
        if ((i == j) ? age_q[i][j] : (age_q[i][j] == age_q[j][i])) age_order_ok = 1'b0;
      end
    end
  end
  AgeOrder: assert property (@(posedge clk_i) disable iff (!rst_ni) age_order_ok)
    else $error("age_q is not a strict total order");
  // Immediate assertions at each clock edge (after reset): the oldest of a
  // set, and the best (class, age) candidate, are unique.
  always_ff @(posedge clk_i) begin : imm_checks
    if (rst_ni) begin
      GtoOneHot: assert ($onehot0(gto_oh))
        else $error("GTO: %0d oldest candidates", $countones(gto_oh));
      OwfOneHot: assert ($onehot0(owf_oh))
        else $error("OWF: %0d best candidates", $countones(owf_oh));
    end
  end
  // A grant goes to a ready, valid slot; no grant means index 0 (D1).
  GrantIsCandidate: assert property (@(posedge clk_i) disable iff (!rst_ni)
    grant_valid_o |-> (valid_i[grant_idx_o] && ready_i[grant_idx_o]));
  NoGrantIdxZero: assert property (@(posedge clk_i) disable iff (!rst_ni)
    !grant_valid_o |-> (grant_idx_o == '0));
  // W_Opt, once valid, lies in 1..N.
  WoptInRange: assert property (@(posedge clk_i) disable iff (!rst_ni)
    wopt_valid_q |-> (wopt_q >= WoptW'(1) && wopt_q <= WoptW'(N)));
`endif

endmodule
