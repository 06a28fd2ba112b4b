// cosim.cpp: the co-simulation plugin (cmodel/include/simt/cosim_plugin.h):
// a session owns one Verilator context and one lockstep per unit instance,
// and gives the model the hooks that feed them (docs/cosim.md).
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"

#include "simt/cosim_plugin.h"
#include "units/unit_hooks.h"

#include "arbiter_lockstep.h"
#include "gtkw_writer.h"

namespace {

struct Session {
    simt_cosim_opts_t o{};
    std::string out_dir;
    std::unique_ptr<VerilatedContext> ctx;
    std::vector<std::unique_ptr<ArbiterLockstep>> arbs; // by instance
    bool arbiter_on = false;
    simt_cosim_result_t r{};
    bool stopped = false;
};

// A hook's failure that is not a mismatch (no model for this N...).
int session_error(Session *s, const std::string &msg)
{
    std::fprintf(stderr, "cosim: error: %s\n", msg.c_str());
    s->stopped = true;
    s->r.error = 1;
    return 1;
}

void report(Session *s, ArbiterLockstep &a, unsigned instance)
{
    const Mismatch &m = a.mismatch();
    s->stopped = true;
    s->r.mismatches = 1;
    std::snprintf(s->r.unit, sizeof s->r.unit, "warp_arbiter");
    s->r.instance = instance;
    s->r.cycle = m.cycle;
    if (s->o.replay)
        return; // the first pass printed the report
    std::fprintf(stderr,
                 "cosim: MISMATCH at cycle %" PRIu64 ": unit warp_arbiter, instance %u, field %s: "
                 "expected (C twin) %" PRIu64 ", actual (RTL) %" PRIu64 "\n",
                 m.cycle, instance, m.field.c_str(), m.expected, m.actual);
    std::fprintf(stderr, "cosim: Verilator seed %u; the last cycles of instance %u's ports:\n",
                 s->o.seed, instance);
    a.print_history(stderr);
}

ArbiterLockstep *arbiter(Session *s, unsigned instance, const warp_arbiter_state_t *st)
{
    if (instance < s->arbs.size() && s->arbs[instance])
        return s->arbs[instance].get();
    warp_arbiter_cfg_t def = warp_arbiter_default_cfg();
    if (st->cfg.cnt_w != def.cnt_w || st->cfg.wopt_w != def.wopt_w) {
        session_error(s, "the verilated warp arbiters have CNT_W 32 and WOPT_W 6");
        return nullptr;
    }
    std::unique_ptr<RtlArbiter> rtl = make_rtl_arbiter(st->cfg.n, s->ctx.get());
    if (!rtl) {
        session_error(s, "no verilated warp arbiter with N = " + std::to_string(st->cfg.n) +
                             " (this configuration's warp slots per scheduler); built: N = " +
                             rtl_arbiter_ns() + "; rebuild with make cosim COSIM_WA_NS=\"" +
                             rtl_arbiter_ns() + " " + std::to_string(st->cfg.n) + "\"");
        return nullptr;
    }
    if (instance >= s->arbs.size())
        s->arbs.resize(instance + 1);
    s->arbs[instance].reset(new ArbiterLockstep(instance, std::move(rtl), s->o.history));
    if (s->o.replay && instance == s->o.instance) {
        uint64_t from = s->o.cycle > s->o.window ? s->o.cycle - s->o.window : 0;
        s->arbs[instance]->trace_window(s->out_dir, from, s->o.cycle);
    }
    return s->arbs[instance].get();
}

int on_reset(void *ctx, uint64_t cycle, unsigned instance, const warp_arbiter_state_t *st)
{
    Session *s = static_cast<Session *>(ctx);
    ArbiterLockstep *a = arbiter(s, instance, st);
    if (!a)
        return 1;
    if (!a->reset(cycle)) {
        report(s, *a, instance);
        return 1;
    }
    return 0;
}

int on_eval(void *ctx, uint64_t cycle, unsigned instance, const warp_arbiter_state_t *st,
            const warp_arbiter_in_t *in, warp_arbiter_out_t *out)
{
    Session *s = static_cast<Session *>(ctx);
    ArbiterLockstep *a = arbiter(s, instance, st);
    if (!a)
        return 1;
    s->r.unit_cycles++;
    if (!a->eval(cycle, *in, *out)) {
        report(s, *a, instance);
        return 1;
    }
    if (s->o.rtl_drives)
        *out = a->rtl_out();
    return 0;
}

int on_tick(void *ctx, uint64_t cycle, unsigned instance, const warp_arbiter_in_t *in,
            const warp_arbiter_state_t *after)
{
    Session *s = static_cast<Session *>(ctx);
    ArbiterLockstep *a = arbiter(s, instance, after);
    if (!a)
        return 1;
    if (!a->tick(cycle, *in, *after)) {
        report(s, *a, instance);
        return 1;
    }
    return 0;
}

bool want_unit(const std::string &list, const char *unit)
{
    if (list == "all")
        return true;
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(',', start);
        if (end == std::string::npos)
            end = list.size();
        if (list.compare(start, end - start, unit) == 0)
            return true;
        start = end + 1;
    }
    return false;
}

