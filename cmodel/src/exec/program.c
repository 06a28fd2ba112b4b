/* program.c: prepares a kernel for execution (see exec.h). */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "exec/dispatch.h"
#include "exec/exec.h"
#include "ptx/callgraph.h"
#include "ptx/cfg.h"
#include "ptx/liveness.h"

typedef struct builder {
    const ptx_module_t *m;
    exec_program_t *p;
    simt_error_t *err;
    uint32_t *funcs;         /* reachable functions, kernel first */
    uint32_t nfuncs;
    uint32_t *vbase, *pbase; /* per module function */
    uint32_t **rslot;        /* per function: register -> slot */
    uint32_t ref_cap;        /* room in p->refs */
    uint32_t imm_cap, copy_cap;
    uint64_t global_base;
} builder_t;

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

static int oom(builder_t *b)
{
    return set_error(b->err, SIMT_EINPUT, "out of host memory preparing kernel");
}

static int new_imm(builder_t *b, uint64_t v, uint32_t *slot)
{
    exec_program_t *p = b->p;
    if (p->nimm == b->imm_cap) {
        uint32_t nc = b->imm_cap ? b->imm_cap * 2 : 64;
        uint64_t *q = realloc(p->imm, (size_t)nc * WARP_SIZE * sizeof *q);
        if (!q)
            return oom(b);
        p->imm = q;
        b->imm_cap = nc;
    }
    for (unsigned l = 0; l < WARP_SIZE; l++)
        p->imm[(size_t)p->nimm * WARP_SIZE + l] = v;
    *slot = p->nimm++;
    return SIMT_OK;
}

static int add_copy(builder_t *b, uint32_t from, uint32_t to, uint32_t bytes)
{
    exec_program_t *p = b->p;
    if (p->ncopies == b->copy_cap) {
        uint32_t nc = b->copy_cap ? b->copy_cap * 2 : 16;
        exec_copy_t *q = realloc(p->copies, nc * sizeof *q);
        if (!q)
            return oom(b);
        p->copies = q;
        b->copy_cap = nc;
    }
    p->copies[p->ncopies++] = (exec_copy_t){ from, to, bytes };
    return SIMT_OK;
}

/* Address of a symbol in its own space; *space receives that space. */
static uint64_t sym_address(const builder_t *b, const ptx_symbol_t *s,
                            ptx_space_t *space)
{
    const ptx_module_t *m = b->m;
    const exec_program_t *p = b->p;
    switch (s->kind) {
    case PTX_SYM_KPARAM:
        *space = PTX_SPACE_PARAM;
        return s->offset;
    case PTX_SYM_FPARAM:
    case PTX_SYM_CPARAM:
        *space = PTX_SPACE_LOCAL;
        return p->func_frame[s->func] + s->offset;
    default:
        break;
    }
    *space = (ptx_space_t)s->space;
    switch (s->space) {
    case PTX_SPACE_GLOBAL:
        return b->global_base + s->offset;
    case PTX_SPACE_SHARED:
        if (s->is_extern)
            return exec_cta_smem(p->static_shared, 0);
        return s->func == ~0u ? s->offset
                              : ptx_kernel_shared_base(m, s->func) + s->offset;
    case PTX_SPACE_LOCAL:
        return p->func_frame[s->func] + s->offset;
    default:
        return s->offset; /* const bank offset */
    }
}

static int resolve_reg(builder_t *b, uint32_t f, uint16_t reg, exec_opnd_t *o)
{
    if (reg == PTX_REG_SINK) {
        o->kind = EO_SINK;
        return SIMT_OK;
    }
    const ptx_reg_t *r = &b->m->funcs[f].regs[reg];
    o->slot = b->rslot[f][reg];
    if (r->type == PTX_T_PRED) {
        o->kind = EO_PRED;
    } else {
        o->kind = EO_REG;
        o->bits = (uint8_t)ptx_type_bits((ptx_type_t)r->type);
    }
    return SIMT_OK;
}

