// cosim.cpp: the co-simulation plugin (cmodel/include/simt/cosim_plugin.h):
// a session owns one Verilator context and, per unit and instance, one
// KitLockstep, and gives the model the generic unit hooks that feed them
// (docs/cosim.md).  Nothing here names a unit: the units are the ones the
// build verilated (kit_built, generated), described by the descriptor the
// model passes with every hook.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"

#include "simt/cosim_plugin.h"
#include "units/unit_hooks.h"

#include "kit_lockstep.h"

namespace {

struct UnitRun {
    std::vector<std::unique_ptr<KitLockstep>> inst; // by instance
};

struct Session {
    simt_cosim_opts_t o{};
    std::string units; // "all" or a comma list
    std::string replay_unit;
    std::string out_dir;
    std::unique_ptr<VerilatedContext> ctx;
    std::map<const unit_desc_t *, UnitRun> runs;
    std::map<const unit_desc_t *, bool> wanted;
    simt_cosim_result_t r{};
    bool stopped = false;
    const unit_desc_t *last_unit = nullptr; // the last hook's unit, looked up
    UnitRun *last_run = nullptr;
    bool last_skip = false;
};

bool in_list(const std::string &list, const std::string &name)
{
    if (list == "all")
        return true;
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(',', start);
        if (end == std::string::npos)
            end = list.size();
        if (list.compare(start, end - start, name) == 0)
            return true;
        start = end + 1;
    }
    return false;
}

// A hook's failure that is not a mismatch (no model for these parameters...).
int session_error(Session *s, const std::string &msg)
{
    std::fprintf(stderr, "cosim: error: %s\n", msg.c_str());
    s->stopped = true;
    s->r.error = 1;
    return 1;
}

void report(Session *s, KitLockstep &a, unsigned instance)
{
    const KitMismatch &m = a.mismatch();
    s->stopped = true;
    s->r.mismatches = 1;
    std::snprintf(s->r.unit, sizeof s->r.unit, "%s", a.unit()->name);
    s->r.instance = instance;
    s->r.cycle = m.cycle;
    if (s->o.replay)
        return; // the first pass printed the report
    std::fprintf(stderr,
                 "cosim: MISMATCH at cycle %" PRIu64 ": unit %s, instance %u, field %s: "
                 "expected (C twin) %s, actual (RTL) %s\n",
                 m.cycle, a.unit()->name, instance, m.field.c_str(), m.expected.c_str(),
                 m.actual.c_str());
    std::fprintf(stderr, "cosim: Verilator seed %u; the last cycles of instance %u's ports:\n",
                 s->o.seed, instance);
    a.print_history(stderr);
}

// "N=24 CntW=32 WoptW=6" of a twin instance.
std::string param_text(const unit_desc_t *u, const void *state)
{
    std::vector<uint32_t> v(u->nparams ? u->nparams : 1);
    u->param_values(state, v.data());
    std::string t;
    for (unsigned i = 0; i < u->nparams; i++)
        t += (i ? " " : "") + std::string(u->params[i]) + "=" + std::to_string(v[i]);
    return t;
}

// The lockstep of (unit, instance), made at first use; nullptr when the unit
// is not co-simulated, or on an error (then s->stopped).
KitLockstep *lockstep(Session *s, const unit_desc_t *u, unsigned instance, const void *state,
                      bool *skip)
{
    if (u != s->last_unit) { // one unit's hooks come in runs: skip the maps then
        auto w = s->wanted.find(u);
        if (w == s->wanted.end())
            w = s->wanted.emplace(u, in_list(s->units, u->name)).first;
        s->last_unit = u;
        s->last_skip = !w->second;
        s->last_run = w->second ? &s->runs[u] : nullptr;
    }
    *skip = s->last_skip;
    if (*skip)
        return nullptr;
    UnitRun &run = *s->last_run;
    if (instance < run.inst.size() && run.inst[instance])
        return run.inst[instance].get();
    std::string want = param_text(u, state), built;
    const KitBuilt *b = nullptr;
    for (unsigned k = 0; k < kit_nbuilt; k++) {
        if (std::strcmp(kit_built[k].unit, u->name) != 0)
            continue;
        built += std::string(built.empty() ? "" : "; ") + kit_built[k].params;
        if (want == kit_built[k].params)
            b = &kit_built[k];
    }
    if (!b) {
        session_error(s, "no verilated " + std::string(u->name) + " with " + want +
                             " (this configuration's parameters); built: " +
                             (built.empty() ? "none" : built) +
                             "; add the set to tb/" + u->name +
                             "/kit.txt (use cosim) and rebuild with make cosim");
        return nullptr;
    }
    std::string name = "u" + std::to_string(instance);
    std::unique_ptr<KitLockstep> ls(
        new KitLockstep(u, instance, state, b->make(s->ctx.get(), name.c_str()), s->o.history));
    if (!ls->error().empty()) {
        session_error(s, ls->error());
        return nullptr;
    }
    if (s->o.replay && instance == s->o.instance && s->replay_unit == u->name) {
        uint64_t from = s->o.cycle > s->o.window ? s->o.cycle - s->o.window : 0;
        ls->trace_window(s->out_dir, from, s->o.cycle);
    }
    if (instance >= run.inst.size())
        run.inst.resize(instance + 1);
    run.inst[instance] = std::move(ls);
    return run.inst[instance].get();
}

