/* test_parser_errors.c: malformed PTX must fail with SIMT_EINPUT and
 * "t.ptx:LINE:COL: error: what, why", the position being that of the
 * offending token.  Names start with parser_err_.
 *
 * K(body) (ptx_text.h) puts `body` at line 15, column 1, so an error in the
 * first body line is at 15:col. */
#include <string.h>

#include "ptx_text.h"

#define ERR(src, line, col, want)                                         \
    ptx_text_expect_error((src), strlen(src), (line), (col), (want))

#define L K_BODY_LINE

/* ---------- module header ---------- */

TEST(parser_err_missing_version)
{
    ERR(".target sm_75\n.address_size 64\n", 1, 1,
        "the module must start with .version");
}

TEST(parser_err_bad_version)
{
    ERR(".version 5.0\n.target sm_75\n.address_size 64\n", 1, 10,
        "PTX ISA version 5.0 is not supported");
}

TEST(parser_err_version_not_a_number)
{
    ERR(".version 9\n.target sm_75\n", 1, 10,
        "expected a version such as 9.0 after .version, found '9'");
}

TEST(parser_err_bad_target)
{
    ERR(".version 9.0\n.target sm_20\n.address_size 64\n", 2, 9,
        "target sm_20 is too old");
}

TEST(parser_err_target_not_a_name)
{
    ERR(".version 9.0\n.target 75\n", 2, 9, "expected a target such as sm_75");
}

TEST(parser_err_address_size_32)
{
    ERR(".version 9.0\n.target sm_75\n.address_size 32\n", 3, 15,
        ".address_size 32 is not supported");
}

TEST(parser_err_empty_input)
{
    ERR("", 1, 1, "empty module: expected .version");
}

TEST(parser_err_only_comments)
{
    ERR("// nothing\n/* here */\n", 1, 1, "empty module: expected .version");
}

TEST(parser_err_debug_section)
{
    ERR(PTX_HDR ".section .debug_info\n{\n.b8 1, 2\n", 4, 1,
        "unterminated .section: missing '}'");
}

TEST(parser_err_stray_brace_at_module_scope)
{
    ERR(PTX_HDR "}\n", 4, 1, "expected a directive");
}

TEST(parser_err_instruction_at_module_scope)
{
    ERR(PTX_HDR "ret;\n", 4, 1, "expected a directive");
}

/* ---------- lexical ---------- */

TEST(parser_err_unexpected_character)
{
    ERR(K("add.s32 %r1, %r2, #3;"), L, 19, "unexpected character");
}

/* A NUL byte: the position of the NUL is known and should be reported like
 * every other input error. */
TEST(parser_err_nul_byte)
{
    static const char text[] = PTX_HDR ".visible .entry k()\n{\nret;\0\n}\n";
    ptx_text_expect_error(text, sizeof text - 1, 6, 5, "NUL byte");
}

/* Where the comment starts, not the end of the file, tells which comment is
 * unterminated. */
TEST(parser_err_unterminated_comment)
{
    ERR(PTX_HDR ".visible .entry k()\n{\n/* never closed\nret;\n}\n", 6, 1,
        "unterminated /* comment");
}

TEST(parser_err_unterminated_string)
{
    ERR(PTX_HDR ".pragma \"nounroll;\n", 4, 9, "unterminated string literal");
}

TEST(parser_err_bad_hex_float)
{
    ERR(K("mov.f32 %f1, 0f3F80000;"), L, 14,
        "a 0f float literal needs exactly 8 hex digits");
}

TEST(parser_err_bad_hex_double)
{
    ERR(K("mov.f64 %fd1, 0d3FF000000000000;"), L, 15,
        "a 0d double literal needs exactly 16 hex digits");
}

TEST(parser_err_malformed_number)
{
    ERR(K("add.s32 %r1, %r2, 12abc;"), L, 19, "malformed number");
}

TEST(parser_err_integer_overflow)
{
    ERR(K("mov.u64 %rd1, 18446744073709551616;"), L, 15,
        "integer literal does not fit in 64 bits");
}

