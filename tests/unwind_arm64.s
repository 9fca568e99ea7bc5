// unwind_arm64.s - an arm64 program, never run, whose stacks
// test_sym_unwind makes up and unwinds on any host: start calls outer,
// outer middle, middle inner; each signs its return address (paciasp:
// pointer authentication puts a code in its top bits) and saves its frame
// record {x29, x30}, as gcc -mbranch-protection=pac-ret
// -fno-omit-frame-pointer builds them; middle's CFA is a DWARF expression.
// Linked at -Ttext=0x401000, the test's addresses: start 0x401000, its
// call returns to 0x401004; outer calls at 0x401014, its call returns to
// 0x401018, middle's to 0x401034; inner signs at 0x401040, saves at
// 0x401044 and loops at 0x40104c.
	.text
	.globl start

	.type start, %function
start:
	.cfi_startproc
	.cfi_undefined x30 // the outermost frame
	bl outer
.Lforever:
	b .Lforever
	.cfi_endproc
	.size start, . - start

	// a function's start: sign the return address, save the frame record
	.macro sign_and_save
	hint #25 // paciasp
	.cfi_negate_ra_state
	stp x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov x29, sp
	.endm

	// a function that calls \callee and returns; cfa_expr: its CFA said
	// by a DWARF expression (sp + 16), which peo's cached rules leave to
	// libdwfl
	.macro signed_call name, callee, cfa_expr=0
	.type \name, %function
\name:
	.cfi_startproc
	sign_and_save
	.if \cfa_expr
	.cfi_escape 0x0f, 0x02, 0x8f, 0x10 // DW_CFA_def_cfa_expression: DW_OP_breg31 16
	.endif
	bl \callee
	ldp x29, x30, [sp], #16
	.cfi_restore x30
	.cfi_restore x29
	.cfi_def_cfa sp, 0
	hint #29 // autiasp
	.cfi_negate_ra_state
	ret
	.cfi_endproc
	.size \name, . - \name
	.endm

	signed_call outer, middle
	signed_call middle, inner, 1

	.type inner, %function
inner:
	.cfi_startproc
	sign_and_save
.Lspin:
	b .Lspin
	.cfi_endproc
	.size inner, . - inner
