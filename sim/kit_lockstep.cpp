// kit_lockstep.cpp: see kit_lockstep.h.
#include "kit_lockstep.h"

#include <cinttypes>
#include <cstring>

namespace {

std::string value_text(const uint64_t *w, unsigned nw)
{
    if (nw == 1)
        return std::to_string(w[0]);
    std::string s = "0x";
    char buf[20];
    for (int k = (int)nw - 1; k >= 0; k--) {
        std::snprintf(buf, sizeof buf, "%016" PRIx64, w[k]);
        s += buf;
    }
    return s;
}

std::string hex_text(const uint64_t *w, unsigned nw, unsigned bits)
{
    unsigned digits = (bits + 3) / 4;
    std::string s;
    for (unsigned d = digits; d-- > 0;)
        s += "0123456789abcdef"[w[d / 16] >> (4 * (d % 16)) & 0xF];
    (void)nw;
    return s;
}

} // namespace

KitLockstep::KitLockstep(const unit_desc_t *u, unsigned instance, const void *state,
                         std::unique_ptr<KitRtl> rtl, unsigned history)
    : u_(u), instance_(instance), rtl_(std::move(rtl)), ring_((history ? history : 1) + 1)
{
    params_.resize(u->nparams ? u->nparams : 1);
    u->param_values(state, params_.data());
    unsigned maxw = 1;
    for (unsigned i = 0; i < u->nfields; i++) {
        const unit_field_t *f = &u->fields[i];
        Field fd{};
        fd.f = f;
        fd.width = unit_size(f->width, params_.data());
        fd.count = unit_size(f->count, params_.data());
        fd.rows = f->flags & UNIT_ROWS;
        fd.nw = ((fd.rows ? fd.width : fd.width * fd.count) + 63) / 64;
        maxw = std::max(maxw, fd.nw);
        fd.var = f->dir == UNIT_DIR_FLOP ? rtl_->flop(f->name) : rtl_->port(f->name);
        if (!fd.var.p && err_.empty())
            err_ = std::string("rtl/") + u->name + ".sv has no " +
                   (f->dir == UNIT_DIR_FLOP ? "public_flat_rd flop " : "port ") + f->name +
                   " (declared in the unit's descriptor)";
        else if (fd.var.p && fd.rows && fd.var.count < fd.count && err_.empty())
            err_ = std::string(u->name) + ": " + f->name + " has fewer rows than declared";
        else if (fd.var.p && fd.var.width &&
                 fd.var.width != (fd.rows ? fd.width : fd.width * fd.count) && err_.empty())
            err_ = std::string(u->name) + ": " + f->name + " is " +
                   std::to_string(fd.var.width) + " bits wide in the RTL, " +
                   std::to_string(fd.rows ? fd.width : fd.width * fd.count) +
                   " in the descriptor";
        fd.mask = fd.width >= 64 ? ~0ull : (1ull << fd.width) - 1;
        if (fd.var.p && fd.var.bytes <= 8)
            fd.diff = row_diff_for(f->csize, fd.var.bytes);
        if (f->dir == UNIT_DIR_FLOP && !fd.rows && fd.nw == 1)
            nscalar_++;
        fields_.push_back(fd);
    }
    if (!rtl_->clk || !rtl_->rst_n)
        err_ = std::string("rtl/") + u->name + ".sv has no clk_i or rst_ni port";
    for (Field &fd : fields_)
        (fd.f->dir == UNIT_DIR_IN ? ins_ : fd.f->dir == UNIT_DIR_OUT ? outs_ : flops_)
            .push_back(&fd);
    // The hot lists: a field that is one plain integer on both sides is
    // moved by a typed load and store, without the general path's words.
    auto scalar = [](const Field *fd) {
        return fd->var.p && !fd->rows && fd->count == 1 && fd->nw == 1 && fd->var.bytes <= 8;
    };
    auto hot = [](const Field *fd, unsigned si) {
        return ScalarHot{ static_cast<unsigned char *>(fd->var.p), (uint32_t)fd->f->offset,
                          (uint8_t)fd->f->csize, (uint8_t)fd->var.bytes, si, fd->mask };
    };
    for (Field *fd : ins_) {
        if (scalar(fd))
            in_scalar_.push_back(hot(fd, 0));
        else
            in_hot_.push_back({ (uint32_t)fd->f->offset, fd->count * fd->f->csize, fd });
    }
    for (Field *fd : outs_) {
        if (scalar(fd))
            out_scalar_.push_back(hot(fd, 0));
        else
            out_rest_.push_back(fd);
        out_all_.push_back(fd);
    }
    unsigned si = 0; // the history's scalar-flop columns, in descriptor order
    for (Field *fd : flops_) {
        if (!fd->rows && fd->nw == 1)
            fd->si = si++;
        if (fd->rows && fd->nw == 1 && fd->diff)
            row_hot_.push_back({ static_cast<const unsigned char *>(fd->var.p),
                                 (uint32_t)fd->f->offset, fd->count, fd->mask, fd->diff });
        else if (scalar(fd))
            flop_scalar_.push_back(hot(fd, fd->si));
        else
            flop_rest_.push_back(fd);
        flop_all_.push_back(fd);
    }
    last_in_.assign(u->in_size, 0);
    words_.assign(maxw, 0);
    words2_.assign(maxw, 0);
    rtl_out_.assign(u->out_size, 0);
    rtl_state_.assign(u->state_size, 0);
    for (unsigned b = 0; b < u->nbins; b++) {
        unsigned n = unit_size(u->bins[b].count, params_.data());
        for (unsigned k = 0; k < n; k++) {
            bin_names_.push_back(u->bins[b].count == UNIT_ONE
                                     ? std::string(u->bins[b].name)
                                     : std::string(u->bins[b].name) + "[" + std::to_string(k) + "]");
            bins_.push_back(0);
        }
    }
    mem_.assign(u->cover_mem, 0);
    auto size_row = [&](Row &r) {
        r.in.assign(u->in_size, 0);
        r.c_out.assign(u->out_size, 0);
        r.r_out.assign(u->out_size, 0);
        r.c_flop.assign(nscalar_, 0);
        r.r_flop.assign(nscalar_, 0);
    };
    for (Row &r : ring_)
        size_row(r);
}

