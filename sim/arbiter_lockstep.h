// arbiter_lockstep.h: one warp arbiter instance of the GPU in lockstep: its
// verilated RTL gets the inputs the C twin got, every cycle the model
// clocks the twin, and the outputs (after eval) and every flop (after the
// edge: last issued, W_Opt, issue counters, age matrix) are compared field
// by field.  The last cycles of the ports are
// kept for the mismatch report; in the replay pass the instance is traced
// over the window before the mismatch (docs/cosim.md).
#ifndef SIM_ARBITER_LOCKSTEP_H
#define SIM_ARBITER_LOCKSTEP_H

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "rtl_arbiter.h"
#include "vcd_writer.h"

struct Mismatch {
    uint64_t cycle;
    std::string field;
    uint64_t expected, actual;  // C twin, RTL
};

class ArbiterLockstep {
public:
    ArbiterLockstep(unsigned instance, std::unique_ptr<RtlArbiter> rtl, unsigned history);
    ~ArbiterLockstep();

    // Traces cycles [from, to] into files under dir (replay pass).
    void trace_window(const std::string &dir, uint64_t from, uint64_t to);

    // Each returns false on a mismatch (then see mismatch()).
    bool reset(uint64_t cycle);
    // After the twin's eval.
    bool eval(uint64_t cycle, const warp_arbiter_in_t &in, const warp_arbiter_out_t &c_out);
    // After the twin's tick.  Outside the waveform pass the RTL's edge is
    // applied with the next evaluation (RtlArbiter::edge_then_drive), and
    // the flops are compared then, under this cycle's number.
    bool tick(uint64_t cycle, const warp_arbiter_in_t &in, const warp_arbiter_state_t &c_after);
    // Applies a pending edge and compares (the end of the run).
    bool flush();

    warp_arbiter_out_t rtl_out() const { return cur_.rtl_out; }
    unsigned rtl_n() const { return rtl_->n(); }
    const Mismatch &mismatch() const { return mm_; }
    // The report's port history, oldest first.
    void print_history(FILE *f) const;
    // Replay: writes the waveform files; the paths, one per line.
    std::string finish_trace(bool *ok);

private:
    struct Cycle {
        uint64_t cycle = 0;
        bool evaluated = false, ticked = false;
        warp_arbiter_in_t in{};
        warp_arbiter_out_t c_out{}, rtl_out{};
        ArbiterFlops c_after{}, rtl_after{};
    };
    // false when c == r; else records the mismatch of field (or field[slot]).
    bool differ(uint64_t cycle, const char *field, uint64_t c, uint64_t r, int slot = -1);
    bool complete();
    void begin_cycle(uint64_t cycle);
    void push();
    void trace_cycle(const Cycle &c);

    unsigned instance_;
    std::unique_ptr<RtlArbiter> rtl_;
    std::vector<Cycle> ring_;
    size_t head_ = 0, count_ = 0;
    Cycle cur_;
    bool open_ = false;
    uint32_t c_cnt_[WARP_ARBITER_MAX_N];  // the twin's counters and age rows
    uint64_t c_age_[WARP_ARBITER_MAX_N];  // after cur_'s edge
    bool edge_pending_ = false; // cur_ ticked, the RTL's edge not applied
    Mismatch mm_{};
    // replay tracing
    bool tracing_ = false, trace_started_ = false;
    std::string dir_;
    uint64_t from_ = 0, to_ = 0;
    VcdWriter c_vcd_, both_vcd_;
    std::vector<int> c_sig_, both_sig_;
};

#endif