TEST(parser_err_hex_integer_overflow)
{
    ERR(K("mov.u64 %rd1, 0x10000000000000000;"), L, 15,
        "integer literal does not fit in 64 bits");
}

/* "09" is neither octal (0[0-7]+) nor decimal ([1-9][0-9]*). */
TEST(parser_err_octal_with_digit_9)
{
    ERR(K("mov.u32 %r1, 09;"), L, 14, "malformed number");
}

/* "0x" and "0b" without digits are not numbers. */
TEST(parser_err_hex_without_digits)
{
    ERR(K("mov.u32 %r1, 0x;"), L, 14, "malformed number");
}

TEST(parser_err_binary_without_digits)
{
    ERR(K("mov.u32 %r1, 0b;"), L, 14, "malformed number");
}

/* ---------- instructions ---------- */

TEST(parser_err_unknown_instruction)
{
    ERR(K("frobnicate.u32 %r1, %r2;"), L, 1,
        "unknown instruction 'frobnicate'");
}

TEST(parser_err_unknown_modifier)
{
    ERR(K("add.xyz.s32 %r1, %r2, %r3;"), L, 4,
        "unknown modifier '.xyz' on 'add'");
}

TEST(parser_err_state_space_on_add)
{
    ERR(K("add.global.s32 %r1, %r2, %r3;"), L, 4, "state space not allowed");
}

TEST(parser_err_extra_type)
{
    ERR(K("add.s32.u32 %r1, %r2, %r3;"), L, 8, "extra type '.u32' on 'add'");
}

TEST(parser_err_second_rounding_mode)
{
    ERR(K("add.rn.rz.f32 %f1, %f2, %f3;"), L, 7, "second rounding mode");
}

TEST(parser_err_missing_type)
{
    ERR(K("add %r1, %r2, %r3;"), L, 1, "'add': missing type suffix");
}

TEST(parser_err_missing_comparison)
{
    ERR(K("setp.s32 %p1, %r1, %r2;"), L, 1, "'setp': missing comparison");
}

TEST(parser_err_too_few_operands)
{
    ERR(K("add.s32 %r1, %r2;"), L, 1, "'add': expects 3 operands, found 2");
}

TEST(parser_err_too_many_operands)
{
    ERR(K("add.s32 %r1, %r2, %r3, %r4;"), L, 1,
        "'add': expects 3 operands, found 4");
}

TEST(parser_err_more_than_six_operands)
{
    ERR(K("lop3.b32 %r1, %r2, %r3, %r4, 1, 2, 3;"), L, 36,
        "too many operands for 'lop3'");
}

TEST(parser_err_missing_semicolon)
{
    ERR(K("add.s32 %r1, %r2, %r3\nmov.u32 %r4, 1;"), L + 1, 1,
        "expected ';' or ',' after operand of 'add', found 'mov'");
}

TEST(parser_err_undeclared_register)
{
    ERR(K("mov.u32 %r1, %q9;"), L, 14, "undeclared register '%q9'");
}

TEST(parser_err_bad_special_register_suffix)
{
    ERR(K("mov.u32 %r1, %tid.w;"), L, 14, "undeclared register '%tid'");
}

TEST(parser_err_undeclared_address_base)
{
    ERR(K("ld.global.u32 %r1, [nosuch];"), L, 21,
        "undeclared identifier 'nosuch' in address");
}

TEST(parser_err_missing_address_offset)
{
    ERR(K("ld.global.u32 %r1, [%rd1+];"), L, 26,
        "expected address offset (an integer), found ']'");
}

TEST(parser_err_ld_non_address_source)
{
    ERR(K("ld.global.u32 %r1, %rd1;"), L, 1,
        "the source must be an address such as [%rd1]");
}

TEST(parser_err_st_to_const)
{
    ERR(K("st.const.u32 [%rd1], %r1;"), L, 1,
        "cannot store to the .const space");
}

TEST(parser_err_vector_width_mismatch)
{
    ERR(K("ld.global.v4.u32 {%r1, %r2}, [%rd1];"), L, 1,
        "a .v2/.v4 load needs a {...} destination of that width");
}

