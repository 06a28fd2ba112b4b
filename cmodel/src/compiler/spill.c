/* spill.c: the register cap and spilling to local memory.
 *
 * The cap is what nvcc's -maxrregcount (config key maxrregcount) and the
 * kernel's .maxntid (or .reqntid) allow: with .maxntid N, one CTA of N
 * threads must fit in the SM's register file, so a thread may have
 * gpgpu_shader_registers / (N rounded up to whole warps), rounded down to
 * gpgpu_reg_alloc_unit.  The lower of the two applies.
 *
 * While the kernel body, coloured in PTX order, needs more than the cap
 * less COMPILER_RESERVED_REGS, one value moves to local memory: the 16-,
 * 32- or 64-bit register live across the most instructions per access
 * (not a predicate, not a temporary of an earlier spill).  Every
 * instruction that reads or writes it gets a fresh temporary instead,
 * loaded with `ld.local` just before it (branches to the instruction run
 * the load too) and stored with `st.local` just after it (under the same
 * guard, so a guarded write that does not happen stores nothing).  The
 * slots are 8 bytes each in the kernel's .local variable `__spill`.
 * Callees are not spilled: a cap below what a callee needs is an error. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "compiler/pass.h"
#include "compiler/regalloc.h"
#include "ptx/edit.h"
#include "ptx/liveness.h"

static uint32_t reg_cap(const compiler_unit_t *u)
{
    const ptx_function_t *fn = &u->mod->funcs[u->kernel];
    uint32_t cap = (uint32_t)simt_config_get(u->cfg, SIMT_CFG_MAXRREGCOUNT);
    const uint32_t *nt = fn->maxntid[0] ? fn->maxntid : fn->reqntid;
    if (nt[0]) {
        uint64_t threads = (uint64_t)nt[0] * nt[1] * nt[2];
        uint64_t padded = (threads + 31) / 32 * 32;
        uint64_t unit = (uint64_t)simt_config_get(u->cfg, SIMT_CFG_REG_ALLOC_UNIT);
        uint64_t per = (uint64_t)simt_config_get(u->cfg, SIMT_CFG_REGS_SM) / padded;
        per = per / unit * unit;
        if (per && (!cap || per < cap))
            cap = (uint32_t)per;
    }
    return cap;
}

/* Adds 1 to span[r] for every register r live after an instruction. */
static int count_live(void *ctx, uint32_t insn, const uint64_t *live)
{
    (void)insn;
    uint32_t *buf = ctx, *span = buf + 1;
    for (uint32_t r = 0; r < buf[0]; r++)
        span[r] += ptx_live_has(live, r);
    return 0;
}

/* buf[0] = f's register count, buf[1 + r] = instructions r is live after.
 * NULL when out of memory. */
static uint32_t *live_spans(const ptx_module_t *m, uint32_t f)
{
    ptx_cfg_t *cfg = ptx_cfg_build(m, f);
    ptx_liveness_t *lv = cfg ? ptx_liveness_build(m, cfg) : NULL;
    uint32_t *buf = lv ? calloc(m->funcs[f].nregs + 1, sizeof *buf) : NULL;
    if (buf) {
        buf[0] = m->funcs[f].nregs;
        for (uint32_t b = 0; b < cfg->nblocks; b++)
            if (ptx_liveness_walk(lv, m, cfg, b, count_live, buf) != 0) {
                free(buf);
                buf = NULL;
                break;
            }
    }
    ptx_liveness_free(lv);
    ptx_cfg_free(cfg);
    return buf;
}

/* Does `in` name register v (as a use when `use`, else as a def)? */
static int names(const ptx_insn_t *in, uint16_t v, int use)
{
    uint16_t r[PTX_INSN_MAX_USES];
    int n = use ? ptx_insn_uses(in, r, PTX_INSN_MAX_USES)
                : ptx_insn_defs(in, r, PTX_INSN_MAX_DEFS);
    for (int i = 0; i < n; i++)
        if (r[i] == v)
            return 1;
    return 0;
}

/* The register to spill next, or PTX_REG_SINK when none is left. */
static uint16_t pick(const ptx_module_t *m, uint32_t f, const uint32_t *spans,
                     uint32_t first_temp)
{
    const ptx_function_t *fn = &m->funcs[f];
    uint32_t *acc = calloc(fn->nregs + 1, sizeof *acc);
    if (!acc)
        return PTX_REG_SINK;
    for (uint32_t i = fn->first; i < fn->first + fn->count; i++) {
        uint16_t r[PTX_INSN_MAX_USES];
        int n = ptx_insn_uses(&m->insns[i], r, PTX_INSN_MAX_USES);
        for (int k = 0; k < n; k++)
            acc[r[k]]++;
        n = ptx_insn_defs(&m->insns[i], r, PTX_INSN_MAX_DEFS);
        for (int k = 0; k < n; k++)
            acc[r[k]]++;
    }
    uint16_t best = PTX_REG_SINK;
    double best_w = 0;
    for (uint32_t v = 0; v < first_temp && v < fn->nregs; v++) {
        unsigned bits = ptx_type_bits((ptx_type_t)fn->regs[v].type);
        if (fn->regs[v].type == PTX_T_PRED || bits < 16 || !acc[v] ||
            spans[1 + v] == 0)
            continue;
        double w = (double)spans[1 + v] / acc[v];
        if (w > best_w) {
            best_w = w;
            best = (uint16_t)v;
        }
    }
    free(acc);
    return best;
}

