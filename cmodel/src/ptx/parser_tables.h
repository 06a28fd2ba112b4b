/* parser_tables.h: name tables and per-opcode checks used by the parser. */
#ifndef PTX_PARSER_TABLES_H
#define PTX_PARSER_TABLES_H

#include <stddef.h>

#include "ptx/ir.h"
#include "ptx/lexer.h"

ptx_type_t ptx_type_from_name(const char *s, size_t len); /* ".u32" */
int ptx_op_from_name(const char *name);                  /* -1 if unknown */
/* Why a PTX instruction the model lacks is not supported, or NULL when it
 * is no instruction the model knows of. */
const char *ptx_unsupported_reason(const char *name);
int ptx_sreg_from_name(const char *name);                /* "%tid.x" */
const char *ptx_sreg_name(ptx_sreg_t s);

/* Bits of `d` converted to float type t (f16/f32/f64). */
uint64_t ptx_float_bits(double d, ptx_type_t t);
/* Value of a TOK_FLOAT token as a double. */
double ptx_float_token_value(const ptx_token_t *t);

/* Applies one modifier (".rn", ".global", ".s32"...) to `in`.
 * Returns NULL, or the reason it is rejected. */
const char *ptx_apply_modifier(ptx_insn_t *in, const char *mod);
/* After all modifiers: NULL or what is missing/inconsistent. */
const char *ptx_check_modifiers(const ptx_insn_t *in);
/* After the operands: NULL or what is wrong with them. */
const char *ptx_check_operands(ptx_insn_t *in, const ptx_function_t *f,
                               char *why, size_t why_size);

#endif