int on_reset(void *ctx, const unit_desc_t *u, unsigned instance, uint64_t cycle, const void *st)
{
    Session *s = static_cast<Session *>(ctx);
    bool skip;
    KitLockstep *a = lockstep(s, u, instance, st, &skip);
    if (skip)
        return 0;
    if (!a)
        return 1;
    if (!a->reset(cycle, st)) {
        report(s, *a, instance);
        return 1;
    }
    return 0;
}

int on_eval(void *ctx, const unit_desc_t *u, unsigned instance, uint64_t cycle, const void *st,
            const void *in, void *out)
{
    Session *s = static_cast<Session *>(ctx);
    bool skip;
    KitLockstep *a = lockstep(s, u, instance, st, &skip);
    if (skip)
        return 0;
    if (!a)
        return 1;
    s->r.unit_cycles++;
    if (!a->eval(cycle, st, in, out)) {
        report(s, *a, instance);
        return 1;
    }
    if (s->o.rtl_drives)
        std::memcpy(out, a->rtl_out(), u->out_size);
    return 0;
}

int on_tick(void *ctx, const unit_desc_t *u, unsigned instance, uint64_t cycle, const void *in,
            const void *after)
{
    Session *s = static_cast<Session *>(ctx);
    bool skip;
    KitLockstep *a = lockstep(s, u, instance, after, &skip);
    if (skip)
        return 0;
    if (!a)
        return 1;
    if (!a->tick(cycle, in, after)) {
        report(s, *a, instance);
        return 1;
    }
    return 0;
}

void *open_session(const simt_cosim_opts_t *o, unit_hooks_t *hooks, char *err, size_t errlen)
{
    std::string units = o->units ? o->units : "";
    std::string known = "all";
    for (unsigned k = 0; k < kit_nbuilt; k++)
        if ((known + ",").find(std::string(", ") + kit_built[k].unit + ",") == std::string::npos)
            known += std::string(", ") + kit_built[k].unit;
    size_t start = 0;
    while (units != "all" && start <= units.size()) { // every name must be a unit
        size_t end = units.find(',', start);
        if (end == std::string::npos)
            end = units.size();
        std::string name = units.substr(start, end - start);
        bool ok = false;
        for (unsigned k = 0; k < kit_nbuilt; k++)
            ok = ok || name == kit_built[k].unit;
        if (!ok) {
            std::snprintf(err, errlen, "unknown unit '%s' for --cosim (known: %s)", name.c_str(),
                          known.c_str());
            return nullptr;
        }
        start = end + 1;
    }
    Session *s = new Session;
    s->o = *o;
    s->units = units;
    s->out_dir = o->out_dir ? o->out_dir : ".";
    s->o.units = nullptr;
    s->o.out_dir = nullptr;
    s->o.replay_unit = nullptr;
    s->replay_unit = o->replay_unit ? o->replay_unit : "";
    s->ctx.reset(new VerilatedContext);
    s->ctx->randReset(2); // x-initial unique: random, from the seed
    s->ctx->randSeed((int)o->seed);
    if (o->replay)
        s->ctx->traceEverOn(true);
    *hooks = unit_hooks_t{};
    hooks->ctx = s;
    hooks->reset = on_reset;
    hooks->eval = on_eval;
    hooks->tick = on_tick;
    return s;
}

// The coverage of every co-simulated unit, summed over its instances: one
// line per unit, "cosim coverage UNIT: bin=count; ..." (tests/cosim_test.sh
// sums them over the runs of `make test`).
void print_coverage(Session *s)
{
    for (auto &run : s->runs) {
        std::vector<uint64_t> sum;
        const std::vector<std::string> *names = nullptr;
        for (auto &ls : run.second.inst) {
            if (!ls)
                continue;
            const std::vector<uint64_t> &b = ls->bins();
            if (b.size() > sum.size()) {
                sum.resize(b.size(), 0);
                names = &ls->bin_names();
            }
            for (size_t k = 0; k < b.size(); k++)
                sum[k] += b[k];
        }
        if (!names)
            continue;
        std::string line = "cosim coverage " + std::string(run.first->name) + ":";
        for (size_t k = 0; k < sum.size(); k++)
            line += (k ? "; " : " ") + (*names)[k] + "=" + std::to_string(sum[k]);
        std::fprintf(stderr, "%s\n", line.c_str());
    }
}

void session_result(void *p, simt_cosim_result_t *r)
{
    Session *s = static_cast<Session *>(p);
    if (!s->o.replay && !s->stopped)
        print_coverage(s);
    *r = s->r;
    if (!s->o.replay || !s->r.mismatches)
        return;
    auto it = s->runs.end();
    for (auto i = s->runs.begin(); i != s->runs.end(); ++i)
        if (s->replay_unit == i->first->name)
            it = i;
    unsigned inst = s->r.instance;
    if (it == s->runs.end() || inst >= it->second.inst.size() || !it->second.inst[inst] ||
        s->r.cycle != s->o.cycle)
        return;
    KitLockstep &ls = *it->second.inst[inst];
    bool ok = false;
    std::string files = ls.finish_trace(&ok);
    std::string gtkw = s->out_dir + "/side_by_side.gtkw";
    ok = ok && ls.write_gtkw(gtkw);
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