KitLockstep::~KitLockstep()
{
    rtl_->trace_close();
}

// Element k (rows) or the whole packed vector of a field, from a C struct.
void KitLockstep::c_words(const Field &fd, const void *base, unsigned k, uint64_t *w) const
{
    if (fd.rows || fd.count == 1) {
        w[0] = unit_get(fd.f, base, k, fd.width);
        return;
    }
    std::memset(w, 0, fd.nw * sizeof *w);
    for (unsigned e = 0; e < fd.count; e++) {
        uint64_t v = unit_get(fd.f, base, e, fd.width);
        unsigned bit = e * fd.width;
        w[bit / 64] |= v << (bit % 64);
        if (bit % 64 + fd.width > 64)
            w[bit / 64 + 1] |= v >> (64 - bit % 64);
    }
}

// The inverse: into a C struct (the RTL's outputs and flops, twin layout).
void KitLockstep::put_words(const Field &fd, void *base, unsigned k, const uint64_t *w) const
{
    unsigned n = fd.rows || fd.count == 1 ? 1 : fd.count;
    for (unsigned e = 0; e < n; e++) {
        uint64_t v = w[0];
        if (n > 1) {
            unsigned bit = e * fd.width;
            v = w[bit / 64] >> (bit % 64);
            if (bit % 64 + fd.width > 64)
                v |= w[bit / 64 + 1] << (64 - bit % 64);
            v &= fd.width >= 64 ? ~0ull : ((1ull << fd.width) - 1);
        }
        unsigned char *p = static_cast<unsigned char *>(base) + fd.f->offset +
                           (size_t)(n > 1 ? e : k) * fd.f->csize;
        switch (fd.f->csize) {
        case 1: *reinterpret_cast<uint8_t *>(p) = (uint8_t)v; break;
        case 2: *reinterpret_cast<uint16_t *>(p) = (uint16_t)v; break;
        case 4: *reinterpret_cast<uint32_t *>(p) = (uint32_t)v; break;
        default: *reinterpret_cast<uint64_t *>(p) = v; break;
        }
    }
}

