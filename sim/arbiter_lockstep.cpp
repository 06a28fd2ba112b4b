// arbiter_lockstep.cpp: see arbiter_lockstep.h.
#include "arbiter_lockstep.h"

#include <cinttypes>

namespace {

unsigned idx_width(unsigned n)
{
    unsigned w = 0;
    while ((1u << w) < n)
        w++;
    return w ? w : 1;
}

uint64_t pack_cls(const warp_arbiter_in_t &in, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n && i < 32; i++)
        v |= (uint64_t)(in.cls[i] & 3) << (2 * i);
    return v;
}

// Signal order of the VCD files (see declare()).
enum Sig {
    S_VALID, S_READY, S_ALLOC, S_FINISHED, S_CLS, S_ISSUED_VALID, S_ISSUED_IDX,
    S_POLICY, S_LTLWS_INNER, N_IN,
    S_GRANT_VALID = 0, S_GRANT_IDX, S_LAST_VALID, S_LAST, S_WOPT_VALID, S_WOPT, N_OUT
};

} // namespace

ArbiterLockstep::ArbiterLockstep(unsigned instance, std::unique_ptr<RtlArbiter> rtl,
                                 unsigned history)
    : instance_(instance), rtl_(std::move(rtl)), ring_(history ? history : 1)
{
}

ArbiterLockstep::~ArbiterLockstep()
{
    rtl_->trace_close();
}

void ArbiterLockstep::trace_window(const std::string &dir, uint64_t from, uint64_t to)
{
    tracing_ = true;
    dir_ = dir;
    from_ = from;
    to_ = to;
}

void ArbiterLockstep::push()
{
    ring_[head_] = cur_;
    head_ = (head_ + 1) % ring_.size();
    if (count_ < ring_.size())
        count_++;
    if (tracing_ && trace_started_ && cur_.cycle <= to_)
        trace_cycle(cur_);
    open_ = false;
}

void ArbiterLockstep::begin_cycle(uint64_t cycle)
{
    if (open_ && cur_.cycle == cycle)
        return;
    if (open_)
        push();
    cur_ = Cycle{};
    cur_.cycle = cycle;
    open_ = true;
    if (tracing_ && !trace_started_ && cycle >= from_ && cycle <= to_) {
        unsigned n = rtl_->n(), iw = idx_width(n);
        const char *in_names[N_IN] = { "valid_i", "ready_i", "alloc_i", "finished_i", "cls_i",
                                       "issued_valid_i", "issued_idx_i", "policy_i",
                                       "ltlws_inner_i" };
        const unsigned in_w[N_IN] = { n, n, n, n, 2 * n, 1, iw, 2, 1 };
        const char *out_names[N_OUT] = { "grant_valid_o", "grant_idx_o", "last_valid_q",
                                         "last_q", "wopt_valid_q", "wopt_q" };
        const unsigned out_w[N_OUT] = { 1, iw, 1, iw, 1, 6 };
        for (unsigned k = 0; k < N_IN; k++)
            c_sig_.push_back(c_vcd_.add("c_twin", in_names[k], in_w[k]));
        for (unsigned k = 0; k < N_OUT; k++)
            c_sig_.push_back(c_vcd_.add("c_twin", out_names[k], out_w[k]));
        for (unsigned k = 0; k < N_IN; k++)
            both_sig_.push_back(both_vcd_.add("inputs", in_names[k], in_w[k]));
        for (unsigned k = 0; k < N_OUT; k++)
            both_sig_.push_back(both_vcd_.add("c_twin", out_names[k], out_w[k]));
        for (unsigned k = 0; k < N_OUT; k++)
            both_sig_.push_back(both_vcd_.add("rtl", out_names[k], out_w[k]));
        std::string what = "warp_arbiter instance " + std::to_string(instance_) +
                           "; one cycle = 10 ns, inputs and outputs at cycle*10, flops "
                           "after the edge at cycle*10+5";
        bool ok = c_vcd_.open(dir_ + "/c_twin.vcd", "simt cosim: C twin of " + what) &&
                  both_vcd_.open(dir_ + "/side_by_side.vcd", "simt cosim: " + what) &&
                  rtl_->trace_open(dir_ + "/rtl.fst");
        if (!ok)
            std::fprintf(stderr, "cosim: error: cannot write the waveform files in %s\n",
                         dir_.c_str());
        trace_started_ = ok;
    }
}

