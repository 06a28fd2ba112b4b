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

#endif