std::string KitLockstep::field_name(const Field &fd, unsigned k) const
{
    return fd.rows ? std::string(fd.f->name) + "[" + std::to_string(k) + "]" : fd.f->name;
}

namespace {

bool same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
    switch (n) { // the usual sizes without a call
    case 1: return *a == *b;
    case 4: return *reinterpret_cast<const uint32_t *>(a) == *reinterpret_cast<const uint32_t *>(b);
    case 8: return *reinterpret_cast<const uint64_t *>(a) == *reinterpret_cast<const uint64_t *>(b);
    default: return std::memcmp(a, b, n) == 0;
    }
}

// A plain integer of `bytes` bytes, and back.
inline uint64_t load(const unsigned char *p, unsigned bytes)
{
    switch (bytes) {
    case 1: return *p;
    case 2: return *reinterpret_cast<const uint16_t *>(p);
    case 4: return *reinterpret_cast<const uint32_t *>(p);
    default: return *reinterpret_cast<const uint64_t *>(p);
    }
}

inline void store(unsigned char *p, unsigned bytes, uint64_t v)
{
    switch (bytes) {
    case 1: *p = (uint8_t)v; break;
    case 2: *reinterpret_cast<uint16_t *>(p) = (uint16_t)v; break;
    case 4: *reinterpret_cast<uint32_t *>(p) = (uint32_t)v; break;
    default: *reinterpret_cast<uint64_t *>(p) = v; break;
    }
}

} // namespace

// Every input port from the twin's `in`.  A plain integer is stored as it
// is (as cheap as asking whether it changed); a wider field whose C bytes
// are those it had when last driven is left as it is (the port still holds
// it): most inputs are the same at a cycle's eval and at its edge.
void KitLockstep::drive(const void *in)
{
    const uint8_t *cin = static_cast<const uint8_t *>(in);
    for (const ScalarHot &h : in_scalar_)
        store(h.rp, h.rbytes, load(cin + h.coff, h.cbytes) & h.mask);
    for (const InHot &h : in_hot_) {
        if (!first_drive_ && same_bytes(cin + h.off, last_in_.data() + h.off, h.n))
            continue;
        std::memcpy(last_in_.data() + h.off, cin + h.off, h.n);
        Field *fd = h.fd;
        unsigned rows = fd->rows ? fd->count : 1;
        for (unsigned k = 0; k < rows; k++) {
            c_words(*fd, in, k, words_.data());
            kit_var_write(fd->var, k, words_.data(), fd->nw);
        }
    }
    first_drive_ = false;
}

namespace {

// The first of n rows where the twin's (C type TC) and the RTL's (TR)
// differ under mask, or n.
template <class TC, class TR>
unsigned first_diff(const void *c, const void *r, unsigned n, uint64_t mask)
{
    const TC *cp = static_cast<const TC *>(c);
    const TR *rp = static_cast<const TR *>(r);
    uint64_t acc = 0; // no branch per row: the loop vectorizes
    for (unsigned k = 0; k < n; k++)
        acc |= ((uint64_t)cp[k] ^ (uint64_t)rp[k]) & mask;
    if (!acc)
        return n;
    for (unsigned k = 0; k < n; k++)
        if (((uint64_t)cp[k] & mask) != ((uint64_t)rp[k] & mask))
            return k;
    return n;
}

} // namespace

// The typed row comparison for C elements of cb bytes and RTL ones of rb.
KitLockstep::RowDiff KitLockstep::row_diff_for(unsigned cb, unsigned rb)
{
    static const RowDiff table[4][4] = {
        { first_diff<uint8_t, uint8_t>, first_diff<uint8_t, uint16_t>,
          first_diff<uint8_t, uint32_t>, first_diff<uint8_t, uint64_t> },
        { first_diff<uint16_t, uint8_t>, first_diff<uint16_t, uint16_t>,
          first_diff<uint16_t, uint32_t>, first_diff<uint16_t, uint64_t> },
        { first_diff<uint32_t, uint8_t>, first_diff<uint32_t, uint16_t>,
          first_diff<uint32_t, uint32_t>, first_diff<uint32_t, uint64_t> },
        { first_diff<uint64_t, uint8_t>, first_diff<uint64_t, uint16_t>,
          first_diff<uint64_t, uint32_t>, first_diff<uint64_t, uint64_t> },
    };
    auto idx = [](unsigned b) { return b == 1 ? 0 : b == 2 ? 1 : b == 4 ? 2 : 3; };
    return table[idx(cb)][idx(rb)];
}