static int resolve_operand(builder_t *b, exec_insn_t *ei, unsigned k)
{
    const ptx_insn_t *in = ei->ir;
    const ptx_operand_t *io = &in->ops[k];
    exec_opnd_t *o = &ei->o[k];
    const ptx_module_t *m = b->m;
    uint32_t f = in->func;
    o->pipe = EXEC_NO_PC;
    switch (io->kind) {
    case PTX_OPND_REG:
        resolve_reg(b, f, io->reg, o);
        o->neg = io->neg;
        if (io->nvec == 1 && io->vec[0] != PTX_REG_SINK) {
            exec_opnd_t pipe;
            memset(&pipe, 0, sizeof pipe);
            resolve_reg(b, f, io->vec[0], &pipe);
            o->pipe = pipe.slot;
        }
        return SIMT_OK;
    case PTX_OPND_IMM:
        o->kind = EO_IMM;
        return new_imm(b, (uint64_t)io->imm, &o->slot);
    case PTX_OPND_SREG:
        o->kind = EO_SREG;
        o->slot = io->reg;
        return SIMT_OK;
    case PTX_OPND_SYM: {
        const ptx_symbol_t *s = &m->syms[io->sym];
        ptx_space_t sp;
        uint64_t a = sym_address(b, s, &sp) + (uint64_t)io->imm;
        o->kind = EO_IMM;
        return new_imm(b, a, &o->slot);
    }
    case PTX_OPND_ADDR: {
        o->kind = EO_ADDR;
        o->imm = io->imm;
        if (io->has_reg) {
            exec_opnd_t r;
            memset(&r, 0, sizeof r);
            resolve_reg(b, f, io->reg, &r);
            if (r.kind != EO_REG)
                return set_input_error(b->err, m->file, in->line, in->col,
                                       "a predicate cannot be an address");
            o->has_reg = 1;
            o->slot = r.slot;
            o->bits = r.bits;
        }
        if (io->sym != PTX_NO_SYM) {
            const ptx_symbol_t *s = &m->syms[io->sym];
            if (s->kind == PTX_SYM_FUNC)
                return set_input_error(b->err, m->file, in->line, in->col,
                                       "'%s' is a function, not data", s->name);
            ptx_space_t sp;
            o->imm += (int64_t)sym_address(b, s, &sp);
            /* .param of a device function lives in the thread's frame */
            if (ei->space == PTX_SPACE_PARAM && sp == PTX_SPACE_LOCAL)
                ei->space = PTX_SPACE_LOCAL;
            else if (ei->space != PTX_SPACE_NONE && ei->space != sp)
                return set_input_error(b->err, m->file, in->line, in->col,
                    "'%s' is in the .%s space but the instruction accesses .%s",
                    s->name, ptx_space_name(sp), ptx_space_name(ei->space));
            else if (ei->space == PTX_SPACE_NONE && sp != PTX_SPACE_GLOBAL) {
                /* generic access to a named variable: make it generic */
                o->imm += (int64_t)(sp == PTX_SPACE_SHARED ? GEN_SHARED_BASE
                                  : sp == PTX_SPACE_LOCAL  ? GEN_LOCAL_BASE
                                                           : 0);
                if (sp != PTX_SPACE_SHARED && sp != PTX_SPACE_LOCAL)
                    ei->space = (uint8_t)sp;
            }
        }
        return SIMT_OK;
    }
    case PTX_OPND_VEC:
        o->kind = EO_VEC;
        o->n = io->nvec;
        for (unsigned i = 0; i < io->nvec; i++) {
            exec_opnd_t r;
            memset(&r, 0, sizeof r);
            resolve_reg(b, f, io->vec[i], &r);
            if (r.kind == EO_PRED)
                return set_input_error(b->err, m->file, in->line, in->col,
                                       "predicates cannot be vector elements");
            o->vslot[i] = r.kind == EO_SINK ? EXEC_NO_PC : r.slot;
            o->vbits[i] = r.bits;
        }
        return SIMT_OK;
    case PTX_OPND_LABEL:
        ei->target = b->p->pc_of_insn[io->imm];
        return SIMT_OK;
    case PTX_OPND_FUNC:
        if (in->op != PTX_OP_CALL) { /* the function's address as a value */
            o->kind = EO_IMM;
            return new_imm(b, EXEC_FUNC_BASE + (uint64_t)io->imm *
                                                   EXEC_FUNC_STRIDE, &o->slot);
        }
        if (!m->funcs[io->imm].builtin) /* builtins run in place */
            ei->target = b->p->pc_of_insn[m->funcs[io->imm].first];
        return SIMT_OK;
    default:
        return SIMT_OK; /* LIST: handled by the call set-up */
    }
}

