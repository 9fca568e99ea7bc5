/*
 * script/args.h - what peo script's options ask for (cmd_script.c parses
 * them): the input, the fields of a text line, the output, the order of
 * the records and the formatting workers.
 */
#ifndef PEO_TOOLS_SCRIPT_ARGS_H
#define PEO_TOOLS_SCRIPT_ARGS_H

/* The fields -F names, as bits. */
enum script_field {
	F_COMM = 1 << 0, F_PID = 1 << 1, F_TID = 1 << 2, F_CPU = 1 << 3, F_TIME = 1 << 4,
	F_EVENT = 1 << 5, F_IP = 1 << 6, F_ADDR = 1 << 7, F_PERIOD = 1 << 8,
	F_TRACE = 1 << 9, F_SYM = 1 << 10, F_SYMOFF = 1 << 11, F_DSO = 1 << 12,
	F_SRCLINE = 1 << 13,
};

struct script_args {
	const char *input;
	unsigned fields; /* -F's; 0: perf's default for the event, with these changes: */
	unsigned fields_add, fields_del; /* -F +field,-field */
	int json, stats, header, ns, show_task, show_mmap;
	int force; /* -f: read a damaged file as far as it goes */
	int order; /* enum peo_perfdata_order */
	int workers; /* formatting threads; -1: by the CPUs */
	const char *symfs, *kallsyms; /* --symfs, --kallsyms */
	const char *vmlinux;          /* -k, --vmlinux */
	int no_demangle;              /* --no-demangle */
	int no_inline;                /* --no-inline: unwound frames without their inlined functions */
};

#endif