// Compares field fd of the twin (c_base) with the RTL's; `keep` stores the
// RTL's value into r_base.  Records the first difference.
bool KitLockstep::compare(const Field &fd, uint64_t cycle, const void *c_base, void *r_base,
                          bool keep)
{
    unsigned rows = fd.rows ? fd.count : 1;
    if (fd.nw == 1 && fd.var.bytes <= 8 && (fd.rows || fd.count == 1)) {
        // The common case: integers on both sides.  Rows: one typed loop.
        uint64_t mask = fd.mask;
        const unsigned char *cp = static_cast<const unsigned char *>(c_base) + fd.f->offset;
        const unsigned char *rp = static_cast<const unsigned char *>(fd.var.p);
        unsigned k = keep ? 0 : fd.diff(cp, rp, rows, mask);
        if (keep) {
            unsigned char *kp = static_cast<unsigned char *>(r_base) + fd.f->offset;
            unsigned diff = rows;
            for (k = 0; k < rows; k++) {
                uint64_t r = load(rp + (size_t)k * fd.var.bytes, fd.var.bytes) & mask;
                store(kp + (size_t)k * fd.f->csize, fd.f->csize, r);
                if (diff == rows && (load(cp + (size_t)k * fd.f->csize, fd.f->csize) & mask) != r)
                    diff = k;
            }
            k = diff;
        }
        if (k == rows)
            return true;
        uint64_t c = load(cp + (size_t)k * fd.f->csize, fd.f->csize) & mask;
        uint64_t r = load(rp + (size_t)k * fd.var.bytes, fd.var.bytes) & mask;
        mm_ = KitMismatch{ cycle, field_name(fd, k), value_text(&c, 1), value_text(&r, 1),
                           wave_t(cycle) };
        return false;
    }
    bool same = true;
    for (unsigned k = 0; k < rows; k++) {
        c_words(fd, c_base, k, words_.data());
        kit_var_read(fd.var, k, words2_.data(), fd.nw);
        unsigned top = (fd.rows ? fd.width : fd.width * fd.count) % 64;
        if (top)
            words2_[fd.nw - 1] &= (1ull << top) - 1;
        if (keep)
            put_words(fd, r_base, k, words2_.data());
        bool differ = false;
        for (unsigned w = 0; w < fd.nw; w++)
            differ = differ || words_[w] != words2_[w];
        if (same && differ) {
            same = false;
            mm_ = KitMismatch{ cycle, field_name(fd, k), value_text(words_.data(), fd.nw),
                               value_text(words2_.data(), fd.nw), wave_t(cycle) };
            if (!keep)
                return false;
        }
    }
    return same;
}

void KitLockstep::begin_row(uint64_t cycle)
{
    if (open_ && cur().cycle == cycle)
        return;
    if (open_)
        push_row();
    cur().cycle = cycle;
    cur().evaluated = cur().ticked = false;
    open_ = true;
    if (tracing_ && !trace_started_ && cycle >= from_ && cycle <= to_)
        trace_start();
    if (trace_started_) { // a second clock in this cycle: the next 10 ns
        if (row_seen_ && row_cycle_ == cycle)
            t_extra_++;
        row_seen_ = true;
        row_cycle_ = cycle;
    }
}

void KitLockstep::push_row()
{
    head_ = (head_ + 1) % ring_.size(); // the open row becomes history
    if (count_ < ring_.size() - 1)
        count_++;
    open_ = false;
}

bool KitLockstep::reset(uint64_t cycle, const void *c_state)
{
    if (open_)
        push_row();
    *rtl_->clk = 0;
    *rtl_->rst_n = 1;
    rtl_->eval();
    *rtl_->rst_n = 0;
    rtl_->eval();
    *rtl_->rst_n = 1;
    rtl_->eval();
    std::fill(mem_.begin(), mem_.end(), 0);
    bool ok = true; // every flop at its reset value on both sides
    for (const Field &fd : fields_)
        if (fd.f->dir == UNIT_DIR_FLOP)
            ok = ok && compare(fd, cycle, c_state, rtl_state_.data(), false);
    return ok;
}