static void rename_reg(ptx_insn_t *in, uint16_t v, uint16_t t)
{
    for (unsigned k = 0; k < in->nops; k++) {
        ptx_operand_t *o = &in->ops[k];
        if ((o->kind == PTX_OPND_REG || o->kind == PTX_OPND_ADDR) && o->reg == v &&
            (o->kind == PTX_OPND_REG || o->has_reg))
            o->reg = t;
        if (o->kind == PTX_OPND_VEC || (o->kind == PTX_OPND_REG && o->nvec == 1))
            for (unsigned e = 0; e < o->nvec; e++)
                if (o->vec[e] == v)
                    o->vec[e] = t;
    }
}

/* ld.local / st.local of register t at __spill + off. */
static ptx_insn_t local_access(int store, unsigned bits, uint16_t t,
                               uint32_t sym, uint64_t off)
{
    ptx_insn_t in;
    memset(&in, 0, sizeof in);
    in.op = store ? PTX_OP_ST : PTX_OP_LD;
    in.type = bits == 64 ? PTX_T_B64 : bits == 32 ? PTX_T_B32 : PTX_T_B16;
    in.space = PTX_SPACE_LOCAL;
    in.vec = 1;
    in.guard = PTX_REG_SINK;
    in.nops = 2;
    ptx_operand_t addr = { .kind = PTX_OPND_ADDR, .sym = sym,
                           .imm = (int64_t)off };
    ptx_operand_t reg = { .kind = PTX_OPND_REG, .reg = t, .sym = PTX_NO_SYM };
    in.ops[store ? 0 : 1] = addr;
    in.ops[store ? 1 : 0] = reg;
    return in;
}

/* Moves register v of f to a new 8-byte slot.  0, or -1 out of memory. */
static int spill_one(ptx_module_t *m, uint32_t f, uint16_t v)
{
    uint32_t sym;
    uint64_t off;
    if (ptx_grow_local(m, f, "__spill", 8, &sym, &off) != 0)
        return -1;
    ptx_type_t type = (ptx_type_t)m->funcs[f].regs[v].type;
    unsigned bits = ptx_type_bits(type);
    for (uint32_t i = m->funcs[f].first; i < m->funcs[f].first + m->funcs[f].count; i++) {
        int use = names(&m->insns[i], v, 1), def = names(&m->insns[i], v, 0);
        if (!use && !def)
            continue;
        uint16_t t;
        if (ptx_add_reg(m, f, type, "spill", &t) != 0)
            return -1;
        rename_reg(&m->insns[i], v, t);
        if (def) {
            ptx_insn_t st = local_access(1, bits, t, sym, off);
            st.guard = m->insns[i].guard;
            st.guard_neg = m->insns[i].guard_neg;
            if (ptx_insert(m, f, i + 1, &st, 1, 0) != 0)
                return -1;
        }
        if (use) {
            ptx_insn_t ld = local_access(0, bits, t, sym, off);
            if (ptx_insert(m, f, i, &ld, 1, 1) != 0)
                return -1;
            i++;
        }
        i += def;
    }
    return 0;
}

static int oom(compiler_unit_t *u)
{
    return set_error(u->err, SIMT_EINPUT, "out of host memory spilling '%s'",
                     u->src->funcs[u->kernel].name);
}

static int run(compiler_unit_t *u)
{
    u->res.cap = reg_cap(u);
    if (!u->res.cap)
        return SIMT_OK;
    uint32_t budget = u->res.cap > COMPILER_RESERVED_REGS
                          ? u->res.cap - COMPILER_RESERVED_REGS : 0;
    uint32_t first_temp = u->mod->funcs[u->kernel].nregs;
    for (;;) {
        regalloc_result_t ra;
        int rc = regalloc_kernel(u->mod, u->kernel, &ra);
        if (rc != 0)
            return rc == REGALLOC_ENOMEM ? oom(u)
                 : set_error(u->err, SIMT_EINPUT, "register allocation of "
                             "'%s' failed", u->src->funcs[u->kernel].name);
        uint32_t need = ra.regs;
        regalloc_result_free(&ra);
        if (need <= budget)
            return SIMT_OK;
        uint32_t *spans = live_spans(u->mod, u->kernel);
        if (!spans)
            return oom(u);
        uint16_t v = pick(u->mod, u->kernel, spans, first_temp);
        free(spans);
        if (v == PTX_REG_SINK)
            return set_input_error(u->err, u->src->file,
                                   u->src->funcs[u->kernel].line,
                                   u->src->funcs[u->kernel].col,
                                   "kernel '%s' cannot fit in %u registers per "
                                   "thread (the maxrregcount or .maxntid cap): "
                                   "with every value it can spill in local "
                                   "memory it still needs %u",
                                   u->src->funcs[u->kernel].name, u->res.cap,
                                   need + COMPILER_RESERVED_REGS);
        ptx_module_t *m = compiler_writable(u);
        if (!m || spill_one(m, u->kernel, v) != 0)
            return oom(u);
        u->res.spilled++;
    }
}

const compiler_pass_t compiler_pass_spill = {
    .name = "spill",
    .summary = "fit the maxrregcount / .maxntid register cap by spilling "
               "values to local memory",
    .selected = NULL,
    .run = run,
};
