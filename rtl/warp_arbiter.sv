// Warp arbiter: one warp scheduler's issue arbiter over N slots, with the
// LRR, GTO, OWF and LTLWS policies.  Specification: docs/units/warp_arbiter.md
// (every rule and decision referred to below as Dn is defined there).  The C
// twin is cmodel/src/units/warp_arbiter.c; both follow the page, neither is
// derived from the other.
//
// Template (DESIGN §8, docs/cosim.md): outputs and next state in always_comb
// (`_d`), always_ff holds only the reset and `_q <= _d`; flops are marked
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
  logic [N-1:0]     self_oh;      // one-hot of the slot under consideration
  logic [WoptW-1:0] n_older;      // valid slots older than it
  logic [N-1:0]     cls_eq [4];   // [c]: slots of class c
  logic [N-1:0]     cls_lt [4];   // [c]: slots of a class below c
  logic [1:0]       cls_self;     // class of the slot under consideration

  always_comb begin : grant
    cand = valid_i & ready_i;

    // LTLWS cap: slot i is eligible when fewer than wopt_q valid slots are
    // older than it.  The order is total, so the valid slots older than i
    // are the valid slots other than i that i is not older than.
    self_oh  = '0;
    n_older  = '0;
    cls_self = '0;
    eligible = '0;
    if (wopt_valid_q) begin
      for (int i = 0; i < N; i++) begin
        self_oh     = '0;
        self_oh[i]  = 1'b1;
        n_older     = WoptW'($countones(valid_i & ~self_oh & ~age_q[i]));
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
      for (int i = 0; i < N; i++) begin
        at_or_after[i] = ((IdxW + 1)'(i) >= lrr_start);
      end
      lrr_hi  = lrr_set & at_or_after;
      lrr_any = |lrr_set;
      lrr_idx = (|lrr_hi) ? lowest_idx(lrr_hi) : lowest_idx(lrr_set);
    end

    // GTO: greedy on the last issuer, else the oldest: the member whose
    // age row covers every other member.
    greedy_gto = 1'b0;
    gto_oh     = '0;
    if (policy_i == simt_pkg::PolGto || (policy_i == simt_pkg::PolLtlws && !ltlws_inner_i)) begin
      greedy_gto = last_valid_q && gto_set[last_q];
      for (int i = 0; i < N; i++) begin
        self_oh    = '0;
        self_oh[i] = 1'b1;
        gto_oh[i]  = gto_set[i] && ((gto_set & ~self_oh & ~age_q[i]) == '0);
      end
    end

    // OWF: greedy, else the candidate that beats every other candidate on
    // (class, age).
    greedy_owf = 1'b0;
    owf_oh     = '0;
    for (int c = 0; c < 4; c++) begin
      cls_eq[c] = '0;
      cls_lt[c] = '0;
    end
    if (policy_i == simt_pkg::PolOwf) begin
      greedy_owf = last_valid_q && cand[last_q];
      for (int c = 0; c < 4; c++) begin
        for (int i = 0; i < N; i++) begin
          cls_eq[c][i] = (cls_i[2*i +: 2] == 2'(c));
          cls_lt[c][i] = (cls_i[2*i +: 2] <  2'(c));
        end
      end
      for (int i = 0; i < N; i++) begin
        self_oh    = '0;
        self_oh[i] = 1'b1;
        cls_self   = cls_i[2*i +: 2];
        owf_oh[i]  = cand[i] &&
                     ((cand & cls_lt[cls_self]) == '0) &&
                     ((cand & cls_eq[cls_self] & ~self_oh & ~age_q[i]) == '0);
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
  // Next state (combinational, `_d`)
  // ------------------------------------------------------------------
  logic [N-1:0]     inc;          // slot issued this cycle
  logic [CntW-1:0]  cnt_inc [N];  // counters after this cycle's issue
  logic [SumW-1:0]  sum;          // sum of cnt_inc
  logic [CntW-1:0]  fin_cnt;      // cnt_inc of the lowest finished slot
  logic [SumW-1:0]  k_times;      // k * fin_cnt, k = 2..N
  logic [WoptW-1:0] wopt_new;

  always_comb begin : next_state
    inc = '0;
    if (issued_valid_i) begin
      for (int i = 0; i < N; i++) begin
        inc[i] = (issued_idx_i == IdxW'(i));
      end
    end

    // Last issued (D7: an out-of-range index matches no slot).
    last_valid_d = last_valid_q | (|inc);
    last_d       = (|inc) ? issued_idx_i : last_q;

    // Counters: saturating increment (D9), then alloc clears.  They only
    // change on an issue or an alloc.
    for (int i = 0; i < N; i++) begin
      cnt_inc[i] = cnt_q[i];
      cnt_d[i]   = cnt_q[i];
    end
    if (issued_valid_i || (|alloc_i)) begin
      for (int i = 0; i < N; i++) begin
        if (inc[i] && !(&cnt_q[i])) begin
          cnt_inc[i] = cnt_q[i] + 1'b1;
        end
        cnt_d[i] = alloc_i[i] ? '0 : cnt_inc[i];
      end
    end

    // W_Opt (Eq. 14, D10-D12): floor(sum / c) >= k  <=>  k * c <= sum, so
    // W_Opt = 1 + #{k in 2..N : k * c <= sum}; c == 0 gives N.  Loaded
    // once per reset, at the first finish.
    sum          = '0;
    fin_cnt      = '0;
    k_times      = '0;
    wopt_new     = '0;
    wopt_valid_d = wopt_valid_q | (|finished_i);
    wopt_d       = wopt_q;
    if (!wopt_valid_q && (|finished_i)) begin
      for (int i = 0; i < N; i++) begin
        sum = sum + SumW'(cnt_inc[i]);
      end
      for (int i = N - 1; i >= 0; i--) begin
        if (finished_i[i]) fin_cnt = cnt_inc[i];
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
    for (int i = 0; i < N; i++) begin
      age_d[i] = age_q[i];
    end
    if (|alloc_i) begin
      for (int i = 0; i < N; i++) begin
        age_d[i] = alloc_i[i] ? (alloc_i & above(i)) : (age_q[i] | alloc_i);
      end
    end
  end

  // ------------------------------------------------------------------
  // Flops: reset and q <= d only
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
    always_ff @(posedge clk_i or negedge rst_ni) begin : row_regs
      if (!rst_ni) begin
        age_q[i] <= above(i);  // reset order: a lower index is older (D2)
        cnt_q[i] <= '0;
      end else begin
        age_q[i] <= age_d[i];
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