/* A call to a builtin (exec_builtin.c): one copy record per argument with
 * its caller-frame offset in `from`, one per return value with its offset
 * in `to`. */
static int builtin_call(builder_t *b, exec_insn_t *ei,
                        const ptx_function_t *callee,
                        const ptx_operand_t *args, const ptx_operand_t *rets)
{
    static const struct { uint8_t nargs, nrets; } shape[] = {
        [PTX_BUILTIN_VPRINTF] = { 2, 1 },
        [PTX_BUILTIN_ASSERTFAIL] = { 5, 0 },
    };
    const ptx_module_t *m = b->m;
    const ptx_insn_t *in = ei->ir;
    if (callee->nparams != shape[callee->builtin].nargs ||
        callee->nrets > shape[callee->builtin].nrets)
        return set_input_error(b->err, m->file, in->line, in->col,
            "'%s' is declared with %u parameters and %u return values; the "
            "CUDA runtime's takes %u and returns %u", callee->name,
            callee->nparams, callee->nrets, shape[callee->builtin].nargs,
            shape[callee->builtin].nrets);
    ptx_space_t sp;
    for (unsigned i = 0; i < callee->nparams; i++) {
        const ptx_symbol_t *a = &m->syms[m->call_lists[args->imm + i]];
        if (add_copy(b, (uint32_t)sym_address(b, a, &sp), 0, (uint32_t)a->size))
            return SIMT_EINPUT;
    }
    ei->call_count = b->p->ncopies - ei->call_first;
    ei->ret_first = b->p->ncopies;
    for (unsigned i = 0; i < callee->nrets; i++) {
        const ptx_symbol_t *r = &m->syms[m->call_lists[rets->imm + i]];
        if (add_copy(b, 0, (uint32_t)sym_address(b, r, &sp), (uint32_t)r->size))
            return SIMT_EINPUT;
    }
    ei->ret_count = b->p->ncopies - ei->ret_first;
    ei->fn = exec_select_builtin((ptx_builtin_t)callee->builtin);
    return SIMT_OK;
}

/* call (rets), f, (args): copies between the caller's .param declarations
 * and the callee's parameters, both in per-thread frames. */
/* The frame copies of a call to `callee`: arguments into its parameters
 * (*first, *count), its return values back (*rfirst, *rcount). */
static int call_copies(builder_t *b, const ptx_function_t *callee,
                       const ptx_operand_t *args, const ptx_operand_t *rets,
                       uint32_t *first, uint32_t *count, uint32_t *rfirst,
                       uint32_t *rcount)
{
    const ptx_module_t *m = b->m;
    ptx_space_t sp;
    *first = b->p->ncopies;
    for (unsigned i = 0; args && i < args->nvec; i++) {
        const ptx_symbol_t *a = &m->syms[m->call_lists[args->imm + i]];
        const ptx_symbol_t *pa = &m->syms[callee->params[i]];
        uint64_t bytes = a->size < pa->size ? a->size : pa->size;
        if (add_copy(b, (uint32_t)sym_address(b, a, &sp),
                     (uint32_t)sym_address(b, pa, &sp), (uint32_t)bytes))
            return SIMT_EINPUT;
    }
    *count = b->p->ncopies - *first;
    *rfirst = b->p->ncopies;
    for (unsigned i = 0; rets && i < rets->nvec; i++) {
        const ptx_symbol_t *r = &m->syms[m->call_lists[rets->imm + i]];
        const ptx_symbol_t *pr = &m->syms[callee->rets[i]];
        uint64_t bytes = r->size < pr->size ? r->size : pr->size;
        if (add_copy(b, (uint32_t)sym_address(b, pr, &sp),
                     (uint32_t)sym_address(b, r, &sp), (uint32_t)bytes))
            return SIMT_EINPUT;
    }
    *rcount = b->p->ncopies - *rfirst;
    return SIMT_OK;
}

/* An indirect call: one exec_icall_t per function of the program that
 * fits its .callprototype (argument and return counts); the handler picks
 * the one the target register names (exec_ctrl.c). */
