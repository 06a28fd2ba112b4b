// kit_rtl.h: one verilated RTL unit behind a generic interface, whatever
// the unit and its parameters (docs/cosim.md).  Ports are bound by name
// through code that scripts/gen_kit_adapter.sh generates from the verilated
// header (the documented VL_IN/VL_OUT declarations); flops are found by
// name in the model's scope, which exists because the RTL marks them
// `/*verilator public_flat_rd*/`.  Nothing here uses Verilator's internal,
// version-specific member names.
#ifndef SIM_KIT_RTL_H
#define SIM_KIT_RTL_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"
#include "verilated_fst_c.h"
#include "verilated_syms.h"

// A port or flop of a verilated model: `count` elements (unpacked rows) of
// `bytes` bytes each (1, 2, 4, 8: one integer; more: 32-bit words).
struct KitVar {
    void *p = nullptr;
    unsigned bytes = 0, count = 1;
    unsigned width = 0; // bits of one element, 0: not known (ports)
};

// Element k of v, as 64-bit words (nw of them), and back.
void kit_var_read(const KitVar &v, unsigned k, uint64_t *w, unsigned nw);
void kit_var_write(const KitVar &v, unsigned k, const uint64_t *w, unsigned nw);

class KitRtl {
public:
    virtual ~KitRtl() = default;
    virtual void eval() = 0;
    virtual bool trace_open(const std::string &path) = 0;
    virtual void trace_dump(uint64_t t) = 0;
    virtual void trace_close() = 0;

    // A port by SV name (p == nullptr when there is none).
    KitVar port(const std::string &name) const;
    // A flop (any public_flat_rd signal of the top module) by SV name.
    KitVar flop(const std::string &name) const;
    uint8_t *clk = nullptr, *rst_n = nullptr; // clk_i, rst_ni

    // Called by the generated binding code.
    template <class T> void bind(const char *name, T &port)
    {
        ports_.push_back({ name, KitVar{ &port, (unsigned)sizeof(T), 1, 0 } });
    }

protected:
    std::vector<std::pair<std::string, KitVar>> ports_;
    const VerilatedScope *scope_ = nullptr;
};

// The model of one verilated class M; `bind_ports` is generated.
template <class M>
class KitModel : public KitRtl {
public:
    KitModel(VerilatedContext *ctx, const char *name, const char *unit,
             void (*bind_ports)(M *, KitRtl &))
        : m_(new M(ctx, name))
    {
        bind_ports(m_.get(), *this);
        KitVar c = port("clk_i"), r = port("rst_ni");
        clk = static_cast<uint8_t *>(c.p);
        rst_n = static_cast<uint8_t *>(r.p);
        scope_ = ctx->scopeFind((std::string(name) + "." + unit).c_str());
    }
    ~KitModel() override { trace_close(); }
    void eval() override { m_->eval(); }
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
    std::unique_ptr<M> m_;
    std::unique_ptr<VerilatedFstC> tfp_;
};

// The models a build holds (generated: kit_adapter.cpp).
struct KitBuilt {
    const char *unit;   // SV module
    const char *tag;    // parameter set's name (tb/<unit>/kit.txt)
    const char *params; // "N=24 CntW=32 WoptW=6"
    std::unique_ptr<KitRtl> (*make)(VerilatedContext *ctx, const char *name);
};
extern const KitBuilt kit_built[];
extern const unsigned kit_nbuilt;

#endif