bool KitLockstep::eval(uint64_t cycle, const void *state, const void *in, const void *c_out)
{
    begin_row(cycle);
    drive(in);
    *rtl_->clk = 0;
    rtl_->eval();
    bool tr = trace_started_ && cycle <= to_;
    if (tr)
        rtl_->trace_dump(wave_t(cycle));
    cur().evaluated = true;
    std::memcpy(cur().c_out.data(), c_out, u_->out_size);
    bool ok = true;
    const unsigned char *cb = static_cast<const unsigned char *>(c_out);
    for (const ScalarHot &h : out_scalar_) {
        uint64_t r = load(h.rp, h.rbytes) & h.mask;
        store(rtl_out_.data() + h.coff, h.cbytes, r);
        ok = ok && (load(cb + h.coff, h.cbytes) & h.mask) == r;
    }
    const std::vector<const Field *> *pass = &out_rest_;
    if (!ok) { // every output again, in the descriptor's order: the first difference
        ok = true;
        pass = &out_all_;
    }
    for (const Field *fd : *pass)
        ok = compare(*fd, cycle, c_out, rtl_out_.data(), true) && ok;
    std::memcpy(cur().r_out.data(), rtl_out_.data(), u_->out_size);
    if (!ok) // the report's last row; otherwise the tick records the inputs
        std::memcpy(cur().in.data(), in, u_->in_size);
    if (u_->cover)
        u_->cover(state, in, c_out, bins_.data(), mem_.data());
    if (tr) {
        trace_inputs(cycle, in);
        trace_side(wave_t(cycle), UNIT_DIR_OUT, c_out, rtl_out_.data());
    }
    return ok;
}

bool KitLockstep::tick(uint64_t cycle, const void *in, const void *c_after)
{
    begin_row(cycle);
    bool tr = trace_started_ && cycle <= to_;
    if (*rtl_->clk) { // clocked for an event only: the clock must fall first
        drive(in);
        *rtl_->clk = 0;
        rtl_->eval();
        if (tr)
            rtl_->trace_dump(wave_t(cycle));
    }
    drive(in);
    *rtl_->clk = 1;
    rtl_->eval();
    if (tr) {
        rtl_->trace_dump(wave_t(cycle) + 5);
        trace_inputs(cycle, in);
    }
    cur().ticked = true;
    std::memcpy(cur().in.data(), in, u_->in_size);
    bool ok = true;
    // The plain scalar flops and the row flops first, in their compact
    // form; on any difference, or when tracing, every flop again in the
    // descriptor's order (the first difference reported, every value kept).
    const unsigned char *cb = static_cast<const unsigned char *>(c_after);
    Row &row = cur();
    for (const ScalarHot &h : flop_scalar_) {
        uint64_t c = load(cb + h.coff, h.cbytes) & h.mask, r = load(h.rp, h.rbytes) & h.mask;
        store(rtl_state_.data() + h.coff, h.cbytes, r);
        row.c_flop[h.si] = c;
        row.r_flop[h.si] = r;
        ok = ok && c == r;
    }
    for (const RowHot &h : row_hot_)
        ok = ok && h.diff(cb + h.coff, h.rp, h.rows, h.mask) == h.rows;
    const std::vector<const Field *> *pass = &flop_rest_;
    bool all = !ok || tr;
    if (all) {
        ok = true;
        pass = &flop_all_;
    }
    for (const Field *fd : *pass) {
        bool scalar = !fd->rows && fd->nw == 1;
        ok = compare(*fd, cycle, c_after, rtl_state_.data(), tr || scalar || !ok) && ok;
        if (scalar) {
            row.c_flop[fd->si] = unit_get(fd->f, c_after, 0, fd->width);
            row.r_flop[fd->si] = unit_get(fd->f, rtl_state_.data(), 0, fd->width);
        }
    }
    if (tr)
        trace_side(wave_t(cycle) + 5, UNIT_DIR_FLOP, c_after, rtl_state_.data());
    if (u_->cover)
        u_->cover(c_after, in, nullptr, bins_.data(), mem_.data());
    if (ok)
        push_row(); // on a mismatch the row stays open: the report's last
    return ok;
}