TEST(parser_err_vector_too_many_elements)
{
    ERR(K("mov.b64 %rd1, {%h1, %h2, %h3, %h4, %h5};"), L, 36,
        "a vector operand has at most 4 elements");
}

TEST(parser_err_float_literal_in_int_op)
{
    ERR(K("add.s32 %r1, %r2, 1.5;"), L, 19,
        "floating-point literal used where the instruction expects an integer");
}

TEST(parser_err_negated_hex_float_in_int_op)
{
    ERR(K("mov.b32 %r1, -0f3F800000;"), L, 15,
        "negated hexadecimal float literal");
}

TEST(parser_err_setp_four_operands_without_combiner)
{
    ERR(K("setp.lt.s32 %p1, %r1, %r2, %p2;"), L, 1,
        "a fourth operand needs .and, .or or .xor");
}

TEST(parser_err_setp_combiner_without_operand)
{
    ERR(K("setp.lt.and.s32 %p1, %r1, %r2;"), L, 1,
        "a .and/.or/.xor combiner needs a predicate operand");
}

TEST(parser_err_setp_destination_not_pred)
{
    ERR(K("setp.lt.s32 %r1, %r2, %r3;"), L, 1,
        "the destination must be a .pred register");
}

TEST(parser_err_selp_selector_not_pred)
{
    ERR(K("selp.b32 %r1, %r2, %r3, %r4;"), L, 1,
        "the selector must be a .pred register");
}

TEST(parser_err_narrowing_cvt_without_rounding)
{
    ERR(K("cvt.f32.f64 %f1, %fd1;"), L, 1,
        "a narrowing float conversion needs a rounding mode");
}

TEST(parser_err_cvt_single_type)
{
    ERR(K("cvt.f32 %f1, %r1;"), L, 1,
        "needs a destination and a source type");
}

TEST(parser_err_cvta_missing_space)
{
    ERR(K("cvta.u64 %rd1, %rd2;"), L, 1, "missing state space");
}

TEST(parser_err_integer_mul_needs_mode)
{
    ERR(K("mul.s32 %r1, %r2, %r3;"), L, 1,
        "integer mul/mad needs .lo, .hi or .wide");
}

TEST(parser_err_sin_needs_approx)
{
    ERR(K("sin.f32 %f1, %f2;"), L, 1, "'sin': needs .approx");
}

TEST(parser_err_testp_missing_class)
{
    ERR(K("testp.f32 %p1, %f1;"), L, 1, "missing class");
}

TEST(parser_err_vote_ballot_pred)
{
    ERR(K("vote.ballot.pred %p1, %p2;"), L, 1,
        "vote.ballot is .b32; vote.all/any/uni are .pred");
}

TEST(parser_err_vote_sync_without_mask)
{
    ERR(K("vote.sync.any.pred %p1, %p2;"), L, 1,
        "vote.sync needs a member mask");
}

TEST(parser_err_shfl_sync_without_mask)
{
    ERR(K("shfl.sync.down.b32 %r1, %r2, 1, 31;"), L, 1,
        "shfl.sync needs d, a, b, c, membermask");
}

TEST(parser_err_shfl_missing_mode)
{
    ERR(K("shfl.sync.b32 %r1, %r2, 1, 31, -1;"), L, 1, "missing mode (.up");
}

TEST(parser_err_atom_cas_too_few_operands)
{
    ERR(K("atom.global.cas.b32 %r1, [%rd1], %r2;"), L, 1,
        "atom.cas needs compare and swap values");
}

TEST(parser_err_atom_missing_operation)
{
    ERR(K("atom.global.u32 %r1, [%rd1], 1;"), L, 1,
        "missing operation (such as .add or .cas)");
}

TEST(parser_err_red_cas)
{
    ERR(K("red.global.cas.b32 [%rd1], %r1;"), L, 1,
        "red does not support .cas or .exch");
}

TEST(parser_err_bar_missing_mode)
{
    ERR(K("bar 0;"), L, 1, "missing .sync, .arrive or .red");
}