void ArbiterLockstep::trace_cycle(const Cycle &c)
{
    const warp_arbiter_in_t &in = c.in;
    const uint64_t inv[N_IN] = { in.valid, in.ready, in.alloc, in.finished,
                                 pack_cls(in, rtl_->n()), in.issued_valid, in.issued_idx,
                                 in.policy, in.ltlws_inner };
    uint64_t t = c.cycle * 10;
    c_vcd_.time(t);
    both_vcd_.time(t);
    for (unsigned k = 0; k < N_IN; k++) {
        c_vcd_.set(c_sig_[k], inv[k]);
        both_vcd_.set(both_sig_[k], inv[k]);
    }
    if (c.evaluated) {
        c_vcd_.set(c_sig_[N_IN + S_GRANT_VALID], c.c_out.grant_valid);
        c_vcd_.set(c_sig_[N_IN + S_GRANT_IDX], c.c_out.grant_idx);
        both_vcd_.set(both_sig_[N_IN + S_GRANT_VALID], c.c_out.grant_valid);
        both_vcd_.set(both_sig_[N_IN + S_GRANT_IDX], c.c_out.grant_idx);
        both_vcd_.set(both_sig_[N_IN + N_OUT + S_GRANT_VALID], c.rtl_out.grant_valid);
        both_vcd_.set(both_sig_[N_IN + N_OUT + S_GRANT_IDX], c.rtl_out.grant_idx);
    }
    if (!c.ticked)
        return;
    c_vcd_.time(t + 5);
    both_vcd_.time(t + 5);
    const ArbiterFlops *f[2] = { &c.c_after, &c.rtl_after };
    for (int side = 0; side < 2; side++) {
        const uint64_t v[4] = { f[side]->last_valid, f[side]->last, f[side]->wopt_valid,
                                f[side]->wopt };
        for (unsigned k = 0; k < 4; k++) {
            both_vcd_.set(both_sig_[N_IN + side * N_OUT + S_LAST_VALID + k], v[k]);
            if (side == 0)
                c_vcd_.set(c_sig_[N_IN + S_LAST_VALID + k], v[k]);
        }
    }
}

bool ArbiterLockstep::differ(uint64_t cycle, const char *field, uint64_t c, uint64_t r, int slot)
{
    if (c == r)
        return false;
    mm_ = Mismatch{ cycle, slot < 0 ? field : std::string(field) + "[" + std::to_string(slot) + "]",
                    c, r };
    return true;
}

// The current cycle's edge has been applied to the RTL: compare the flops,
// keep the cycle in the history.
bool ArbiterLockstep::complete()
{
    cur_.rtl_after = rtl_->flops();
    edge_pending_ = false;
    const ArbiterFlops &c = cur_.c_after, &r = cur_.rtl_after;
    uint64_t cyc = cur_.cycle;
    bool bad = differ(cyc, "last_valid_q", c.last_valid, r.last_valid) ||
               (c.last_valid && differ(cyc, "last_q", c.last, r.last)) ||
               differ(cyc, "wopt_valid_q", c.wopt_valid, r.wopt_valid) ||
               (c.wopt_valid && differ(cyc, "wopt_q", c.wopt, r.wopt));
    int i = bad ? -1 : rtl_->first_row_diff(c_cnt_, c_age_);
    if (i >= 0)
        bad = differ(cyc, "cnt_q", c_cnt_[i], rtl_->cnt((unsigned)i), i) ||
              differ(cyc, "age_q", c_age_[i], rtl_->age_row((unsigned)i), i);
    if (bad)
        return false; // kept open: the report shows it as the last row
    push();
    return true;
}

bool ArbiterLockstep::flush()
{
    if (!edge_pending_)
        return true;
    rtl_->edge(cur_.in);
    return complete();
}

bool ArbiterLockstep::reset(uint64_t cycle)
{
    bool ok = flush();
    if (open_)
        push();
    rtl_->reset();
    (void)cycle;
    return ok;
}

bool ArbiterLockstep::eval(uint64_t cycle, const warp_arbiter_in_t &in,
                           const warp_arbiter_out_t &c_out)
{
    if (edge_pending_) { // the last clocked cycle's edge and this drive at once
        rtl_->edge_then_drive(cur_.in, in);
        if (!complete())
            return false;
    } else {
        rtl_->drive(in);
    }
    begin_cycle(cycle);
    cur_.in = in;
    cur_.evaluated = true;
    cur_.c_out = c_out;
    cur_.rtl_out = rtl_->outputs();
    if (trace_started_ && cycle <= to_)
        rtl_->trace_dump(cycle * 10);
    return !differ(cycle, "grant_valid_o", c_out.grant_valid, cur_.rtl_out.grant_valid) &&
           !differ(cycle, "grant_idx_o", c_out.grant_idx, cur_.rtl_out.grant_idx);
}