void KitLockstep::print_history(FILE *f) const
{
    std::vector<const Row *> rows;
    for (size_t k = 0; k < count_; k++)
        rows.push_back(&ring_[(head_ + ring_.size() - count_ + k) % ring_.size()]);
    if (open_)
        rows.push_back(&ring_[head_]);
    // Columns: every input (hex), then each output and scalar flop as C/RTL.
    std::string head = "       cycle"; // right-aligned over "  %10" below
    std::vector<unsigned> colw;
    for (const Field &fd : fields_) {
        std::string name = fd.f->name;
        unsigned bits = fd.rows ? 0 : fd.width * fd.count;
        if (fd.rows || (fd.f->dir == UNIT_DIR_FLOP && fd.nw > 1))
            continue;
        unsigned w = fd.f->dir == UNIT_DIR_IN ? std::max<unsigned>((bits + 3) / 4, 1) : 11;
        w = std::max<unsigned>(w, (unsigned)name.size() + (fd.f->dir == UNIT_DIR_IN ? 0 : 0));
        colw.push_back(w);
        char buf[160];
        std::snprintf(buf, sizeof buf, " %-*s", (int)w, name.c_str());
        head += buf;
    }
    std::fprintf(f, "%s\n", head.c_str());
    std::vector<uint64_t> w(words_.size());
    for (const Row *r : rows) {
        std::string line;
        char buf[160];
        std::snprintf(buf, sizeof buf, "  %10" PRIu64, r->cycle);
        line += buf;
        size_t col = 0, flop = 0;
        for (const Field &fd : fields_) {
            if (fd.rows || (fd.f->dir == UNIT_DIR_FLOP && fd.nw > 1))
                continue;
            unsigned cw = colw[col++];
            std::string cell = "-";
            if (fd.f->dir == UNIT_DIR_IN && !r->in.empty()) {
                c_words(fd, r->in.data(), 0, w.data());
                cell = hex_text(w.data(), fd.nw, fd.width * fd.count);
            } else if (fd.f->dir == UNIT_DIR_OUT && r->evaluated) {
                c_words(fd, r->c_out.data(), 0, w.data());
                cell = value_text(w.data(), fd.nw) + "/";
                c_words(fd, r->r_out.data(), 0, w.data());
                cell += value_text(w.data(), fd.nw);
            } else if (fd.f->dir == UNIT_DIR_FLOP) {
                if (flop < r->c_flop.size())
                    cell = std::to_string(r->c_flop[flop]) + "/" + std::to_string(r->r_flop[flop]);
                flop++;
            }
            std::snprintf(buf, sizeof buf, " %-*s", (int)cw, cell.c_str());
            line += buf;
        }
        std::fprintf(f, "%s\n", line.c_str());
    }
    std::fprintf(f, "  (inputs in hex, bit i = element i; outputs and flops C twin/RTL, flops "
                    "after the clock edge; '-': not evaluated or not clocked that cycle)\n");
}

// ------------------------------------------------------------------
// The waveform window
// ------------------------------------------------------------------

void KitLockstep::trace_window(const std::string &dir, uint64_t from, uint64_t to)
{
    tracing_ = true;
    dir_ = dir;
    from_ = from;
    to_ = to;
}