TEST(parser_err_bra_to_register)
{
    ERR(K("bra %r1;"), L, 1, "the target must be a label");
}

/* ---------- guards, labels, registers ---------- */

TEST(parser_err_guard_not_pred)
{
    ERR(K("@%r1 ret;"), L, 2, "guard '%r1' is not a .pred register");
}

TEST(parser_err_guard_undeclared)
{
    ERR(K("@!%p9 ret;"), L, 3, "undeclared register '%p9'");
}

TEST(parser_err_undefined_label)
{
    ERR(K("bra $L_nowhere;"), L, 5,
        "undefined label or identifier '$L_nowhere' in function 'k'");
}

TEST(parser_err_duplicate_label)
{
    ERR(K("$L1:\nmov.u32 %r1, 1;\n$L1:\nmov.u32 %r1, 2;"), L + 2, 1,
        "label '$L1' is defined twice (first at line 15)");
}

TEST(parser_err_duplicate_register)
{
    ERR(K(".reg .b32 %r3;"), L, 11, "'%r3' is already declared in this scope");
}

TEST(parser_err_duplicate_register_in_list)
{
    ERR(K(".reg .u32 %x, %x;"), L, 15, "'%x' is already declared in this scope");
}

TEST(parser_err_vector_register_declaration)
{
    ERR(K(".reg .v4 .f32 %v;"), L, 6, "vector registers (.reg .v2/.v4)");
}

TEST(parser_err_unexpected_directive_in_body)
{
    ERR(K(".global .u32 g;"), L, 1, "unexpected directive '.global' inside "
        "function 'k'");
}

/* ---------- variables ---------- */

TEST(parser_err_array_size_zero)
{
    ERR(PTX_HDR ".shared .u32 arr[0];\n", 4, 18, "array size 0 of 'arr' out of range");
}

TEST(parser_err_bad_alignment)
{
    ERR(PTX_HDR ".global .align 3 .u32 g;\n", 4, 16,
        "alignment 3 is not a power of two");
}

TEST(parser_err_initializer_on_shared)
{
    ERR(PTX_HDR ".shared .u32 s = 1;\n", 4, 16,
        "only .global and .const variables may have initializers");
}

TEST(parser_err_too_many_initializers)
{
    ERR(PTX_HDR ".const .u32 c[2] = {1, 2, 3};\n", 4, 27,
        "too many initializer values for 'c'");
}

TEST(parser_err_float_initializer_for_integer)
{
    ERR(PTX_HDR ".global .s32 g = 1.5;\n", 4, 18,
        "floating-point initializer for integer variable 'g'");
}

TEST(parser_err_unsized_global)
{
    ERR(PTX_HDR ".global .u32 g[];\n", 4, 14,
        "'g' has no size: only extern .shared arrays may be unsized");
}

/* The error is about `.pred`: it should point at `.pred`, not at the name
 * after it. */
TEST(parser_err_pred_variable)
{
    ERR(PTX_HDR ".global .pred g;\n", 4, 9,
        ".pred is only allowed in .reg declarations");
}

TEST(parser_err_variable_missing_type)
{
    ERR(PTX_HDR ".global g;\n", 4, 9, "expected a type such as .u32 or .f32");
}

/* ---------- functions ---------- */

TEST(parser_err_entry_empty_body)
{
    ERR(PTX_HDR ".visible .entry k()\n{\n}\n", 4, 17,
        "function 'k' has an empty body");
}

TEST(parser_err_missing_brace_at_eof)
{
    ERR(PTX_HDR ".visible .entry k()\n{\nret;\n", 7, 1,
        "unexpected end of file inside function 'k': missing '}'");
}

TEST(parser_err_call_undeclared_function)
{
    ERR(K("call nosuch;"), L, 6, "call to undeclared function 'nosuch'");
}

TEST(parser_err_call_declared_never_defined)
{
    ERR(PTX_HDR ".func proto();\n.visible .entry k()\n{\ncall proto;\nret;\n}\n",
        7, 1, "call to 'proto', which is declared but never defined");
}

