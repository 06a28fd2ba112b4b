// Warp arbiter: one warp scheduler's issue arbiter over N slots, with the
// LRR, GTO, OWF and LTLWS policies.  Specification: docs/units/warp_arbiter.md
// (every rule and decision referred to below as Dn is defined there).  The C
// twin is cmodel/src/units/warp_arbiter.c; both follow the page, neither is
// derived from the other.
module warp_arbiter #(
  parameter int unsigned N      = 24,  // warp slots
  parameter int unsigned CNT_W  = 32,  // per-slot issue counter width
  parameter int unsigned WOPT_W = 6,   // W_Opt register width, N < 2**WOPT_W
  // Derived: width of a slot index.  Not meant to be overridden.
  parameter int unsigned IDX_W  = (N > 1) ? $clog2(N) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [N-1:0]     valid_i,        // slot holds an unfinished warp
  input  logic [N-1:0]     ready_i,        // slot can issue this cycle
  input  logic [2*N-1:0]   cls_i,          // OWF class per slot, [2i+1:2i]
  input  logic [N-1:0]     alloc_i,        // a new warp enters the slot
  input  logic [N-1:0]     finished_i,     // the slot's warp finished
  input  logic             issued_valid_i, // something issued this cycle
  input  logic [IDX_W-1:0] issued_idx_i,   // the slot that issued
  input  logic [1:0]       policy_i,       // 0 LRR, 1 GTO, 2 OWF, 3 LTLWS
  input  logic             ltlws_inner_i,  // 0 GTO, 1 LRR
  output logic             grant_valid_o,
  output logic [IDX_W-1:0] grant_idx_o     // 0 when grant_valid_o is 0
);

  // Sum of all counters: N * (2**CNT_W - 1) < 2**(CNT_W + IDX_W + 1).
  localparam int unsigned SUM_W = CNT_W + IDX_W + 1;

  localparam logic [1:0] PolLrr   = 2'd0;
  localparam logic [1:0] PolGto   = 2'd1;
  localparam logic [1:0] PolOwf   = 2'd2;

  // ------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------
  logic               last_valid_q;
  logic [IDX_W-1:0]   last_q;
  // Per-slot rows are unpacked arrays: one word each in simulation, the
  // same flops in synthesis.
  logic [N-1:0]       age_q [N];        // age_q[i][j]: slot i older than slot j
  logic [CNT_W-1:0]   cnt_q [N];        // cnt_q[i]: issues of slot i
  logic               wopt_valid_q;
  logic [WOPT_W-1:0]  wopt_q;

  // ------------------------------------------------------------------
  // Helpers (pure functions of their arguments)
  // ------------------------------------------------------------------

  // Index of the lowest set bit (0 when none).
  function automatic logic [IDX_W-1:0] lowest_idx(input logic [N-1:0] v);
    logic [IDX_W-1:0] r;
    r = '0;
    for (int i = N - 1; i >= 0; i = i - 1) begin
      if (v[i]) r = i[IDX_W-1:0];
    end
    lowest_idx = r;
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
  logic [N-1:0] cand;         // valid & ready
  logic [N-1:0] eligible;     // LTLWS: the wopt_q oldest valid slots
  logic [N-1:0] cand_lt;      // LTLWS candidates after the cap
  logic [N-1:0] lrr_set;      // the set the LRR rule runs over
  logic [N-1:0] gto_set;      // the set the GTO rule runs over
  logic [N-1:0] at_or_after;  // slots at index >= LRR start
  logic [N-1:0] lrr_hi;
  logic         lrr_any;
  logic [IDX_W-1:0] lrr_idx;
  logic         greedy_gto, greedy_owf;
  logic [N-1:0] gto_oh, owf_oh;
  logic [IDX_W:0] lrr_start;  // one bit wider: last_q + 1 may equal N
  logic [N-1:0] self_oh;      // one-hot of the slot under consideration
  logic [WOPT_W-1:0] n_older; // valid slots older than it
  logic [4*N-1:0] cls_eq;     // [c*N +: N]: slots of class c
  logic [4*N-1:0] cls_lt;     // [c*N +: N]: slots of a class below c
  logic [1:0]     cls_self;   // class of the slot under consideration

  always_comb begin
    cand = valid_i & ready_i;

    // LTLWS cap: slot i is eligible when fewer than wopt_q valid slots are
    // older than it.  The order is total, so the valid slots older than i
    // are the valid slots other than i that i is not older than.
    // Only the logic a policy uses is evaluated: the same hardware (the
    // unused results are never selected), a faster simulation.
    self_oh  = '0;
    n_older  = '0;
    cls_self = '0;
    eligible = '0;
    if (wopt_valid_q) begin
      for (int i = 0; i < N; i++) begin
        self_oh    = '0;
        self_oh[i] = 1'b1;
        n_older = WOPT_W'($countones(valid_i & ~self_oh & ~age_q[i]));
        eligible[i] = valid_i[i] && (n_older < wopt_q);
      end
    end
    cand_lt = wopt_valid_q ? (cand & eligible) : cand;

    lrr_set = (policy_i == PolLrr) ? cand : cand_lt;
    gto_set = (policy_i == PolGto) ? cand : cand_lt;

    // LRR: the lowest candidate at or after last+1, else the lowest one.
    lrr_start = last_valid_q ? ({1'b0, last_q} + 1'b1) : '0;
    for (int i = 0; i < N; i++) begin
      at_or_after[i] = (i[IDX_W:0] >= lrr_start);
    end
    lrr_hi  = lrr_set & at_or_after;
    lrr_any = |lrr_set;
    lrr_idx = (|lrr_hi) ? lowest_idx(lrr_hi) : lowest_idx(lrr_set);

    // GTO: greedy on the last issuer, else the oldest.
    greedy_gto = last_valid_q && gto_set[last_q];
    // The oldest member of the set: the one whose age row covers every
    // other member.
    for (int i = 0; i < N; i++) begin
      self_oh    = '0;
      self_oh[i] = 1'b1;
      gto_oh[i] = gto_set[i] && ((gto_set & ~self_oh & ~age_q[i]) == '0);
    end

    // OWF: greedy, else the candidate that beats every other candidate on
    // (class, age).
    greedy_owf = last_valid_q && cand[last_q];
    cls_eq = '0;
    cls_lt = '0;
    owf_oh = '0;
    if (policy_i == PolOwf) begin
      for (int c = 0; c < 4; c++) begin
        for (int i = 0; i < N; i++) begin
          cls_eq[c*N+i] = (cls_i[2*i +: 2] == c[1:0]);
          cls_lt[c*N+i] = (cls_i[2*i +: 2] <  c[1:0]);
        end
      end
      for (int i = 0; i < N; i++) begin
        self_oh    = '0;
        self_oh[i] = 1'b1;
        cls_self   = cls_i[2*i +: 2];
        owf_oh[i] = cand[i] &&
                    ((cand & cls_lt[cls_self*N +: N]) == '0) &&
                    ((cand & cls_eq[cls_self*N +: N] & ~self_oh & ~age_q[i]) == '0);
      end
    end

    grant_valid_o = 1'b0;
    grant_idx_o   = '0;
    unique case (policy_i)
      PolLrr: begin
        grant_valid_o = lrr_any;
        grant_idx_o   = lrr_idx;
      end
      PolGto: begin
        grant_valid_o = |gto_set;
        grant_idx_o   = greedy_gto ? last_q : lowest_idx(gto_oh);
      end
      PolOwf: begin
        grant_valid_o = |cand;
        grant_idx_o   = greedy_owf ? last_q : lowest_idx(owf_oh);
      end
      default: begin  // LTLWS
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
  // Next state, at the clock edge.  The next-state logic sits in the
  // clocked block (block-local temporaries), so a simulator evaluates it
  // only at an edge; synthesis builds the same logic in front of the flops.
  // ------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : next_state
    logic [N-1:0]      inc;          // slot issued this cycle
    logic [CNT_W-1:0]  cnt_inc [N];  // counters after this cycle's issue
    logic [SUM_W-1:0]  sum;          // sum of cnt_inc
    logic [CNT_W-1:0]  fin_cnt;      // cnt_inc of the lowest finished slot
    logic [SUM_W-1:0]  k_times;      // k * fin_cnt, k = 2..N
    logic [WOPT_W-1:0] wopt_new;
    if (!rst_ni) begin
      last_valid_q <= 1'b0;
      last_q       <= '0;
      for (int i = 0; i < N; i++) begin
        age_q[i] <= above(i);  // reset order: a lower index is older (D2)
        cnt_q[i] <= '0;
      end
      wopt_valid_q <= 1'b0;
      wopt_q       <= '0;
    end else begin
      for (int i = 0; i < N; i++) begin
        inc[i] = issued_valid_i && (issued_idx_i == i[IDX_W-1:0]);
      end

      // Last issued (D7: an out-of-range index matches no slot).
      last_valid_q <= last_valid_q | (|inc);
      last_q       <= (|inc) ? issued_idx_i : last_q;

      // Counters: saturating increment (D9), then alloc clears.  They only
      // change on an issue or an alloc (the same hardware with an enable;
      // a faster simulation).
      for (int i = 0; i < N; i++) begin
        cnt_inc[i] = cnt_q[i];
        if (inc[i] && !(&cnt_q[i])) begin
          cnt_inc[i] = cnt_q[i] + 1'b1;
        end
      end
      if (issued_valid_i || (|alloc_i)) begin
        for (int i = 0; i < N; i++) begin
          cnt_q[i] <= alloc_i[i] ? '0 : cnt_inc[i];
        end
      end

      // W_Opt (Eq. 14, D10-D12): floor(sum / c) >= k  <=>  k * c <= sum, so
      // W_Opt = 1 + #{k in 2..N : k * c <= sum}; c == 0 gives N.
      // Evaluated only at a finish, when wopt_q may load (the same
      // hardware; a faster simulation).
      wopt_valid_q <= wopt_valid_q | (|finished_i);
      if (|finished_i) begin
        sum = '0;
        for (int i = 0; i < N; i++) begin
          sum = sum + {{(SUM_W-CNT_W){1'b0}}, cnt_inc[i]};
        end
        fin_cnt = '0;
        for (int i = N - 1; i >= 0; i = i - 1) begin
          if (finished_i[i]) fin_cnt = cnt_inc[i];
        end
        wopt_new = {{(WOPT_W-1){1'b0}}, 1'b1};
        k_times  = {{(SUM_W-CNT_W){1'b0}}, fin_cnt};
        for (int k = 2; k <= N; k++) begin
          k_times = k_times + {{(SUM_W-CNT_W){1'b0}}, fin_cnt};
          if (k_times <= sum) wopt_new = wopt_new + 1'b1;
        end
        wopt_q       <= (!wopt_valid_q && (|finished_i)) ? wopt_new : wopt_q;
      end

      // Age matrix: an allocated slot becomes younger than every other;
      // among slots allocated together a lower index is older (D13).  Row
      // i: if i is allocated it is older only than the slots allocated with
      // it at a higher index; otherwise it also becomes older than every
      // new slot.
      if (|alloc_i) begin  // rows change only at an alloc
        for (int i = 0; i < N; i++) begin
          if (alloc_i[i]) begin
            age_q[i] <= alloc_i & above(i);
          end else begin
            age_q[i] <= age_q[i] | alloc_i;
          end
        end
      end
    end
  end

endmodule
