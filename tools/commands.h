/*
 * commands.h - the peo subcommands and helpers they share.
 */
#ifndef PEO_TOOLS_COMMANDS_H
#define PEO_TOOLS_COMMANDS_H

#include <stdio.h>

struct peo_attr;

/* Each subcommand gets argv from its own name on; returns the exit status. */
int cmd_features(int argc, char **argv);
int cmd_attr(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* list_arg.c: add @more to the comma-separated *@list (NULL at first; the
 * caller frees it): a repeated -e.  0, or -1 out of memory. */
int list_arg_append(char **list, const char *more);

/* json.c: print @s as a JSON string literal, quotes included. */
void json_print_string(FILE *out, const char *s);

/* attr_print.c: print @attr as perf -vv prints a perf_event_attr block:
 * dashes, "perf_event_attr:", one "  %-32s %s" line per non-zero field
 * with perf's names and value styles, dashes. */
void attr_print_perf(FILE *out, const struct peo_attr *attr);

#endif
