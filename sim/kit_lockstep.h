// kit_lockstep.h: one instance of any RTL unit in lockstep with its C twin,
// driven entirely by the unit's descriptor (units/unit_desc.h).  Shared by
// the co-simulation plugin (sim/cosim.cpp) and the testbench skeleton
// (tb/kit/).
//
// Each clocked cycle: eval() drives every input port from the twin's `in`
// with the clock low, evaluates, and compares every output field; tick()
// drives the cycle's complete inputs, raises the clock, evaluates, and
// compares every flop (every element of every row).  Two evaluations per
// cycle, exact: the RTL's next state sees exactly the inputs of its own
// cycle, whatever logic it has.  The last cycles' ports are kept in a ring
// buffer for the report; between trace_window's bounds the instance writes
// the waveform window (RTL FST, the twin's VCD, the side-by-side VCD) and
// write_gtkw() the GTKWave view of it.  The descriptor's coverage bins are
// counted on the way.
#ifndef SIM_KIT_LOCKSTEP_H
#define SIM_KIT_LOCKSTEP_H

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "units/unit_desc.h"

#include "kit_rtl.h"
#include "vcd_writer.h"

struct KitMismatch {
    uint64_t cycle = 0;
    std::string field;            // "grant_idx_o", "age_q[3]"
    std::string expected, actual; // C twin, RTL (decimal, or hex when wide)
    uint64_t t = 0;               // its time in the waveform window (wave_t)
};

class KitLockstep {
public:
    // `state` is a twin instance of the unit (its parameters size every
    // field).  Check error() afterwards: a descriptor field the RTL lacks.
    KitLockstep(const unit_desc_t *u, unsigned instance, const void *state,
                std::unique_ptr<KitRtl> rtl, unsigned history);
    ~KitLockstep();
    const std::string &error() const { return err_; }

    // Each returns false on a mismatch (then see mismatch()).
    // rst_ni pulsed; then every flop is compared with the twin's `c_state`.
    bool reset(uint64_t cycle, const void *c_state);
    bool eval(uint64_t cycle, const void *state, const void *in, const void *c_out);
    bool tick(uint64_t cycle, const void *in, const void *c_after);

    // The RTL's outputs of the last eval, in the twin's _out_t layout.
    const void *rtl_out() const { return rtl_out_.data(); }
    const KitMismatch &mismatch() const { return mm_; }
    const unit_desc_t *unit() const { return u_; }
    void print_history(FILE *f) const;

    // Coverage: the bins' counts, and their names ("slot granted[3]").
    const std::vector<uint64_t> &bins() const { return bins_; }
    const std::vector<std::string> &bin_names() const { return bin_names_; }

    // Waveforms of cycles [from, to] into dir (the replay pass).
    void trace_window(const std::string &dir, uint64_t from, uint64_t to);
    // Closes them; the paths written, one per line ("" when none).
    std::string finish_trace(bool *ok);
    // The GTKWave save file: opens side_by_side.vcd on the mismatch.
    bool write_gtkw(const std::string &path) const;

private:
    // The first of n rows where the twin's and the RTL's differ under mask.
    typedef unsigned (*RowDiff)(const void *c, const void *r, unsigned n, uint64_t mask);
    static RowDiff row_diff_for(unsigned cbytes, unsigned rbytes);
    struct Field {
        const unit_field_t *f;
        uint64_t mask; // of one element
        RowDiff diff = nullptr;
        unsigned width, count, nw; // nw: 64-bit words of one SV element
        unsigned si = 0;           // a scalar flop's column in the history
        bool rows;
        KitVar var;
        int c_sig = -1, both_c = -1, both_rtl = -1, both_in = -1; // VCD handles (rows: first)
    };
    struct Row {
        uint64_t cycle = 0;
        bool evaluated = false, ticked = false;
        std::vector<uint8_t> in, c_out, r_out;
        std::vector<uint64_t> c_flop, r_flop; // the scalar flops after the edge
    };

    void c_words(const Field &fd, const void *base, unsigned k, uint64_t *w) const;
    void put_words(const Field &fd, void *base, unsigned k, const uint64_t *w) const;
    void drive(const void *in);
    bool compare(const Field &fd, uint64_t cycle, const void *c_base, void *r_base, bool keep);
    void begin_row(uint64_t cycle);
    void push_row();
    void trace_start();
    void trace_inputs(uint64_t cycle, const void *in);
    void trace_side(uint64_t t, unsigned dir, const void *c_base, const void *r_base);
    std::string field_name(const Field &fd, unsigned k) const;

    const unit_desc_t *u_;
    unsigned instance_;
    std::unique_ptr<KitRtl> rtl_;
    std::string err_;
    std::vector<uint32_t> params_;
    std::vector<Field> fields_;
    std::vector<Field *> ins_, outs_, flops_; // fields_ by direction
    // The hot paths in compact form (60 instances' worth must stay in cache):
    struct InHot { // an input that is more than one plain integer
        uint32_t off, n; // the field's bytes in _in_t
        Field *fd;
    };
    struct ScalarHot { // one plain integer on both sides (most ports, scalar flops)
        unsigned char *rp; // the RTL's variable
        uint32_t coff;     // the field's offset in the twin's struct
        uint8_t cbytes, rbytes;
        uint32_t si;       // scalar flops: the history column
        uint64_t mask;
    };
    struct RowHot { // a row flop of plain integers on both sides
        const unsigned char *rp;
        uint32_t coff, rows;
        uint64_t mask;
        RowDiff diff;
    };
    std::vector<ScalarHot> in_scalar_, out_scalar_, flop_scalar_;
    std::vector<InHot> in_hot_;
    std::vector<RowHot> row_hot_;
    std::vector<const Field *> out_rest_, out_all_; // outputs not in out_scalar_; all
    std::vector<const Field *> flop_rest_, flop_all_; // in neither hot list; all
    std::vector<uint8_t> last_in_; // the twin's inputs as last driven
    bool first_drive_ = true;
    std::vector<uint8_t> rtl_out_, rtl_state_;
    unsigned nscalar_ = 0; // flops of one element: the report's columns
    std::vector<uint64_t> words_, words2_;
    std::vector<Row> ring_; // history rows, then the open one at head_
    size_t head_ = 0, count_ = 0;
    Row &cur() { return ring_[head_]; } // the open row: this cycle's
    bool open_ = false;
    KitMismatch mm_;
    std::vector<uint64_t> bins_, mem_;
    std::vector<std::string> bin_names_;
    // waveform window
    bool tracing_ = false, trace_started_ = false;
    std::string dir_;
    uint64_t from_ = 0, to_ = 0;
    // Waveform time: 10 per clock.  A unit clocked once per cycle sits at
    // cycle * 10; each further clock within one cycle (an event-rate unit,
    // docs/cosim.md "Which cycles") takes the next 10 ns and shifts every
    // later clock by as much, so that times never run backwards.
    // t_extra_ counts those clocks since the window started; row_cycle_ is
    // the cycle of the last row opened in it.
    uint64_t t_extra_ = 0, row_cycle_ = 0;
    bool row_seen_ = false;
    uint64_t wave_t(uint64_t cycle) const { return (cycle + t_extra_) * 10; }
    VcdWriter c_vcd_, both_vcd_;
    int cycle_sig_c_ = -1, cycle_sig_both_ = -1; // in.model_cycle
};

#endif