static int indirect_call(builder_t *b, exec_insn_t *ei,
                         const ptx_operand_t *args, const ptx_operand_t *rets)
{
    const ptx_module_t *m = b->m;
    exec_program_t *p = b->p;
    const ptx_proto_t *pr = &m->protos[ei->ir->ops[ei->ir->nops - 1].imm];
    /* lanes calling different functions are serialised as a branch from
     * the call to itself, reconverging after it (exec_ctrl.c) */
    ei->target = (uint32_t)(ei - p->code);
    ei->reconv = ei->target + 1;
    ei->icall_first = p->nicalls;
    for (uint32_t i = 0; i < b->nfuncs; i++) {
        const ptx_function_t *g = &m->funcs[b->funcs[i]];
        if (g->is_entry || g->nparams != pr->nargs || g->nrets != pr->nrets)
            continue;
        exec_icall_t *q = realloc(p->icalls, (p->nicalls + 1) * sizeof *q);
        if (!q)
            return oom(b);
        p->icalls = q;
        exec_icall_t *c = &p->icalls[p->nicalls++];
        c->func = b->funcs[i];
        c->entry = p->pc_of_insn[g->first];
        if (call_copies(b, g, args, rets, &c->call_first, &c->call_count,
                        &c->ret_first, &c->ret_count))
            return SIMT_EINPUT;
    }
    ei->icall_count = p->nicalls - ei->icall_first;
    return SIMT_OK;
}

static int resolve_call(builder_t *b, exec_insn_t *ei)
{
    const ptx_module_t *m = b->m;
    const ptx_insn_t *in = ei->ir;
    unsigned fi = in->ops[0].kind == PTX_OPND_LIST ? 1 : 0;
    const ptx_operand_t *rets = fi == 1 ? &in->ops[0] : NULL;
    const ptx_operand_t *args = fi + 1 < in->nops &&
                                in->ops[fi + 1].kind == PTX_OPND_LIST
                                    ? &in->ops[fi + 1] : NULL;
    unsigned nargs = args ? args->nvec : 0, nrets = rets ? rets->nvec : 0;
    if (in->ops[fi].kind == PTX_OPND_REG) {
        const ptx_proto_t *pr = &m->protos[in->ops[in->nops - 1].imm];
        if (nargs != pr->nargs || nrets != pr->nrets)
            return set_input_error(b->err, m->file, in->line, in->col,
                "indirect call passes %u argument%s and %u return value%s; "
                "its prototype '%s' takes %u and returns %u", nargs,
                nargs == 1 ? "" : "s", nrets, nrets == 1 ? "" : "s",
                pr->name, pr->nargs, pr->nrets);
        return indirect_call(b, ei, args, rets);
    }
    const ptx_function_t *callee = &m->funcs[in->ops[fi].imm];
    if (nargs != callee->nparams || nrets != callee->nrets)
        return set_input_error(b->err, m->file, in->line, in->col,
            "call to '%s' passes %u argument%s and %u return value%s; the "
            "function takes %u and returns %u", callee->name, nargs,
            nargs == 1 ? "" : "s", nrets, nrets == 1 ? "" : "s",
            callee->nparams, callee->nrets);
    ei->call_first = b->p->ncopies;
    if (callee->builtin) /* the handler reads the caller's .param */
        return builtin_call(b, ei, callee, args, rets);
    return call_copies(b, callee, args, rets, &ei->call_first, &ei->call_count,
                       &ei->ret_first, &ei->ret_count);
}

/* The registers `ei` reads and writes, appended to program->refs
 * (ptx_insn_defs / ptx_insn_uses are their one definition). */
static int add_refs(builder_t *b, exec_insn_t *ei, uint32_t f)
{
    uint16_t uses[PTX_INSN_MAX_USES], defs[PTX_INSN_MAX_DEFS];
    int nu = ptx_insn_uses(ei->ir, uses, PTX_INSN_MAX_USES);
    int nd = ptx_insn_defs(ei->ir, defs, PTX_INSN_MAX_DEFS);
    exec_program_t *p = b->p;
    if (p->nrefs + (uint32_t)(nu + nd) > b->ref_cap) {
        uint32_t cap = b->ref_cap ? b->ref_cap * 2 : 256;
        while (cap < p->nrefs + (uint32_t)(nu + nd))
            cap *= 2;
        exec_regref_t *r = realloc(p->refs, cap * sizeof *r);
        if (!r)
            return oom(b);
        p->refs = r;
        b->ref_cap = cap;
    }
    const ptx_function_t *fn = &b->m->funcs[f];
    ei->ref_first = p->nrefs;
    ei->nuses = (uint8_t)nu;
    ei->ndefs = (uint8_t)nd;
    for (int i = 0; i < nu + nd; i++) {
        uint16_t r = i < nu ? uses[i] : defs[i - nu];
        p->refs[p->nrefs++] = (exec_regref_t){ .slot = b->rslot[f][r], .reg = r,
                                               .pred = fn->regs[r].type == PTX_T_PRED };
    }
    return SIMT_OK;
}

