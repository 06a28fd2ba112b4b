/* dispatch.h: choosing the handler that executes an instruction. */
#ifndef EXEC_DISPATCH_H
#define EXEC_DISPATCH_H

#include "exec/exec.h"

/* The handler for `in`, or NULL if the model does not support its form. */
exec_fn exec_select(const ptx_insn_t *in);

/* Handlers, by file. */
exec_fn exec_select_int(const ptx_insn_t *in);    /* exec_int.c */
exec_fn exec_select_float(const ptx_insn_t *in);  /* exec_float.c */
exec_fn exec_select_cvt(const ptx_insn_t *in);    /* exec_cvt.c */
exec_fn exec_select_mem(const ptx_insn_t *in);    /* exec_mem.c */
exec_fn exec_select_ctrl(const ptx_insn_t *in);   /* exec_ctrl.c */
exec_fn exec_select_warp(const ptx_insn_t *in);   /* exec_warp.c */
exec_fn exec_select_tex(const ptx_insn_t *in);    /* exec_tex.c */
exec_fn exec_select_video(const ptx_insn_t *in);  /* exec_video.c */
exec_fn exec_select_half(const ptx_insn_t *in);   /* exec_half.c */
exec_fn exec_select_stack(const ptx_insn_t *in);  /* exec_stack.c: alloca */

/* IEEE binary16 to binary32 (exact), and from a double rounded once in
 * mode rnd (ptx_rnd_t; RN for none) (exec_cvt.c). */
float exec_f16_to_f32(uint32_t h);
uint32_t exec_f16_from_double(double v, int rnd);
/* A floating-point comparison (ptx_cmp_t, ordered and unordered forms)
 * (exec_float.c). */
int exec_fcmp(double a, double b, int cmp);
void exec_setp_finish(warp_t *w, const exec_insn_t *ei, uint32_t m,
                      uint32_t res); /* exec_int.c */
/* The handler of a call to a function the model provides (ptx_builtin_t),
 * or NULL (exec_builtin.c). */
exec_fn exec_select_builtin(ptx_builtin_t b);

/* Host pointer for `size` bytes at generic address `addr` read by lane l,
 * checked as a load is (a fault report and NULL otherwise), not traced
 * (exec_mem.c). */
uint8_t *exec_mem_generic(exec_ctx_t *x, warp_t *w, const exec_insn_t *ei,
                          uint64_t addr, unsigned size, unsigned l);

#endif
