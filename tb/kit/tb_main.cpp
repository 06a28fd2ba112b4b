// tb_main.cpp: the testbench skeleton (kit_tb.h).  Compiled with one
// verilated parameter set (kit_built[0], generated) and one unit's tb.cpp.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "verilated.h"

#include "kit_lockstep.h"
#include "kit_tb.h"

namespace {

std::vector<uint32_t> parse_params(const unit_desc_t *u, const char *text)
{
    std::vector<uint32_t> v(u->nparams ? u->nparams : 1, 0);
    for (unsigned i = 0; i < u->nparams; i++) {
        std::string key = std::string(u->params[i]) + "=";
        const char *p = std::strstr(text, key.c_str());
        while (p && p != text && p[-1] != ' ')
            p = std::strstr(p + 1, key.c_str());
        if (!p) {
            std::fprintf(stderr, "tb: parameter %s missing from '%s'\n", u->params[i], text);
            std::exit(2);
        }
        v[i] = (uint32_t)std::strtoul(p + key.size(), nullptr, 0);
    }
    return v;
}

VerilatedContext *g_ctx;

} // namespace

KitTb::KitTb(const unit_desc_t *u, const uint32_t *params, unsigned nbins)
    : bins(nbins, 0), u_(u), params_(params, params + (u->nparams ? u->nparams : 1)),
      state_(u->state_size, 0), out_(u->out_size, 0)
{
    if (u->init(state_.data(), params) != 0) {
        std::fprintf(stderr, "tb: the twin refuses these parameters\n");
        std::exit(2);
    }
    ls_.reset(new KitLockstep(u, 0, state_.data(), kit_built[0].make(g_ctx, "tb"), 8));
    if (!ls_->error().empty()) {
        std::fprintf(stderr, "tb: error: %s\n", ls_->error().c_str());
        std::exit(2);
    }
    reset();
}

KitTb::~KitTb() = default;

const std::vector<uint64_t> &KitTb::desc_bins() const { return ls_->bins(); }
const std::vector<std::string> &KitTb::desc_bin_names() const { return ls_->bin_names(); }

void KitTb::reset()
{
    u_->reset(state_.data());
    if (!ls_->reset(cycle_, state_.data())) {
        const KitMismatch &m = ls_->mismatch();
        std::printf("  MISMATCH [%s] after reset: %s: twin %s, rtl %s\n", where.c_str(),
                    m.field.c_str(), m.expected.c_str(), m.actual.c_str());
        failures_++;
    }
}

const void *KitTb::step(void *in, const std::function<void(const void *out, void *in)> &late)
{
    u_->eval(state_.data(), in, out_.data());
    bool ok = ls_->eval(cycle_, state_.data(), in, out_.data());
    if (late)
        late(out_.data(), in);
    if (kit_tb_unit.cover)
        kit_tb_unit.cover(*this, in, out_.data());
    u_->tick(state_.data(), in);
    ok = ls_->tick(cycle_, in, state_.data()) && ok;
    if (!ok) {
        if (failures_ < 10) {
            const KitMismatch &m = ls_->mismatch();
            std::printf("  MISMATCH [%s] cycle %" PRIu64 ": %s: twin %s, rtl %s\n", where.c_str(),
                        m.cycle, m.field.c_str(), m.expected.c_str(), m.actual.c_str());
        }
        failures_++;
    }
    cycle_++;
    return out_.data();
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    VerilatedContext ctx;
    g_ctx = &ctx;
    const KitTbUnit &unit = kit_tb_unit;
    const unit_desc_t *u = unit.desc;
    const char *seed_env = std::getenv("KIT_SEED");
    const char *cyc_env = std::getenv("KIT_CYCLES");
    uint64_t seed = seed_env ? std::strtoull(seed_env, nullptr, 0) : 0x5eed2026ull;
    std::vector<uint32_t> params = parse_params(u, kit_built[0].params);
    KitTb tb(u, params.data(), unit.nbins);
    tb.rng.s = seed ? seed : 1;
    tb.cycles = cyc_env ? std::strtoull(cyc_env, nullptr, 0) : unit.default_cycles(params.data());
    std::printf("%s tb: %s seed=0x%" PRIx64 " (KIT_SEED), %" PRIu64
                " random cycles per run (KIT_CYCLES)\n",
                u->name, kit_built[0].params, seed, tb.cycles);
    unsigned passed = 0, failed = 0;
    unit.run(tb, [&](const char *name, bool ok) {
        std::printf("%s %s\n", ok ? "ok" : "FAIL", name);
        (ok ? passed : failed)++;
    });
    // Coverage: the testbench's bins, then the descriptor's (the bins the
    // co-simulation counts on real workloads).
    bool cov_ok = true;
    std::printf("coverage:\n");
    for (unsigned k = 0; k < unit.nbins; k++) {
        bool na = unit.bin_applies && !unit.bin_applies(tb, k);
        std::printf("  %-44s %12" PRIu64 "%s\n", unit.bins[k], tb.bins[k], na ? " (n/a)" : "");
        if (!na && tb.bins[k] == 0) {
            std::printf("  FAIL coverage: %s never hit\n", unit.bins[k]);
            cov_ok = false;
        }
    }
    for (size_t k = 0; k < tb.desc_bins().size(); k++) {
        const std::string &name = tb.desc_bin_names()[k];
        std::printf("  %-44s %12" PRIu64 "\n", name.c_str(), tb.desc_bins()[k]);
        if (tb.desc_bins()[k] == 0) {
            std::printf("  FAIL coverage: %s never hit\n", name.c_str());
            cov_ok = false;
        }
    }
    std::printf("%s coverage\n", cov_ok ? "ok" : "FAIL");
    (cov_ok ? passed : failed)++;
    std::printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
