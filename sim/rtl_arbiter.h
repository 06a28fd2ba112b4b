// rtl_arbiter.h: one verilated rtl/warp_arbiter.sv behind a common
// interface, whatever its N (each N is its own verilated class; the build
// generates the factory, make_rtl_arbiter).
#ifndef SIM_RTL_ARBITER_H
#define SIM_RTL_ARBITER_H

#include <cstdint>
#include <memory>
#include <string>

#include "units/warp_arbiter.h"

class VerilatedContext;

// The flops the lockstep compares after each clock edge.
struct ArbiterFlops {
    uint8_t last_valid, wopt_valid;
    uint32_t last, wopt;
};

class RtlArbiter {
public:
    virtual ~RtlArbiter() = default;
    virtual unsigned n() const = 0;
    // rst_ni pulsed low (asynchronous reset).
    virtual void reset() = 0;
    // The inputs the grant depends on (valid_i, ready_i, cls_i, policy_i,
    // ltlws_inner_i) from `in`, then the combinational evaluation.
    virtual void drive(const warp_arbiter_in_t &in) = 0;
    virtual warp_arbiter_out_t outputs() const = 0;
    // The inputs that only feed the next state (alloc_i, finished_i,
    // issued_*) from `in`, then the rising clock edge.
    virtual void edge(const warp_arbiter_in_t &in) = 0;
    // Both at once, in one evaluation: the edge that ends the cycle of
    // `prev` (its next-state inputs) and this cycle's grant inputs from
    // `in`.  The next state depends only on the state and prev's next-state
    // inputs, and the grant is settled after the edge, so the outputs are
    // those of drive(in) after edge(prev), at a third of the cost.
    virtual void edge_then_drive(const warp_arbiter_in_t &prev, const warp_arbiter_in_t &in) = 0;
    virtual ArbiterFlops flops() const = 0;
    // Slot i's issue counter (cnt_q[i]) and age row (age_q[i]).
    virtual uint32_t cnt(unsigned i) const = 0;
    virtual uint64_t age_row(unsigned i) const = 0;
    // The first slot whose counter or age row differs from cnt[]/age[]
    // (one call per edge rather than two per slot), or -1.
    virtual int first_row_diff(const uint32_t *cnt, const uint64_t *age) const = 0;
    // FST trace of every RTL signal: open, dump at a time, close.
    virtual bool trace_open(const std::string &path) = 0;
    virtual void trace_dump(uint64_t t) = 0;
    virtual void trace_close() = 0;
};

// NULL when no model with this N was built (COSIM_WA_NS in the Makefile).
std::unique_ptr<RtlArbiter> make_rtl_arbiter(unsigned n, VerilatedContext *ctx);
// The N values built, e.g. "24" (for error messages).
const char *rtl_arbiter_ns();

#endif
