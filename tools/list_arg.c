/*
 * list_arg.c - a repeated option gathered into one comma-separated list,
 * as perf takes `-e a -e b` for `-e a,b`.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"

int list_arg_append(char **list, const char *more)
{
	size_t old = *list ? strlen(*list) : 0;
	char *joined = realloc(*list, old + strlen(more) + 2);

	if (!joined)
		return -1;
	if (old)
		joined[old++] = ',';
	strcpy(joined + old, more);
	*list = joined;
	return 0;
}
