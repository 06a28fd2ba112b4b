// rtl_arbiter_model.h: RtlArbiter over one verilated class M (root R),
// included by the generated factory once per N after M's headers.
#ifndef SIM_RTL_ARBITER_MODEL_H
#define SIM_RTL_ARBITER_MODEL_H

#include "verilated.h"
#include "verilated_fst_c.h"

#include "rtl_arbiter.h"

template <class M>
class RtlArbiterModel : public RtlArbiter {
public:
    RtlArbiterModel(unsigned n, VerilatedContext *ctx) : n_(n), m_(new M(ctx)) {}
    ~RtlArbiterModel() override { trace_close(); }

    unsigned n() const override { return n_; }

    void reset() override
    {
        m_->clk_i = 0;
        m_->rst_ni = 1;
        m_->eval();
        m_->rst_ni = 0;
        m_->eval();
        m_->rst_ni = 1;
        m_->eval();
    }

    void drive(const warp_arbiter_in_t &in) override
    {
        set_grant_inputs(in);
        m_->eval();
    }

    warp_arbiter_out_t outputs() const override
    {
        return warp_arbiter_out_t{ (uint8_t)m_->grant_valid_o, (uint32_t)m_->grant_idx_o };
    }

    void edge(const warp_arbiter_in_t &in) override
    {
        set_next_state_inputs(in);
        rise();
    }

    void edge_then_drive(const warp_arbiter_in_t &prev, const warp_arbiter_in_t &in) override
    {
        set_next_state_inputs(prev);
        set_grant_inputs(in);
        rise();
    }

    ArbiterFlops flops() const override
    {
        auto *r = m_->rootp;
        return ArbiterFlops{ (uint8_t)r->warp_arbiter__DOT__last_valid_q,
                             (uint8_t)r->warp_arbiter__DOT__wopt_valid_q,
                             (uint32_t)r->warp_arbiter__DOT__last_q,
                             (uint32_t)r->warp_arbiter__DOT__wopt_q };
    }

    uint32_t cnt(unsigned i) const override { return m_->rootp->warp_arbiter__DOT__cnt_q[i]; }
    uint64_t age_row(unsigned i) const override { return m_->rootp->warp_arbiter__DOT__age_q[i]; }

    int first_row_diff(const uint32_t *cnt, const uint64_t *age) const override
    {
        const auto *r = m_->rootp;
        for (unsigned i = 0; i < n_; i++)
            if (r->warp_arbiter__DOT__cnt_q[i] != cnt[i] || r->warp_arbiter__DOT__age_q[i] != age[i])
                return (int)i;
        return -1;
    }

    bool trace_open(const std::string &path) override
    {
        tfp_.reset(new VerilatedFstC);
        m_->trace(tfp_.get(), 99);
        tfp_->open(path.c_str());
        return tfp_->isOpen();
    }

    void trace_dump(uint64_t t) override
    {
        if (tfp_)
            tfp_->dump(t);
    }

    void trace_close() override
    {
        if (tfp_) {
            tfp_->close();
            tfp_.reset();
        }
    }

private:
    // The rising edge, then the clock back low.  Nothing in the unit acts
    // on the falling edge, so instead of a second evaluation (a whole
    // combinational pass) the low level is recorded where Verilator's
    // scheduler keeps the clock's previous value, as that evaluation would
    // leave it; the next eval() then sees a rising edge again.  The member
    // is Verilator 5.0's (Debian's 5.006); a Verilator that names it
    // differently fails to compile here rather than misbehave.
    void rise()
    {
        m_->clk_i = 1;
        m_->eval();
        m_->clk_i = 0;
        m_->rootp->__Vtrigrprev__TOP__clk_i = 0;
    }

    uint64_t mask() const { return n_ >= 64 ? ~0ull : (1ull << n_) - 1; }

    void set_grant_inputs(const warp_arbiter_in_t &in)
    {
        uint64_t cls = 0;
        for (unsigned i = 0; i < n_; i++)
            cls |= (uint64_t)(in.cls[i] & 3) << (2 * i);
        m_->valid_i = in.valid & mask();
        m_->ready_i = in.ready & mask();
        m_->cls_i = cls;
        m_->policy_i = in.policy;
        m_->ltlws_inner_i = in.ltlws_inner;
    }

    void set_next_state_inputs(const warp_arbiter_in_t &in)
    {
        m_->alloc_i = in.alloc & mask();
        m_->finished_i = in.finished & mask();
        m_->issued_valid_i = in.issued_valid;
        m_->issued_idx_i = in.issued_idx;
    }

    unsigned n_;
    std::unique_ptr<M> m_;
    std::unique_ptr<VerilatedFstC> tfp_;
};

#endif