void KitLockstep::trace_start()
{
    // the model's cycle of each clock: with an event-rate unit the time
    // axis runs ahead of cycle * 10 (wave_t), this row does not
    cycle_sig_c_ = c_vcd_.add("in", "model_cycle", 64);
    cycle_sig_both_ = both_vcd_.add("in", "model_cycle", 64);
    for (Field &fd : fields_) {
        unsigned rows = fd.rows ? fd.count : 1;
        unsigned bits = fd.rows ? fd.width : fd.width * fd.count;
        for (unsigned k = 0; k < rows; k++) {
            std::string name = fd.rows ? std::string(fd.f->name) + "(" + std::to_string(k) + ")"
                                       : fd.f->name;
            if (fd.f->dir == UNIT_DIR_IN) {
                int a = c_vcd_.add("in", name, bits), b = both_vcd_.add("in", name, bits);
                if (k == 0)
                    fd.c_sig = a, fd.both_in = b;
            }
        }
    }
    for (int side = 0; side < 2; side++)
        for (Field &fd : fields_) {
            if (fd.f->dir == UNIT_DIR_IN)
                continue;
            unsigned rows = fd.rows ? fd.count : 1;
            unsigned bits = fd.rows ? fd.width : fd.width * fd.count;
            for (unsigned k = 0; k < rows; k++) {
                std::string name = fd.rows
                                       ? std::string(fd.f->name) + "(" + std::to_string(k) + ")"
                                       : fd.f->name;
                int b = both_vcd_.add(side ? "rtl" : "c", name, bits);
                if (k == 0)
                    (side ? fd.both_rtl : fd.both_c) = b;
                if (!side) {
                    int a = c_vcd_.add("c", name, bits);
                    if (k == 0)
                        fd.c_sig = a;
                }
            }
        }
    std::string what = std::string(u_->name) + " instance " + std::to_string(instance_) +
                       "; one clock = 10 ns: inputs and outputs at its start, flops after the "
                       "edge 5 ns later; clocked once per cycle the time is cycle*10, and each "
                       "further clock within a cycle takes the next 10 ns (in.model_cycle holds "
                       "the model's cycle)";
    bool ok = c_vcd_.open(dir_ + "/c_twin.vcd", "simt cosim: C twin of " + what) &&
              both_vcd_.open(dir_ + "/side_by_side.vcd", "simt cosim: c. twin and rtl. of " + what) &&
              rtl_->trace_open(dir_ + "/rtl.fst");
    if (!ok)
        std::fprintf(stderr, "cosim: error: cannot write the waveform files in %s\n", dir_.c_str());
    trace_started_ = ok;
}

void KitLockstep::trace_inputs(uint64_t cycle, const void *in)
{
    uint64_t t = wave_t(cycle);
    c_vcd_.time(t);
    both_vcd_.time(t);
    c_vcd_.set(cycle_sig_c_, cycle);
    both_vcd_.set(cycle_sig_both_, cycle);
    for (const Field &fd : fields_) {
        if (fd.f->dir != UNIT_DIR_IN)
            continue;
        unsigned rows = fd.rows ? fd.count : 1;
        for (unsigned k = 0; k < rows; k++) {
            c_words(fd, in, k, words_.data());
            c_vcd_.set(fd.c_sig + (int)k, words_.data(), fd.nw);
            both_vcd_.set(fd.both_in + (int)k, words_.data(), fd.nw);
        }
    }
}

void KitLockstep::trace_side(uint64_t t, unsigned dir, const void *c_base, const void *r_base)
{
    c_vcd_.time(t);
    both_vcd_.time(t);
    for (const Field &fd : fields_) {
        if (fd.f->dir != dir)
            continue;
        unsigned rows = fd.rows ? fd.count : 1;
        for (unsigned k = 0; k < rows; k++) {
            c_words(fd, c_base, k, words_.data());
            c_vcd_.set(fd.c_sig + (int)k, words_.data(), fd.nw);
            both_vcd_.set(fd.both_c + (int)k, words_.data(), fd.nw);
            c_words(fd, r_base, k, words_.data());
            both_vcd_.set(fd.both_rtl + (int)k, words_.data(), fd.nw);
        }
    }
}

std::string KitLockstep::finish_trace(bool *ok)
{
    *ok = trace_started_;
    if (!trace_started_)
        return "";
    rtl_->trace_close();
    // five cycles of empty time after the mismatch: room for the view
    *ok = c_vcd_.close(50) && both_vcd_.close(50);
    return dir_ + "/rtl.fst\n" + dir_ + "/c_twin.vcd\n" + dir_ + "/side_by_side.vcd\n";
}