void *open_session(const simt_cosim_opts_t *o, unit_hooks_t *hooks, char *err, size_t errlen)
{
    std::string units = o->units ? o->units : "";
    static const char *const known[] = { "warp_arbiter" };
    size_t start = 0;
    while (units != "all" && start <= units.size()) { // every name must be a unit
        size_t end = units.find(',', start);
        if (end == std::string::npos)
            end = units.size();
        std::string name = units.substr(start, end - start);
        bool ok = false;
        for (const char *k : known)
            ok = ok || name == k;
        if (!ok) {
            std::snprintf(err, errlen, "unknown unit '%s' for --cosim (known: all, warp_arbiter)",
                          name.c_str());
            return nullptr;
        }
        start = end + 1;
    }
    Session *s = new Session;
    s->o = *o;
    s->o.units = nullptr;
    s->o.out_dir = nullptr;
    s->out_dir = o->out_dir ? o->out_dir : ".";
    s->ctx.reset(new VerilatedContext);
    s->ctx->randReset(2); // x-initial unique: random, from the seed
    s->ctx->randSeed((int)o->seed);
    if (o->replay)
        s->ctx->traceEverOn(true);
    s->arbiter_on = want_unit(units, "warp_arbiter");
    *hooks = unit_hooks_t{};
    hooks->ctx = s;
    if (s->arbiter_on) {
        hooks->warp_arbiter_reset = on_reset;
        hooks->warp_arbiter_eval = on_eval;
        hooks->warp_arbiter_tick = on_tick;
    }
    return s;
}

void session_result(void *p, simt_cosim_result_t *r)
{
    Session *s = static_cast<Session *>(p);
    for (size_t i = 0; !s->stopped && i < s->arbs.size(); i++) // the last edges
        if (s->arbs[i] && !s->arbs[i]->flush())
            report(s, *s->arbs[i], (unsigned)i);
    *r = s->r;
    if (!s->o.replay || !s->r.mismatches)
        return;
    unsigned inst = s->r.instance;
    if (inst >= s->arbs.size() || !s->arbs[inst] || s->r.cycle != s->o.cycle)
        return;
    bool ok = false;
    std::string files = s->arbs[inst]->finish_trace(&ok);
    uint64_t from = s->o.cycle > s->o.window ? s->o.cycle - s->o.window : 0;
    std::string gtkw = s->out_dir + "/side_by_side.gtkw";
    ok = ok && write_arbiter_gtkw(gtkw, "side_by_side.vcd", s->arbs[inst]->rtl_n(), from * 10,
                                  s->o.cycle * 10);
    if (ok)
        files += gtkw + "\n";
    std::snprintf(r->files, sizeof r->files, "%s", ok ? files.c_str() : "");
}

void close_session(void *p)
{
    delete static_cast<Session *>(p);
}

const simt_cosim_plugin_t plugin = { SIMT_COSIM_ABI, open_session, session_result,
                                     close_session };

} // namespace

extern "C" const simt_cosim_plugin_t *simt_cosim_plugin(void)
{
    return &plugin;
}
