// Scratchpad Sharing's lock table: one SM's ShSM bit, partner table (ShTB),
// per-pair lock, FCFS arbitration between the SM's schedulers, ownership
// transfer at block completion, the release input and the OWF class of
// every CTA slot (reference 000 §2.5, §2.6, §2.11).  Specification:
// docs/units/share_lock_table.md (its "One cycle" steps 1-6 are the steps
// below).  The C twin is cmodel/src/units/share_lock_table.c; both follow
// the page, neither is derived from the other.
//
// Template (DESIGN §8, docs/cosim.md): next state and outputs in
// always_comb, always_ff only the reset and `_q <= _d`; flops marked
// public_flat_rd.  The outputs come from the next state: a grant, and the
// classes it changes, take effect in the cycle of the request.
module share_lock_table #(
  parameter int unsigned T     = 16,  // CTA slots, 2..64
  parameter int unsigned S     = 4,   // schedulers per SM, 1..8
  parameter int unsigned PartW = 5,   // partner entry width, T < 2**PartW
  parameter int unsigned Pairs = 8    // pair locks, 1..T/2
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                launch_i,     // a sharing kernel's first block on the SM
  input  logic [PartW-1:0]    base_i,       // m: the first extra slot (with launch_i)
  input  logic [PartW-1:0]    pairs_i,      // n - m (with launch_i)
  input  logic [T-1:0]        live_i,       // slots holding a block, before done_i
  input  logic [T-1:0]        place_i,      // a new block placed in the slot
  input  logic [T-1:0]        release_i,    // the slot's block released (relssp, drained)
  input  logic [T-1:0]        done_i,       // the slot's block completed
  input  logic [S-1:0]        req_valid_i,  // scheduler k requests the lock
  input  logic [S*IdxW-1:0]   req_slot_i,   // for this CTA slot, [k*IdxW +: IdxW]
  output logic [S-1:0]        grant_o,      // granted; wait = req_valid_i & ~grant_o
  output logic [2*T-1:0]      cls_o         // simt_pkg::owf_class_e per slot
);

  localparam int unsigned IdxW = (T > 1) ? $clog2(T) : 1;
  localparam logic [PartW-1:0] NoPartner = '1;

  // ------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------
  logic             shsm_q       /*verilator public_flat_rd*/, shsm_d;
  logic [PartW-1:0] partner_q [T] /*verilator public_flat_rd*/;
  logic [PartW-1:0] partner_d [T];
  logic [Pairs-1:0] lock_valid_q /*verilator public_flat_rd*/, lock_valid_d;
  logic [IdxW-1:0]  lock_q [Pairs] /*verilator public_flat_rd*/;  // holder, 0 when free
  logic [IdxW-1:0]  lock_d [Pairs];
  logic [T-1:0]     rel_done_q   /*verilator public_flat_rd*/, rel_done_d;

  // Pair j's second slot and whether pair j is in use (after step 1).
  logic [PartW-1:0] hi    [Pairs];
  logic [Pairs-1:0] act;
  logic             shsm_l;   // ShSM after step 1
  logic [IdxW-1:0]  rx;       // the slot of the request being looked at
  logic             done_lo, done_hi;

  always_comb begin : next_state
    // 1. launch: partner[x] = base+x and partner[base+x] = x for x < pairs.
    shsm_l       = shsm_q | launch_i;
    lock_valid_d = lock_valid_q;
    rel_done_d   = rel_done_q;
    done_lo      = 1'b0;
    done_hi      = 1'b0;
    for (int j = 0; j < Pairs; j++) lock_d[j] = lock_q[j];
    for (int x = 0; x < T; x++) begin
      if (!launch_i) begin
        partner_d[x] = partner_q[x];
      end else if (PartW'(x) < pairs_i) begin
        partner_d[x] = PartW'(x) + base_i;
      end else if (PartW'(x) >= base_i && (PartW'(x) - base_i) < pairs_i) begin
        partner_d[x] = PartW'(x) - base_i;
      end else begin
        partner_d[x] = NoPartner;
      end
    end
    if (launch_i) begin
      lock_valid_d = '0;
      for (int j = 0; j < Pairs; j++) lock_d[j] = '0;
      rel_done_d = '0;
    end
    for (int j = 0; j < Pairs; j++) begin
      hi[j]  = partner_d[j];
      act[j] = shsm_l && (partner_d[j] != NoPartner) && (partner_d[j] < PartW'(T)) &&
               (partner_d[j] > PartW'(j));
    end

    // 2. placement clears the released flag, a release sets it.
    rel_done_d = (rel_done_d & ~place_i) | release_i;

    // 3. a release frees the lock its block holds.
    for (int j = 0; j < Pairs; j++) begin
      if (lock_valid_d[j] && release_i[lock_d[j]]) begin
        lock_valid_d[j] = 1'b0;
        lock_d[j]       = '0;
      end
    end

    // 4. requests, lowest scheduler first (FCFS within the cycle): a
    // paired slot takes a free lock, the holder proceeds, the partner of
    // the holder waits; an unpaired slot needs no lock.
    grant_o = '0;
    rx      = '0;
    for (int k = 0; k < S; k++) begin
      if (req_valid_i[k]) begin
        rx = req_slot_i[k*IdxW +: IdxW];
        grant_o[k] = 1'b1;
        for (int j = 0; j < Pairs; j++) begin
          if (act[j] && ({1'b0, rx} == (IdxW+1)'(j) || PartW'(rx) == hi[j])) begin
            if (!lock_valid_d[j]) begin
              lock_valid_d[j] = 1'b1;
              lock_d[j]       = rx;
            end else if (lock_d[j] != rx) begin
              grant_o[k] = 1'b0;
            end
          end
        end
      end
    end

    // 5. completions, per pair its lower slot first: the holder's lock
    // passes to a live partner that has not released, else it is freed.
    for (int j = 0; j < Pairs; j++) begin
      done_lo = done_i[j];
      done_hi = done_i[hi[j][IdxW-1:0]];
      if (act[j] && lock_valid_d[j] && lock_d[j] == IdxW'(j) && done_lo) begin
        if (live_i[hi[j][IdxW-1:0]] && !rel_done_d[hi[j][IdxW-1:0]]) begin
          lock_d[j] = hi[j][IdxW-1:0];
        end else begin
          lock_valid_d[j] = 1'b0;
          lock_d[j]       = '0;
        end
      end
      if (act[j] && lock_valid_d[j] && lock_d[j] == hi[j][IdxW-1:0] && done_hi) begin
        if (live_i[j] && !done_lo && !rel_done_d[j]) begin
          lock_d[j] = IdxW'(j);
        end else begin
          lock_valid_d[j] = 1'b0;
          lock_d[j]       = '0;
        end
      end
    end

    // 6. ShSM lasts while a block of the kernel lives.
    shsm_d = shsm_l && ((live_i & ~done_i) != '0);

    // Outputs from the next state: owner, non-owner, else unshared.
    for (int x = 0; x < T; x++) begin
      cls_o[2*x +: 2] = simt_pkg::ClsUnshared;
      for (int j = 0; j < Pairs; j++) begin
        if (shsm_d && act[j] && lock_valid_d[j] && (x == j || PartW'(x) == hi[j])) begin
          cls_o[2*x +: 2] = (lock_d[j] == IdxW'(x)) ? simt_pkg::ClsOwner : simt_pkg::ClsNonOwner;
        end
      end
    end
  end

  // ------------------------------------------------------------------
  // Flops
  // ------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      shsm_q       <= 1'b0;
      lock_valid_q <= '0;
      rel_done_q   <= '0;
    end else begin
      shsm_q       <= shsm_d;
      lock_valid_q <= lock_valid_d;
      rel_done_q   <= rel_done_d;
    end
  end

  for (genvar x = 0; x < T; x++) begin : g_partner
    always_ff @(posedge clk_i or negedge rst_ni) begin : partner_row
      if (!rst_ni) begin
        partner_q[x] <= NoPartner;
      end else begin
        partner_q[x] <= partner_d[x];
      end
    end
  end

  for (genvar j = 0; j < Pairs; j++) begin : g_lock
    always_ff @(posedge clk_i or negedge rst_ni) begin : lock_row
      if (!rst_ni) begin
        lock_q[j] <= '0;
      end else begin
        lock_q[j] <= lock_d[j];
      end
    end
  end

`ifdef SIMT_ASSERT
  // ------------------------------------------------------------------
  // Invariants (SVA), checked in the testbench; left out of synthesis and
  // of the co-simulation.
  // ------------------------------------------------------------------
  // A held lock belongs to one of its pair's two slots.
  logic lock_in_pair;
  always_comb begin : lock_pair_check
    lock_in_pair = 1'b1;
    for (int j = 0; j < Pairs; j++) begin
      if (lock_valid_q[j] && lock_q[j] != IdxW'(j) &&
          PartW'(lock_q[j]) != partner_q[j]) lock_in_pair = 1'b0;
      if (!lock_valid_q[j] && lock_q[j] != '0) lock_in_pair = 1'b0;
    end
  end
  LockInPair: assert property (@(posedge clk_i) disable iff (!rst_ni) lock_in_pair)
    else $error("a lock is held by a slot outside its pair, or a free lock is not 0");
  // Two requests of one cycle for the two slots of a pair are never both granted.
  logic two_granted;
  always_comb begin : two_granted_check
    two_granted = 1'b0;
    for (int a = 0; a < S; a++) begin
      for (int b = 0; b < S; b++) begin
        if (a != b && grant_o[a] && grant_o[b] && req_valid_i[a] && req_valid_i[b] &&
            req_slot_i[a*IdxW +: IdxW] != req_slot_i[b*IdxW +: IdxW] &&
            {1'b0, req_slot_i[a*IdxW +: IdxW]} < (IdxW+1)'(T) && shsm_l &&
            partner_d[req_slot_i[a*IdxW +: IdxW]] != NoPartner && PartW'(req_slot_i[b*IdxW +: IdxW]) ==
            partner_d[req_slot_i[a*IdxW +: IdxW]]) two_granted = 1'b1;
      end
    end
  end
  OneHolderPerPair: assert property (@(posedge clk_i) disable iff (!rst_ni) !two_granted)
    else $error("both slots of a pair granted in one cycle");
  // The partner table is symmetric.
  logic symmetric;
  always_comb begin : symmetric_check
    symmetric = 1'b1;
    for (int x = 0; x < T; x++) begin
      if (partner_q[x] != NoPartner && partner_q[x] < PartW'(T) &&
          partner_q[partner_q[x][IdxW-1:0]] != PartW'(x)) symmetric = 1'b0;
    end
  end
  PartnerSymmetric: assert property (@(posedge clk_i) disable iff (!rst_ni) symmetric)
    else $error("partner table not symmetric");
`endif

endmodule