TEST(parser_err_call_entry)
{
    ERR(PTX_HDR ".visible .entry kern()\n{\nret;\n}\n"
        ".visible .entry k()\n{\ncall kern;\nret;\n}\n",
        10, 1, "'kern' is a kernel (.entry) and cannot be called");
}

TEST(parser_err_function_defined_twice)
{
    ERR(PTX_HDR ".func f()\n{\nret;\n}\n.func f()\n{\nret;\n}\n", 8, 7,
        "function 'f' is defined twice");
}

TEST(parser_err_function_name_clashes_with_variable)
{
    ERR(PTX_HDR ".global .u32 f;\n.func f()\n{\nret;\n}\n", 5, 7,
        "'f' is already declared");
}

TEST(parser_err_duplicate_parameter)
{
    ERR(PTX_HDR ".visible .entry k(.param .u32 a, .param .u32 a)\n{\nret;\n}\n",
        4, 46, "'a' is already declared");
}

TEST(parser_err_reg_parameter)
{
    ERR(PTX_HDR ".func f(.reg .b32 x)\n{\nret;\n}\n", 4, 9,
        ".reg parameters are not supported");
}

TEST(parser_err_maxntid_zero)
{
    ERR(PTX_HDR ".visible .entry k() .maxntid 0\n{\nret;\n}\n", 4, 30,
        ".maxntid value 0 out of range");
}

TEST(parser_err_unknown_header_directive)
{
    ERR(PTX_HDR ".visible .entry k() .bogus\n{\nret;\n}\n", 4, 21,
        "unexpected directive '.bogus' in the header of 'k'");
}

/* The first error wins, and the module is never returned half-built: an
 * error in the last function after valid ones. */
TEST(parser_err_after_valid_functions)
{
    ERR(PTX_HDR ".func f()\n{\nret;\n}\n.visible .entry k()\n{\n"
        "add.s32;\n}\n", 10, 1, "'add': expects 3 operands, found 0");
}

/* A NULL err is allowed (base/error.h): the parse still fails cleanly. */
TEST(parser_err_null_error_pointer)
{
    const char *src = ".target sm_75\n";
    ptx_module_t *m = ptx_parse("t.ptx", src, strlen(src), NULL);
    CHECK(m == NULL);
}

/* ---------- leaks on error paths (visible under LeakSanitizer) ---------- */

TEST(parser_err_duplicate_global)
{
    ERR(PTX_HDR ".global .u32 a;\n.global .u32 a;\n", 5, 14,
        "'a' is already declared in this scope");
}

TEST(parser_err_bad_return_parameter)
{
    ERR(PTX_HDR ".func (.param .b32 r0, .bogus) f()\n{\nret;\n}\n", 4, 24,
        "expected .param in the parameter list, found '.bogus'");
}

TEST(parser_err_function_name_missing)
{
    ERR(PTX_HDR ".func (.param .b32 r0) 123\n", 4, 24,
        "expected a function name, found '123'");
}

/* ---------- robustness: isolated in a child process ---------- */

/* [imm + imm] whose sum does not fit in 64 bits (signed overflow in the
 * parser: UBSan aborts). */
static void address_overflow_body(void)
{
    ERR(K("ld.global.u32 %r1, [0x7fffffffffffffff+0x4000000000000000];"), L, 40,
        "out of range");
}

TEST(parser_err_address_offset_overflow)
{
    ISOLATED(address_overflow_body);
}

/* Unbounded recursion: a million '{' must give an error, not a stack
 * overflow.  Either a nesting limit or "missing '}'" at the end is fine; the
 * error is on line 6. */
static void deep_nesting_check(const char *before)
{
    enum { DEPTH = 1000000 };
    size_t hl = strlen(before);
    char *text = malloc(hl + DEPTH + 1);
    CHECK(text != NULL);
    memcpy(text, before, hl);
    memset(text + hl, '{', DEPTH);
    text[hl + DEPTH] = '\0';
    simt_error_t err;
    ptx_module_t *m = ptx_text_parse_n(text, hl + DEPTH, &err);
    free(text);
    CHECK_MSG(m == NULL, "parsed");
    CHECK_EQ(err.status, SIMT_EINPUT);
}