static int layout(builder_t *b)
{
    const ptx_module_t *m = b->m;
    exec_program_t *p = b->p;
    uint32_t vs = 0, ps = 0, pc = 0;
    uint64_t frame = 0;
    for (uint32_t i = 0; i < b->nfuncs; i++) {
        const ptx_function_t *fn = &m->funcs[b->funcs[i]];
        for (uint32_t r = 0; r < fn->nregs; r++)
            vs += fn->regs[r].type != PTX_T_PRED;
    }
    p->slot_func = malloc((vs ? vs : 1) * sizeof *p->slot_func);
    p->slot_reg = malloc((vs ? vs : 1) * sizeof *p->slot_reg);
    if (!p->slot_func || !p->slot_reg)
        return oom(b);
    vs = 0;
    for (uint32_t i = 0; i < b->nfuncs; i++) {
        uint32_t f = b->funcs[i];
        const ptx_function_t *fn = &m->funcs[f];
        b->rslot[f] = malloc((fn->nregs ? fn->nregs : 1) * sizeof(uint32_t));
        if (!b->rslot[f])
            return oom(b);
        exec_fsave_t *sv = &p->fsave[f];
        sv->vfirst = vs;
        sv->pfirst = ps;
        int rec = ptx_calls_itself(m, f);
        if (rec < 0)
            return oom(b);
        sv->recursive = (uint8_t)rec;
        for (uint32_t r = 0; r < fn->nregs; r++) {
            if (fn->regs[r].type == PTX_T_PRED) {
                b->rslot[f][r] = ps++;
                continue;
            }
            p->slot_func[vs] = f;
            p->slot_reg[vs] = r;
            b->rslot[f][r] = vs++;
        }
        frame = align_up(frame, 16);
        p->func_frame[f] = (uint32_t)frame;
        frame += fn->frame_bytes;
        sv->vcount = vs - sv->vfirst;
        sv->pcount = ps - sv->pfirst;
        sv->frame = p->func_frame[f];
        sv->frame_bytes = (uint32_t)fn->frame_bytes;
        for (uint32_t k = 0; k < fn->count; k++)
            p->pc_of_insn[fn->first + k] = pc++;
    }
    /* alloca's dynamic stack after every frame, when some function uses it */
    p->alloca_base = EXEC_NO_PC;
    for (uint32_t i = 0; i < b->nfuncs && p->alloca_base == EXEC_NO_PC; i++) {
        const ptx_function_t *fn = &m->funcs[b->funcs[i]];
        for (uint32_t k = fn->first; k < fn->first + fn->count; k++)
            if (m->insns[k].op == PTX_OP_ALLOCA ||
                m->insns[k].op == PTX_OP_STACKSAVE) {
                frame = align_up(frame, 16);
                p->alloca_base = (uint32_t)frame;
                frame += EXEC_ALLOCA_HEADER + EXEC_ALLOCA_BYTES;
                break;
            }
    }
    if (frame > (1u << 24))
        return set_input_error(b->err, m->file, m->funcs[p->kernel].line, 1,
            "kernel '%s' needs %llu bytes of local memory per thread (limit "
            "16 MiB)", m->funcs[p->kernel].name, (unsigned long long)frame);
    p->nslots = vs;
    p->npreds = ps;
    p->frame_bytes = (uint32_t)align_up(frame, 8);
    p->ncode = pc;
    return SIMT_OK;
}