// GTKWave: the marker on the mismatch, the view from a few cycles before it
// to a few after; each output and flop as a c./rtl. pair, the mismatching
// one first and highlighted, then the inputs.
bool KitLockstep::write_gtkw(const std::string &path) const
{
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f)
        return false;
    uint64_t t = mm_.t, start = t > 60 ? t - 60 : 0;
    std::string bad = mm_.field; // "age_q[3]" -> the VCD's "age_q(3)"
    size_t br = bad.find('[');
    if (br != std::string::npos)
        bad = bad.substr(0, br) + "(" + bad.substr(br + 1, bad.size() - br - 2) + ")";
    std::fprintf(f, "[*] simt cosim: %s instance %u, mismatch of %s at cycle %" PRIu64
                    " (t=%" PRIu64 " ns)\n",
                 u_->name, instance_, mm_.field.c_str(), mm_.cycle, t);
    std::fprintf(f, "[dumpfile] \"side_by_side.vcd\"\n[timestart] %" PRIu64 "\n", start);
    std::fprintf(f, "[size] 1400 800\n[pos] -1 -1\n");
    // Zoom -4.5: about 78 ns across this window's wave pane, from 6 cycles
    // before the mismatch to just after it (GTKWave 3.3 under Xvfb; a view
    // that would run past the dump's end starts at 0 instead, hence the
    // empty steps close() leaves after the mismatch).
    std::fprintf(f, "*-4.500000 %" PRIu64 " -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 "
                    "-1 -1 -1 -1 -1 -1 -1 -1 -1\n",
                 t + (bad.find("_q") != std::string::npos ? 5 : 0));
    std::fprintf(f, "[sst_width] 250\n[signals_width] 420\n");
    auto trace = [&](const std::string &scope, const std::string &name, unsigned bits,
                     bool hi) {
        // flags: 0x20 right-justify, 0x2 hex, 0x8 binary, 0x1 highlight
        // GTKWave shows a signal's leaf name only: an alias ("C age_q(3)",
        // "RTL age_q(3)") tells the pair's rows apart
        const char *side = scope == "c" ? "C" : scope == "rtl" ? "RTL" : "in";
        std::fprintf(f, "@%x\n+{%s %s} ", (bits == 1 ? 0x28 : 0x22) | (hi ? 1 : 0), side,
                     name.c_str());
        if (bits == 1)
            std::fprintf(f, "%s.%s\n", scope.c_str(), name.c_str());
        else
            std::fprintf(f, "%s.%s[%u:0]\n", scope.c_str(), name.c_str(), bits - 1);
    };
    std::fprintf(f, "@200\n-mismatch: %s (c. = C twin, rtl. = RTL)\n", mm_.field.c_str());
    for (const Field &fd : fields_) {
        if (fd.f->dir == UNIT_DIR_IN)
            continue;
        unsigned rows = fd.rows ? fd.count : 1, bits = fd.rows ? fd.width : fd.width * fd.count;
        for (unsigned k = 0; k < rows; k++) {
            std::string name = fd.rows ? std::string(fd.f->name) + "(" + std::to_string(k) + ")"
                                       : fd.f->name;
            if (name == bad) {
                trace("c", name, bits, true);
                trace("rtl", name, bits, true);
            }
        }
    }
    std::fprintf(f, "@200\n-outputs and flops: c. / rtl.\n");
    for (const Field &fd : fields_) {
        if (fd.f->dir == UNIT_DIR_IN)
            continue;
        unsigned rows = fd.rows ? fd.count : 1, bits = fd.rows ? fd.width : fd.width * fd.count;
        for (unsigned k = 0; k < rows; k++) {
            std::string name = fd.rows ? std::string(fd.f->name) + "(" + std::to_string(k) + ")"
                                       : fd.f->name;
            trace("c", name, bits, false);
            trace("rtl", name, bits, false);
        }
    }
    std::fprintf(f, "@200\n-inputs (the same on both sides)\n");
    std::fprintf(f, "@24\n+{in model_cycle} in.model_cycle[63:0]\n"); // decimal
    for (const Field &fd : fields_) {
        if (fd.f->dir != UNIT_DIR_IN)
            continue;
        unsigned rows = fd.rows ? fd.count : 1, bits = fd.rows ? fd.width : fd.width * fd.count;
        for (unsigned k = 0; k < rows; k++)
            trace("in",
                  fd.rows ? std::string(fd.f->name) + "(" + std::to_string(k) + ")" : fd.f->name,
                  bits, false);
    }
    bool ok = !std::ferror(f);
    return std::fclose(f) == 0 && ok;
}