static void deep_block_body(void)
{
    deep_nesting_check(PTX_HDR ".visible .entry k()\n{\n");
}

TEST(parser_err_deep_block_nesting)
{
    ISOLATED(deep_block_body);
}

static void deep_init_body(void)
{
    deep_nesting_check(PTX_HDR ".global .u32 g[1] = ");
}

TEST(parser_err_deep_initializer_nesting)
{
    ISOLATED(deep_init_body);
}

/* The second destination of setp (p|q) is a predicate too. */
TEST(parser_err_pipe_on_add)
{
    ERR(K("add.s32 %r1|%p1, %r2, %r3;"), L, 12, "'|' pairs destinations only");
}

TEST(parser_err_bar_warp_without_sync)
{
    ERR(K("bar.warp -1;"), L, 1, "bar.warp needs .sync");
}

TEST(parser_err_bar_warp_sync_two_operands)
{
    ERR(K("bar.warp.sync -1, 32;"), L, 1, "takes one operand, the member mask");
}

TEST(parser_err_initializer_too_large)
{
    ERR(PTX_HDR ".global .b8 g[4294967296][4] = {1};\n", 4, 13,
        "initialised variables are limited to 64 MiB");
}

TEST(parser_err_setp_second_destination_not_pred)
{
    ERR(K("setp.lt.s32 %p1|%r1, %r2, %r3;"), L, 17, "is not a .pred register");
}

/* ---------- texture and surface instructions (ptx/tex_syntax.c) ---------- */

TEST(parser_err_tex_forms)
{
    ERR(K("tex.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4}];"), L, 1,
        "missing geometry");
    ERR(K("tex.2d.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];"), L, 1,
        "needs .v4");
    ERR(K("tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4}];"), L, 1,
        ".2d coordinates are a {...} vector of 2 registers");
    ERR(K("tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, %rd2, {%f4, %f5}];"),
        L, 48, "a separate sampler operand is not supported");
    ERR(K("tex.2dms.v4.f32.s32 {%f0, %f1, %f2, %f3}, [%rd1, {%r4, %r5}];"), L, 4,
        "multi-sample textures are not supported");
    ERR(K("tld4.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];"), L, 1,
        "missing component");
    ERR(K("tld4.r.3d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5, %f6, %f6}];"),
        L, 1, "tld4 is modelled for .2d and .a2d");
    ERR(K("suld.b.2d.b32 %r1, [%rd1, {%r2, %r3}];"), L, 1,
        "missing out-of-range mode");
    ERR(K("suld.p.2d.b32.trap %r1, [%rd1, {%r2, %r3}];"), L, 5,
        "formatted surface access (.p) is not supported");
    ERR(K("sust.b.cube.b32.trap [%rd1, {%r2, %r3, %r4, %r4}], %r1;"), L, 1,
        "surfaces have no cube geometry");
    ERR(K("sust.b.2d.v2.b32.trap [%rd1, {%r2, %r3}], %r1;"), L, 1,
        "the source must be a {...} vector of 2 registers");
    ERR(K("suld.b.1d.v4.b64.zero {%rd0, %rd1, %rd2, %rd3}, [%rd4, {%r1}];"), L, 1,
        ".v4 of .b64 (32 bytes) is not supported");
    ERR(K("tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%f1, {%f4, %f5}];"), L, 42,
        "must be a .u64 register holding an object handle");
}

/* ---------- PTX that nvcc 13 emits: what is refused, and where ---------- */

TEST(parser_err_initializer_address)
{
    ERR(PTX_HDR ".global .u64 p = nothere;\n", 4, 18,
        "initializer of 'p' takes the address of 'nothere', which is not a "
        "declared variable or function");
    ERR(PTX_HDR ".global .u32 g;\n.global .u32 p = g;\n", 5, 18,
        "'p' stores the address of 'g' in 4-byte elements: addresses are "
        "64-bit");
    ERR(PTX_HDR ".global .u32 g;\n.global .b8 p[4] = {0xF0F(g)};\n", 5, 21,
        "initializer mask 0xf0f of 'p' is not a run of whole bytes");
    ERR(PTX_HDR ".const .u32 c;\n.global .u64 p = generic(c);\n", 5, 26,
        "generic(c): the model has no generic address for .const variables");
    ERR(PTX_HDR ".global .u32 g;\n.global .u64 p = {g, g};\n", 5, 22,
        "too many initializer values for 'p'");
}