int exec_program_build(const ptx_module_t *m, uint32_t kernel,
                       uint64_t global_base, exec_program_t **out,
                       simt_error_t *err)
{
    builder_t b;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.err = err;
    b.global_base = global_base;
    exec_program_t *p = calloc(1, sizeof *p);
    b.rslot = calloc(m->nfuncs, sizeof *b.rslot);
    int rc = SIMT_OK;
    if (!p || !b.rslot) {
        rc = oom(&b);
        goto done;
    }
    b.p = p;
    p->mod = m;
    p->kernel = kernel;
    p->param_bytes = (uint32_t)m->funcs[kernel].param_bytes;
    p->static_shared = (uint32_t)ptx_kernel_shared_bytes(m, kernel);
    p->pc_of_insn = malloc((m->ninsns ? m->ninsns : 1) * sizeof(uint32_t));
    p->func_frame = malloc(m->nfuncs * sizeof(uint32_t));
    p->fsave = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *p->fsave);
    if (!p->pc_of_insn || !p->func_frame || !p->fsave) {
        rc = oom(&b);
        goto done;
    }
    memset(p->pc_of_insn, 0xff, (m->ninsns ? m->ninsns : 1) * sizeof(uint32_t));
    memset(p->func_frame, 0xff, m->nfuncs * sizeof(uint32_t));
    if (!(b.funcs = ptx_reachable(m, kernel, &b.nfuncs, err))) {
        rc = SIMT_EINPUT;
        goto done;
    }
    if ((rc = layout(&b)) != SIMT_OK)
        goto done;
    p->code = calloc(p->ncode, sizeof *p->code);
    if (!p->code) {
        rc = oom(&b);
        goto done;
    }
    for (uint32_t i = 0; i < b.nfuncs && rc == SIMT_OK; i++) {
        uint32_t f = b.funcs[i];
        const ptx_function_t *fn = &m->funcs[f];
        ptx_cfg_t *cfg = ptx_cfg_build(m, f);
        if (!cfg) {
            rc = oom(&b);
            break;
        }
        for (uint32_t k = 0; k < fn->count && rc == SIMT_OK; k++) {
            uint32_t mi = fn->first + k;
            exec_insn_t *ei = &p->code[p->pc_of_insn[mi]];
            const ptx_insn_t *in = &m->insns[mi];
            ei->ir = in;
            ei->func = f;
            ei->space = in->space;
            ei->nops = in->nops;
            ei->target = EXEC_NO_PC;
            ei->reconv = EXEC_NO_PC;
            ei->guard = EXEC_NO_PC;
            if (in->guard != PTX_REG_SINK) {
                ei->guard = b.rslot[f][in->guard];
                ei->guard_neg = in->guard_neg;
            }
            for (unsigned o = 0; o < in->nops && rc == SIMT_OK; o++)
                rc = resolve_operand(&b, ei, o);
            if (rc != SIMT_OK)
                break;
            if (in->op == PTX_OP_BRA) {
                uint32_t r = ptx_cfg_reconvergence(cfg, m, mi);
                ei->reconv = r == PTX_CFG_NONE ? EXEC_NO_PC : p->pc_of_insn[r];
            }
            if (in->op == PTX_OP_CALL)
                rc = resolve_call(&b, ei);
            if (rc == SIMT_OK)
                rc = add_refs(&b, ei, f);
            if (rc != SIMT_OK)
                break;
            if (!ei->fn)
                ei->fn = exec_select(in);
            if (!ei->fn)
                rc = set_input_error(err, m->file, in->line, in->col,
                    "'%s%s' in this form is not supported by the model",
                    ptx_op_name((ptx_op_t)in->op),
                    ptx_type_name((ptx_type_t)in->type));
        }
        ptx_cfg_free(cfg);
    }
done:
    if (b.rslot)
        for (uint32_t f = 0; f < m->nfuncs; f++)
            free(b.rslot[f]);
    free(b.rslot);
    free(b.funcs);
    if (rc != SIMT_OK) {
        exec_program_free(p);
        return rc;
    }
    *out = p;
    return SIMT_OK;
}

void exec_program_free(exec_program_t *p)
{
    if (!p)
        return;
    free(p->code);
    free(p->pc_of_insn);
    free(p->imm);
    free(p->copies);
    free(p->icalls);
    free(p->func_frame);
    free(p->fsave);
    free(p->slot_func);
    free(p->slot_reg);
    free(p->refs);
    free(p);
}
