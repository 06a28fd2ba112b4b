// kit_tb.h: the testbench skeleton of the unit kit (docs/cosim.md).  A
// unit's tb/<unit>/tb.cpp defines `kit_tb_unit`; tb/kit/tb_main.cpp builds
// the verilated RTL and the C twin of one parameter set (tb/<unit>/kit.txt)
// in lockstep through sim/kit_lockstep (every output compared each cycle,
// every flop after each edge, the same code as the co-simulation), runs
// the unit's directed cases (shared with its unit test) and its seeded
// random stimulus, counts the unit's testbench bins and its descriptor's
// co-simulation bins, fails on any bin at zero, and ends with the summary
// line "N passed, N failed".
//
// Environment: KIT_SEED (default 0x5eed2026) replays or changes the
// stimulus; KIT_CYCLES the random cycles per run (default: the unit's).
#ifndef TB_KIT_TB_H
#define TB_KIT_TB_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "units/unit_desc.h"

class KitLockstep;

struct KitRng { // xorshift64*: the stimulus stream, replayable from the seed
    uint64_t s = 1;
    uint64_t next()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    unsigned below(unsigned n) { return (unsigned)(next() % n); }
    bool chance(unsigned num, unsigned den) { return below(den) < num; }
};

class KitTb {
public:
    KitTb(const unit_desc_t *u, const uint32_t *params, unsigned nbins);
    ~KitTb();
    // rst_ni on both sides.
    void reset();
    // One cycle: both sides evaluate `in`; `late` may then set the inputs
    // known only after the outputs (UNIT_LATE) from the twin's outputs;
    // `cover` sees the state before the edge; then both clock.  Returns the
    // twin's outputs of the cycle.  Every difference counts as a failure
    // (the first few are printed: field, slot, values).
    const void *step(void *in, const std::function<void(const void *out, void *in)> &late);
    const void *state() const { return state_.data(); }
    uint32_t param(unsigned k) const { return params_[k]; }
    uint64_t cycle() const { return cycle_; }
    unsigned failures() const { return failures_; }
    std::string where; // the running case, for messages
    std::vector<uint64_t> bins; // the unit's testbench bins
    KitRng rng;
    uint64_t cycles; // random cycles per run (KIT_CYCLES, or the unit's default)
    // The descriptor's co-simulation bins as counted by the lockstep.
    const std::vector<uint64_t> &desc_bins() const;
    const std::vector<std::string> &desc_bin_names() const;

private:
    const unit_desc_t *u_;
    std::vector<uint32_t> params_;
    std::vector<uint8_t> state_, out_;
    std::unique_ptr<KitLockstep> ls_;
    uint64_t cycle_ = 0;
    unsigned failures_ = 0;
};

struct KitTbUnit {
    const unit_desc_t *desc;
    // Random cycles per run for these parameters (KIT_CYCLES overrides).
    uint64_t (*default_cycles)(const uint32_t *params);
    const char *const *bins; // the testbench's own coverage bins
    unsigned nbins;
    // Whether testbench bin k can be hit with these parameters (NULL: all).
    bool (*bin_applies)(const KitTb &tb, unsigned k);
    // Directed cases then random runs; each reports with ok(name, passed).
    void (*run)(KitTb &tb, const std::function<void(const char *name, bool ok)> &ok);
    // Called by step() with the state before the edge (tb bins).
    void (*cover)(KitTb &tb, const void *in, const void *out);
};

extern const KitTbUnit kit_tb_unit;

#endif