TEST(parser_err_indirect_call_forms)
{
    ERR(K("call %rd1, ();"), L, 1,
        "an indirect call (through a register) needs a .callprototype");
    ERR(K("call %p1, ();"), L, 1, "an indirect call's target must be a "
        "register holding a function address");
    ERR(K("tgt: .calltargets f;"), L, 6, ".calltargets is not supported");
    ERR(K("p0: .callprototype _ (.param .b32 _);\nmov.u32 %r1, p0;"), L + 1,
        14, "'p0' is a .callprototype: only call may name it");
}

/* The CUDA device runtime and the device heap: located "not supported". */
TEST(parser_err_device_runtime)
{
    ERR(PTX_HDR ".extern .func (.param .b64 r) cudaGetParameterBufferV2\n"
        "(.param .b64 a, .param .b64 b, .param .b64 c, .param .b64 d);\n"
        ".visible .entry k()\n{\n.param .b64 r;\n.param .b64 a;\n"
        "call.uni (r), cudaGetParameterBufferV2, (a, a, a, a);\nret;\n}\n",
        10, 1, "call to 'cudaGetParameterBufferV2': the CUDA device runtime "
        "(dynamic parallelism");
    ERR(PTX_HDR ".extern .func (.param .b64 r) malloc (.param .b64 a);\n"
        ".visible .entry k()\n{\n.param .b64 r;\n.param .b64 a;\n"
        "call.uni (r), malloc, (a);\nret;\n}\n",
        9, 1, "call to 'malloc': the device heap (in-kernel malloc/free) is "
        "not supported");
}

TEST(parser_err_new_instruction_forms)
{
    ERR(K("vadd4.u32.u32.u32 %r1, %r2.b3210, %r3, %r4;"), L, 27,
        "operand selector '.b3210' of a SIMD video instruction is not "
        "supported");
    ERR(K("vadd4.u32.u32 %r1, %r2, %r3, %r4;"), L, 1, "'vadd4': needs a d, "
        "an a and a b type");
    ERR(K("vset4.u32.u32.lo %r1, %r2, %r3, %r4;"), L, 14,
        "vset compares with .eq .ne .lt .le .gt .ge, not '.lo'");
    ERR(K("vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;"), L, 1,
        ".sat cannot go with vset or the .add accumulate");
    ERR(K("match.any.sync.b32 %r1|%p1, %r2, 0xffffffff;"), L, 1,
        "match.any has no predicate destination");
    ERR(K("redux.add.u32 %r1, %r2, 0xffffffff;"), L, 1, "'redux': needs .sync");
    ERR(K("redux.sync.and.u32 %r1, %r2, 0xffffffff;"), L, 1,
        "redux.and/or/xor is .b32");
    ERR(K("bmsk.b32 %r1, %r2, %r3;"), L, 1, "missing mode (.wrap or .clamp)");
    ERR(K("elect.sync %r1, 0xffffffff;"), L, 1, "elect.sync needs d|p");
}

/* Instructions the model knows it lacks say why, where they stand. */
TEST(parser_err_known_unsupported)
{
    ERR(K("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1, %r2}, [%rd1];"),
        L, 1, "'wmma' is not supported by simtlab: warp matrix (tensor core) "
        "operations are not modelled");
    ERR(K("cp.async.ca.shared.global [%rd1], [%rd2], 16;"), L, 1,
        "'cp' is not supported by simtlab: asynchronous copies");
    ERR(K("vadd.u32.u32.u32 %r1, %r2, %r3;"), L, 1,
        "'vadd' is not supported by simtlab: scalar video instructions");
}