bool ArbiterLockstep::tick(uint64_t cycle, const warp_arbiter_in_t &in,
                           const warp_arbiter_state_t &c_after)
{
    if (!flush()) // an event-only cycle after a clocked one
        return false;
    begin_cycle(cycle);
    cur_.in = in;
    cur_.ticked = true;
    cur_.c_after = ArbiterFlops{ c_after.last_valid, c_after.wopt_valid, c_after.last,
                                 c_after.wopt };
    for (unsigned i = 0, n = rtl_->n(); i < n; i++) {
        c_cnt_[i] = c_after.cnt[i];
        c_age_[i] = c_after.older[i];
    }
    if (!tracing_) { // the edge waits for the next evaluation (eval())
        edge_pending_ = true;
        return true;
    }
    if (!cur_.evaluated) { // waveform pass: every input visible, edge now
        rtl_->drive(in);
        if (trace_started_ && cycle <= to_)
            rtl_->trace_dump(cycle * 10);
    }
    rtl_->edge(in);
    if (trace_started_ && cycle <= to_)
        rtl_->trace_dump(cycle * 10 + 5);
    return complete();
}

void ArbiterLockstep::print_history(FILE *f) const
{
    std::vector<Cycle> rows;
    for (size_t k = 0; k < count_; k++)
        rows.push_back(ring_[(head_ + ring_.size() - count_ + k) % ring_.size()]);
    if (open_)
        rows.push_back(cur_);
    std::fprintf(f, "  %10s %-8s %-8s %-8s %-8s %-12s %-6s %-3s | %-9s %-9s | %-13s %-13s\n",
                 "cycle", "valid", "ready", "alloc", "finished", "cls", "issued", "pol",
                 "C grant", "RTL grant", "C last/wopt", "RTL last/wopt");
    for (const Cycle &c : rows) {
        char issued[16], cg[16], rg[16], cs[24], rs[24];
        std::snprintf(issued, sizeof issued, "%s", "-");
        if (c.ticked && c.in.issued_valid)
            std::snprintf(issued, sizeof issued, "%u", c.in.issued_idx);
        std::snprintf(cg, sizeof cg, "-");
        std::snprintf(rg, sizeof rg, "-");
        if (c.evaluated) {
            std::snprintf(cg, sizeof cg, "%s", c.c_out.grant_valid ? "" : "none");
            std::snprintf(rg, sizeof rg, "%s", c.rtl_out.grant_valid ? "" : "none");
            if (c.c_out.grant_valid)
                std::snprintf(cg, sizeof cg, "%u", c.c_out.grant_idx);
            if (c.rtl_out.grant_valid)
                std::snprintf(rg, sizeof rg, "%u", c.rtl_out.grant_idx);
        }
        std::snprintf(cs, sizeof cs, "-");
        std::snprintf(rs, sizeof rs, "-");
        if (c.ticked) {
            std::snprintf(cs, sizeof cs, "%d/%d", c.c_after.last_valid ? (int)c.c_after.last : -1,
                          c.c_after.wopt_valid ? (int)c.c_after.wopt : -1);
            std::snprintf(rs, sizeof rs, "%d/%d",
                          c.rtl_after.last_valid ? (int)c.rtl_after.last : -1,
                          c.rtl_after.wopt_valid ? (int)c.rtl_after.wopt : -1);
        }
        std::fprintf(f, "  %10" PRIu64 " %08" PRIx64 " %08" PRIx64 " %08" PRIx64 " %08" PRIx64
                        " %012" PRIx64 " %-6s %-3u | %-9s %-9s | %-13s %-13s\n",
                     c.cycle, c.in.valid, c.in.ready, c.in.alloc, c.in.finished,
                     pack_cls(c.in, rtl_->n()), issued, (unsigned)c.in.policy, cg, rg, cs, rs);
    }
    std::fprintf(f, "  (masks in hex, bit i = slot i; cls 2 bits per slot; last/wopt -1: "
                    "not valid; '-': not evaluated or not clocked that cycle)\n");
}

std::string ArbiterLockstep::finish_trace(bool *ok)
{
    *ok = trace_started_;
    if (!trace_started_)
        return "";
    if (open_)
        trace_cycle(cur_);
    rtl_->trace_close();
    *ok = c_vcd_.close() && both_vcd_.close();
    return dir_ + "/rtl.fst\n" + dir_ + "/c_twin.vcd\n" + dir_ + "/side_by_side.vcd\n";
}
