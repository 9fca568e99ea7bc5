/*
 * commands.h - the peo subcommands and helpers they share.
 */
#ifndef PEO_TOOLS_COMMANDS_H
#define PEO_TOOLS_COMMANDS_H

#include <stdio.h>

/* Each subcommand gets argv from its own name on; returns the exit status. */
int cmd_features(int argc, char **argv);

/* json.c: print @s as a JSON string literal, quotes included. */
void json_print_string(FILE *out, const char *s);

#endif
